// The library index on a fake home (LibraryTree.h): what it lists of each format, the
// cache that spares a warm start the loads, the watch that follows new and removed files.
#include <chrono>
#include <thread>

#include "LibraryTree.h"
#include "catch.h"
#include "library/EntryJson.h"
#include "library/LibraryIndex.h"

namespace library_index_tests {

namespace fs = std::filesystem;
using spindle::library::Entry;
using spindle::library::Index;
using spindle::library::Options;
using spindle::test::entryAt;
using spindle::test::LibraryTree;

namespace {

constexpr auto kScanTimeout = std::chrono::seconds(120);

Options options(bool watch) { return {spindle::library::defaultRoots(), spindle::library::defaultCacheFile(), watch}; }

// Waits up to `limit` for `ready`; the time it took, or -1 s when it never was.
template <typename Ready>
std::chrono::duration<double> timeUntil(Ready ready, std::chrono::seconds limit) {
  const auto begin = std::chrono::steady_clock::now();
  while (!ready()) {
    if (std::chrono::steady_clock::now() - begin > limit) return std::chrono::seconds(-1);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return std::chrono::steady_clock::now() - begin;
}

bool has(const Index& index, const fs::path& path) {
  for (const Entry& e : index.entries())
    if (e.path == path.string()) return true;
  return false;
}

std::uint64_t folderBytes(const fs::path& folder) {
  std::uint64_t total = 0;
  for (const auto& file : fs::recursive_directory_iterator(folder))
    if (file.is_regular_file()) total += file.file_size();
  return total;
}

}  // namespace

TEST_CASE("Library index: every format in the standard and saved folders, with its fields") {
  const LibraryTree tree("library-index-formats");
  Index index(options(false));
  index.start();
  REQUIRE(index.waitIdle(kScanTimeout));
  const std::vector<Entry> entries = index.entries();
  const Entry sfz = entryAt(entries, tree.sfz());
  CHECK((sfz.format == "sfz" && sfz.name == "piano" && sfz.error.empty()));
  CHECK((sfz.regions == 1 && sfz.samples == 1 && sfz.loKey == 40 && sfz.hiKey == 80));
  CHECK(sfz.controls == std::vector<std::string>{"Brightness"});
  CHECK(sfz.bytes == fs::file_size(tree.sfz()));
  CHECK(sfz.root == (tree.dataHome / "sfz").string());
  const Entry font = entryAt(entries, tree.font());
  CHECK((font.format == "sf2" && font.error.empty()));
  REQUIRE(font.presets.size() == 3);
  CHECK((font.presets[0].bank == 0 && font.presets[0].program == 0 && font.presets[0].name == "Alpha"));
  CHECK((font.presets[1].bank == 0 && font.presets[1].program == 5 && font.presets[1].name == "Beta"));
  CHECK((font.presets[2].bank == 128 && font.presets[2].program == 0 && font.presets[2].name == "Drums"));
  const Entry kit = entryAt(entries, tree.kit());
  CHECK((kit.format == "hydrogen" && kit.name == "My Kit" && kit.error.empty()));
  CHECK((kit.regions == 1 && kit.loKey == 36 && kit.hiKey == 36));
  CHECK(kit.picture == (tree.kit() / "kit.png").string());
  CHECK(kit.bytes == folderBytes(tree.kit()));
  const Entry packed = entryAt(entries, tree.packed());
  CHECK((packed.format == "h2drumkit" && packed.error.empty() && packed.regions == 1));
  CHECK(fs::path(packed.picture).filename() == "kit.png");
  const Entry preset = entryAt(entries, tree.preset());
  CHECK((preset.format == "dspreset" && preset.name == "strings" && preset.error.empty()));
  CHECK((preset.regions == 1 && preset.loKey == 60 && preset.hiKey == 72));
  CHECK(preset.controls == std::vector<std::string>{"Tone"});
  CHECK(preset.picture == (tree.preset().parent_path() / "images" / "bg.png").string());
  const Entry broken = entryAt(entries, tree.broken());
  CHECK(broken.error.find(tree.broken().string()) == 0);
  CHECK(broken.error.find("no playable region") != std::string::npos);
  CHECK(entryAt(entries, tree.extraSfz()).root == tree.extra.string());
}

TEST_CASE("Library index: search by name, format, controls and preset names, case-insensitive") {
  const LibraryTree tree("library-index-search");
  Index index(options(false));
  index.start();
  REQUIRE(index.waitIdle(kScanTimeout));
  const auto ours = [&](const std::string& text) {
    std::vector<std::string> paths;
    for (const Entry& e : index.search(text))
      if (e.path.rfind(tree.base.string(), 0) == 0) paths.push_back(e.path);
    return paths;
  };
  CHECK(ours("BETA") == std::vector<std::string>{tree.font().string()});
  CHECK(ours("brightness") == std::vector<std::string>{tree.sfz().string()});
  CHECK(ours("my kit") == std::vector<std::string>{tree.kit().string()});
  CHECK(ours("h2drumkit") == std::vector<std::string>{tree.packed().string()});
  CHECK(ours("no such thing anywhere").empty());
  CHECK(ours("").size() == tree.all().size());
}

TEST_CASE("Library index: a warm start reads its entries from the cache and loads only changed files") {
  const LibraryTree tree("library-index-cache");
  std::size_t count = 0;
  {
    Index cold(options(false));
    cold.start();
    REQUIRE(cold.waitIdle(kScanTimeout));
    count = cold.entries().size();
    CHECK(cold.loads() == count);
  }
  REQUIRE(fs::exists(spindle::library::defaultCacheFile()));
  {
    Index warm(options(false));
    CHECK(warm.entries().empty());
    warm.start();
    CHECK(warm.entries().size() == count);  // from the cache, before the scan
    REQUIRE(warm.waitIdle(kScanTimeout));
    CHECK(warm.loads() == 0);
    CHECK(warm.entries().size() == count);
  }
  // The same size, within the same second maybe: the nanoseconds of the time tell.
  LibraryTree::write(tree.sfz(), "<control> label_cc1=Brightness\n<region> sample=*sine lokey=30 hikey=80\n");
  Index changed(options(false));
  changed.start();
  REQUIRE(changed.waitIdle(kScanTimeout));
  CHECK(changed.loads() == 1);
  CHECK(entryAt(changed.entries(), tree.sfz()).loKey == 30);
}

TEST_CASE("Library index: a file added to a watched folder, or removed, shows within 2 s") {
  const LibraryTree tree("library-index-watch");
  Index index(options(true));
  index.start();
  REQUIRE(index.waitIdle(kScanTimeout));
  const std::uint64_t serial = index.serial();
  const fs::path added = tree.dataHome / "sfz" / "new" / "deeper" / "added.sfz";
  LibraryTree::write(added, "<region> sample=*saw key=62\n");
  const auto shown = timeUntil([&] { return has(index, added); }, std::chrono::seconds(10));
  INFO("shown after " << shown.count() << " s");
  CHECK((shown.count() >= 0 && shown.count() < 2.0));
  CHECK(index.serial() > serial);
  if (has(index, added)) CHECK(entryAt(index.entries(), added).loKey == 62);
  fs::remove(tree.broken());
  const auto gone = timeUntil([&] { return !has(index, tree.broken()); }, std::chrono::seconds(10));
  INFO("gone after " << gone.count() << " s");
  CHECK((gone.count() >= 0 && gone.count() < 2.0));
}

TEST_CASE("Library index: a folder added while it runs is scanned; cancel stops a scan") {
  const LibraryTree tree("library-index-add");
  Options only{{tree.dataHome / "soundfonts"}, tree.base / "own-cache.json", false};
  Index index(only);
  index.start();
  REQUIRE(index.waitIdle(kScanTimeout));
  REQUIRE(index.entries().size() == 1);
  index.addRoot(tree.extra);
  REQUIRE(index.waitIdle(kScanTimeout));
  CHECK(index.entries().size() == 2);
  CHECK(has(index, tree.extraSfz()));
  CHECK(index.progress().done == 2);
  CHECK(index.progress().total == 2);
  index.rescan();
  index.cancel();
  REQUIRE(index.waitIdle(kScanTimeout));
  CHECK_FALSE(index.progress().scanning);
  CHECK(index.entries().size() == 2);  // what was found stays
}

TEST_CASE("Library index: entries survive the JSON form") {
  Entry e;
  e.name = "Quote \" and \\ and\ttab é";
  e.format = "sf2";
  e.path = "/a/b.sf2";
  e.root = "/a";
  e.bytes = 1ull << 40;
  e.regions = 3;
  e.samples = 2;
  e.loKey = 0;
  e.hiKey = 127;
  e.controls = {"One", "Two"};
  e.picture = "/a/p.png";
  e.presets = {{128, 3, "Kit"}, {0, 0, "Piano"}};
  e.error = "/a/b.sf2: bad";
  e.modified = 1700000000;
  e.modifiedNs = 999999999;
  const auto back = spindle::library::fromJson(spindle::library::toJson({e, e}));
  REQUIRE(back);
  REQUIRE(back->size() == 2);
  const Entry& r = back->at(1);
  CHECK((r.name == e.name && r.format == e.format && r.path == e.path && r.root == e.root && r.bytes == e.bytes));
  CHECK((r.regions == 3 && r.samples == 2 && r.loKey == 0 && r.hiKey == 127 && r.controls == e.controls));
  CHECK((r.picture == e.picture && r.error == e.error && r.modified == e.modified && r.modifiedNs == e.modifiedNs));
  REQUIRE(r.presets.size() == 2);
  CHECK((r.presets[0].bank == 128 && r.presets[0].program == 3 && r.presets[0].name == "Kit"));
  CHECK_FALSE(spindle::library::fromJson("{\"entries\": [").has_value());
}

}  // namespace library_index_tests
