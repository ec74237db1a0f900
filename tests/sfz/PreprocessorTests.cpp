// Comments, #define, #include, values with spaces, sample paths: inline SFZ text and
// files in a scratch folder.
#include <algorithm>

#include "Fixtures.h"
#include "TestUtil.h"
#include "catch.h"
#include "sfz/Parser.h"

namespace preprocessor_tests {

using spindle::test::countDiagnostics;
using spindle::test::findDiagnostic;
using spindle::test::TempDir;
namespace instrument = spindle::instrument;
namespace sfz = spindle::sfz;
namespace fs = std::filesystem;

namespace {
std::string sampleOf(const instrument::Instrument& inst, size_t region) {
  return inst.samples.at(static_cast<size_t>(inst.regions.at(region).sampleIndex));
}
}  // namespace

TEST_CASE("// and /* */ comments are ignored, also across lines", "[sfz][preprocessor]") {
  const auto inst = sfz::loadString(R"(// <region> sample=*noise
<region> sample=*sine tune=10 // tune=20
/* <region> sample=*noise
   key=5 */ <region> sample=*silence /* volume=-20 */ volume=-3
<region>/**/sample=*sine/* a */pan=1
)", "/virtual/c.sfz");
  REQUIRE(inst.regions.size() == 3);
  CHECK(inst.regions[0].tune == 10.0f);
  CHECK(sampleOf(inst, 1) == "*silence");
  CHECK(inst.regions[1].volume == -3.0f);
  CHECK(inst.regions[1].lokey == 0);
  CHECK(inst.regions[2].pan == 1.0f);
  CHECK(inst.diagnostics.empty());
}

TEST_CASE("#define and $NAME expansion, longest name first, mid-line defines", "[sfz][preprocessor]") {
  const auto inst = sfz::loadString(R"(#define $KEY 36
#define $KEY2 52 // a comment after the value
#define $CC 64
#define $OPC volume
<region> sample=*sine key=$KEY hicc$CC=100
<region> sample=*sine key=$KEY2 $OPC=-6
<group> #define $POS 3 seq_position=$POS
<region> sample=*sine key=$POS_1 seq_length=$POS
<region> sample=*sine key=$UNDEFINED
)", "/virtual/d.sfz");
  REQUIRE(inst.regions.size() == 4);
  CHECK(inst.regions[0].lokey == 36);
  REQUIRE(inst.regions[0].ccConditions.size() == 1);
  CHECK(inst.regions[0].ccConditions[0].cc == 64);
  CHECK(inst.regions[0].ccConditions[0].hi == 100 / 127.0f);
  CHECK(inst.regions[1].lokey == 52);
  CHECK(inst.regions[1].volume == -6.0f);
  CHECK(inst.regions[2].seqPosition == 3);
  CHECK(inst.regions[2].seqLength == 3);
  CHECK(inst.regions[2].lokey == 3);  // "$POS_1" -> "3_1": the number 3, trailing text reported
  CHECK(countDiagnostics(inst, "undefined variable '$UNDEFINED'") == 1);
}

TEST_CASE("values may hold spaces; backslashes become slashes", "[sfz][preprocessor]") {
  const auto inst = sfz::loadString(
      "<region> sample=my sample file.wav key=60\n"
      "<region> sample=..\\sub dir\\x y.wav\tlokey=61 hikey=62\n"
      "<region> lokey=1 sample=a b.wav<region>sample=c.wav\n",
      "/virtual/inst/s.sfz");
  REQUIRE(inst.regions.size() == 4);
  CHECK(sampleOf(inst, 0) == "/virtual/inst/my sample file.wav");
  CHECK(inst.regions[0].lokey == 60);
  CHECK(sampleOf(inst, 1) == "/virtual/sub dir/x y.wav");
  CHECK(inst.regions[1].hikey == 62);
  CHECK(sampleOf(inst, 2) == "/virtual/inst/a b.wav");
  CHECK(sampleOf(inst, 3) == "/virtual/inst/c.wav");
  CHECK(inst.missingSamples.size() == 4);
}

TEST_CASE("missing samples are listed once; generators are kept verbatim", "[sfz][preprocessor]") {
  TempDir dir;
  dir.write("samples/kick.wav", "x");
  const auto inst = sfz::loadString(R"(<control> default_path=samples/
<region> sample=kick.wav
<region> sample=gone.wav
<region> sample=gone.wav
<region> sample=*sine
<region> sample=./gone.wav
)", dir.path() / "m.sfz");
  REQUIRE(inst.regions.size() == 5);
  CHECK(sampleOf(inst, 0) == (dir.path() / "samples/kick.wav").string());
  CHECK(sampleOf(inst, 3) == "*sine");
  CHECK(inst.regions[1].sampleIndex == inst.regions[2].sampleIndex);
  CHECK(inst.regions[1].sampleIndex == inst.regions[4].sampleIndex);
  CHECK(inst.samples.size() == 3);
  REQUIRE(inst.missingSamples.size() == 1);
  CHECK(inst.missingSamples[0] == (dir.path() / "samples/gone.wav").string());
  CHECK(countDiagnostics(inst, "sample not found") == 1);
  CHECK(findDiagnostic(inst, "sample not found")->line == 3);
}

TEST_CASE("a sample path matches case-insensitively per component", "[sfz][preprocessor]") {
  TempDir dir;
  dir.write("Samples/Drums/Kick One.WAV", "x");
  const auto inst = sfz::loadString("<region> sample=samples\\DRUMS\\kick one.wav\n"
                                    "<region> sample=Samples/Drums/Kick One.WAV\n",
                                    dir.path() / "ci.sfz");
  REQUIRE(inst.regions.size() == 2);
  CHECK(inst.missingSamples.empty());
  CHECK(sampleOf(inst, 0) == (dir.path() / "Samples/Drums/Kick One.WAV").string());
  CHECK(inst.regions[0].sampleIndex == inst.regions[1].sampleIndex);
}

TEST_CASE("default_path is a prefix, reset by a new <control>", "[sfz][preprocessor]") {
  const auto inst = sfz::loadString(R"(<control> default_path=Base\Sub\
<region> sample=a.wav
<control> default_path=Base/Sub/pre
<region> sample=fix.wav
<region> sample=*noise
<control>
<region> sample=b.wav
)", "/virtual/dp/x.sfz");
  REQUIRE(inst.regions.size() == 4);
  CHECK(sampleOf(inst, 0) == "/virtual/dp/Base/Sub/a.wav");
  CHECK(sampleOf(inst, 1) == "/virtual/dp/Base/Sub/prefix.wav");
  CHECK(sampleOf(inst, 2) == "*noise");
  CHECK(sampleOf(inst, 3) == "/virtual/dp/b.wav");
}

TEST_CASE("#include: relative to the top-level file, nested, with defines", "[sfz][preprocessor]") {
  TempDir dir;
  dir.write("inst/parts/keys.sfz", "#define $VOL -4\n#include \"more/last.sfz\"\n<region> sample=b.wav key=$KEY\n");
  dir.write("inst/more/last.sfz", "<region> sample=c.wav key=70\n");
  dir.write("inst/Other.sfz", "<region> sample=d.wav\n");
  const auto main = dir.write("inst/main.sfz", R"(#define $KEY 50
#define $DIR parts
<region> sample=a.wav
#include "$DIR/keys.sfz"
<region> sample=e.wav volume=$VOL
#include "OTHER.sfz"
#include "nothere.sfz"
<region> sample=f.wav
)");
  const auto inst = sfz::loadFile(main);
  REQUIRE(inst.ok);
  REQUIRE(inst.regions.size() == 6);
  CHECK(sampleOf(inst, 0) == (dir.path() / "inst/a.wav").string());
  CHECK(inst.regions[1].lokey == 70);
  CHECK(inst.origins[1].file == (dir.path() / "inst/more/last.sfz").string());
  CHECK(inst.origins[1].line == 1);
  CHECK(inst.regions[2].lokey == 50);
  CHECK(sampleOf(inst, 2) == (dir.path() / "inst/b.wav").string());  // samples: relative to the main file
  CHECK(inst.regions[3].volume == -4.0f);
  CHECK(sampleOf(inst, 4) == (dir.path() / "inst/d.wav").string());
  CHECK(sampleOf(inst, 5) == (dir.path() / "inst/f.wav").string());
  const auto* missing = findDiagnostic(inst, "included file not found");
  REQUIRE(missing);
  CHECK(missing->severity == instrument::Diagnostic::Severity::Error);
  CHECK(missing->line == 7);
  CHECK(missing->file == main.string());
  CHECK(countDiagnostics(inst, "relative to the including file") == 0);
}

// ARIA's rule (Karoryfer's Programs/modules/*.sfz include "modules/x.sfz" from a module).
TEST_CASE("#include inside an included file resolves against the top-level folder", "[sfz][preprocessor]") {
  TempDir dir;
  dir.write("Programs/modules/outer.sfz", "#include \"modules/inner.sfz\"\n<region> sample=*sine key=2\n");
  dir.write("Programs/modules/inner.sfz", "<region> sample=*sine key=1\n");
  // A decoy next to the including file: the top-level rule must win.
  dir.write("Programs/modules/modules/inner.sfz", "<region> sample=*sine key=99\n");
  const auto inst = sfz::loadFile(dir.write("Programs/main.sfz", "#include \"modules/outer.sfz\"\n"));
  REQUIRE(inst.regions.size() == 2);
  CHECK(inst.regions[0].lokey == 1);
  CHECK(inst.regions[1].lokey == 2);
  CHECK(inst.origins[0].file == (dir.path() / "Programs/modules/inner.sfz").string());
  CHECK(inst.diagnostics.empty());
}

TEST_CASE("#include found only next to the including file loads, with a warning naming both paths",
          "[sfz][preprocessor]") {
  TempDir dir;
  dir.write("top/parts/a.sfz", "#include \"b.sfz\"\n");
  dir.write("top/parts/b.sfz", "<region> sample=*sine key=7\n");
  const auto inst = sfz::loadFile(dir.write("top/main.sfz", "#include \"parts/a.sfz\"\n"));
  REQUIRE(inst.regions.size() == 1);
  CHECK(inst.regions[0].lokey == 7);
  const auto* warning = findDiagnostic(inst, "relative to the including file");
  REQUIRE(warning);
  CHECK(warning->severity == instrument::Diagnostic::Severity::Warning);
  CHECK(warning->file == (dir.path() / "top/parts/a.sfz").string());
  CHECK(warning->line == 1);
  CHECK(warning->message.find((dir.path() / "top/b.sfz").string()) != std::string::npos);
  CHECK(warning->message.find((dir.path() / "top/parts/b.sfz").string()) != std::string::npos);
}

TEST_CASE("#include loops are detected and reported, parsing goes on", "[sfz][preprocessor]") {
  TempDir dir;
  dir.write("a.sfz", "#include \"b.sfz\"\n<region> sample=*sine key=1\n");
  dir.write("b.sfz", "#include \"a.sfz\"\n<region> sample=*sine key=2\n");
  const auto self = dir.write("self.sfz", "#include \"self.sfz\"\n#include \"a.sfz\"\n<region> sample=*sine key=3\n");
  const auto inst = sfz::loadFile(self);
  REQUIRE(inst.ok);
  REQUIRE(inst.regions.size() == 3);
  CHECK(inst.regions[0].lokey == 2);
  CHECK(inst.regions[1].lokey == 1);
  CHECK(inst.regions[2].lokey == 3);
  CHECK(countDiagnostics(inst, "#include loop") == 2);
  const auto* loop = findDiagnostic(inst, "#include loop");
  CHECK(loop->line == 1);
  CHECK(loop->file == self.string());
}

// Found by fuzzing: inputs that hung the loader or exhausted its memory.
TEST_CASE("a #define doubling itself is cut at 4096 bytes, not grown to 2^40", "[sfz][preprocessor][fuzz]") {
  std::string text = "#define $A0 xxxxxxxxxxxxxxxx\n";
  for (int i = 1; i < 40; ++i)
    text += "#define $A" + std::to_string(i) + " $A" + std::to_string(i - 1) + "$A" + std::to_string(i - 1) + "\n";
  text += "<region> sample=$A39.wav\n";
  const auto inst = sfz::loadString(text, "/virtual/bomb.sfz");
  REQUIRE(inst.regions.size() == 1);
  CHECK(inst.samples.at(0).size() < 4096 + 64);
  CHECK(findDiagnostic(inst, "longer than 4096 bytes"));
}

TEST_CASE("an #include tree fanning out 2^29 reads stops after 4096", "[sfz][preprocessor][fuzz]") {
  TempDir dir;
  for (int i = 1; i < 30; ++i)
    dir.write("i" + std::to_string(i) + ".sfz",
              "#include \"i" + std::to_string(i + 1) + ".sfz\"\n#include \"i" + std::to_string(i + 1) + ".sfz\"\n");
  dir.write("i30.sfz", "<region> sample=*sine\n");
  const auto inst = sfz::loadFile(dir.write("main.sfz", "#include \"i1.sfz\"\n"));
  REQUIRE(inst.ok);
  CHECK(inst.regions.size() <= 4096);
  CHECK(countDiagnostics(inst, "more than 4096 #include reads") == 1);
}

TEST_CASE("#include of a device or a folder is refused, not read forever", "[sfz][preprocessor][fuzz]") {
  TempDir dir;
  dir.write("sub/x.sfz", "<region> sample=*sine\n");
  const auto inst = sfz::loadFile(
      dir.write("main.sfz", "#include \"/dev/zero\"\n#include \"sub\"\n<region> sample=*saw\n"));
  REQUIRE(inst.ok);
  REQUIRE(inst.regions.size() == 1);
  CHECK(countDiagnostics(inst, "is not a regular file") == 2);
  CHECK_FALSE(sfz::loadFile("/dev/zero").ok);
}

}  // namespace preprocessor_tests
