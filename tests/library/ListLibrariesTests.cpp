// `spindle --list-libraries` (the real program) on the fake home of LibraryTree.h: each
// instrument listed with its format and path, the font's presets under it, the broken
// file's error; --json one document (read by Python's json) with every field.
#include "LibraryTree.h"
#include "app/RunProcess.h"
#include "catch.h"

namespace list_libraries_tests {

namespace fs = std::filesystem;
using spindle::test::LibraryTree;
using spindle::test::runProcess;

namespace {

bool hasLine(const std::string& out, const std::string& line) {
  return out.find("\n" + line + "\n") != std::string::npos || out.rfind(line + "\n", 0) == 0;
}

}  // namespace

TEST_CASE("spindle --list-libraries lists every instrument, the font's presets and the broken one's error") {
  const LibraryTree tree("library-list-text");
  const auto run = runProcess({SPINDLE_EXE, "--list-libraries"}, tree.base);
  INFO(run.out << run.err);
  REQUIRE(run.exitCode == 0);
  CHECK(hasLine(run.out, "piano  [sfz]  " + tree.sfz().string()));
  CHECK(hasLine(run.out, "three  [sf2]  " + tree.font().string()));
  CHECK(hasLine(run.out, "My Kit  [hydrogen]  " + tree.kit().string()));
  CHECK(hasLine(run.out, "Packed  [h2drumkit]  " + tree.packed().string()));
  CHECK(hasLine(run.out, "strings  [dspreset]  " + tree.preset().string()));
  CHECK(hasLine(run.out, "extra  [sfz]  " + tree.extraSfz().string()));
  const std::string font = "three  [sf2]  " + tree.font().string() + "\n";
  CHECK(run.out.find(font + "    000:000  Alpha\n    000:005  Beta\n    128:000  Drums\n") != std::string::npos);
  const std::string broken = "broken  [sfz]  " + tree.broken().string() + "\n    error: " + tree.broken().string() +
                             ": no playable region";
  CHECK(run.out.find(broken) != std::string::npos);
  CHECK(run.out.find(tree.extra.string()) != std::string::npos);
}

TEST_CASE("spindle --list-libraries --json prints one JSON document with every field") {
  const LibraryTree tree("library-list-json");
  const auto run = runProcess({SPINDLE_EXE, "--list-libraries", "--json"}, tree.base);
  INFO(run.out << run.err);
  REQUIRE(run.exitCode == 0);
  LibraryTree::write(tree.base / "list.json", run.out);
  // Python's own reader: the entries under the fake home, each with all 15 fields.
  const std::string check =
      "import json, sys\n"
      "d = json.load(open(sys.argv[1]))\n"
      "keys = {'name','format','path','root','bytes','regions','samples','loKey','hiKey','controls','picture',"
      "'presets','error','modified','modifiedNs'}\n"
      "ours = [e for e in d['entries'] if e['path'].startswith(sys.argv[2])]\n"
      "assert all(keys <= set(e) for e in d['entries'])\n"
      "font = [e for e in ours if e['format'] == 'sf2'][0]\n"
      "print(len(ours), len(font['presets']), font['presets'][1]['program'], font['presets'][2]['bank'],\n"
      "      sum(1 for e in ours if e['error']), [e['picture'] for e in ours if e['format'] == 'dspreset'][0])\n";
  LibraryTree::write(tree.base / "check.py", check);
  const fs::path out = tree.base / "py";
  fs::create_directories(out);
  const auto py = runProcess({"python3", (tree.base / "check.py").string(), (tree.base / "list.json").string(),
                              tree.base.string()}, out);
  INFO(py.err);
  REQUIRE(py.exitCode == 0);
  CHECK(py.out == "7 3 5 128 1 " + (tree.preset().parent_path() / "images" / "bg.png").string() + "\n");
}

}  // namespace list_libraries_tests
