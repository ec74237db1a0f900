// Scala .scl and .kbm parsing and the key pitches they give (instrument/Scala.h).
#include <cmath>
#include <filesystem>
#include <fstream>

#include "catch.h"
#include "instrument/Scala.h"

namespace scala_tests {

using namespace spindle;
using namespace spindle::instrument;

namespace {

double hz(const KeyTuning& t, int key) { return t.frequency(key); }
double centsBetween(double a, double b) { return 1200.0 * std::log2(a / b); }

KeyTuning build(const std::string& scl, const std::string& kbm) {
  ScalaScale scale;
  KeyboardMap map;
  TuningFileError error;
  REQUIRE(parseScala(scl, "t.scl", scale, error));
  if (!kbm.empty()) REQUIRE(parseKeyboardMap(kbm, "t.kbm", map, error));
  KeyTuning t;
  REQUIRE(buildTuning(scale, map, "t.kbm", t, error));
  return t;
}

}  // namespace

TEST_CASE("a .scl gives cents, ratios and integers, skipping comments", "[scala]") {
  const std::string text =
      "! meantone.scl\n!\nQuarter-comma meantone (part)\n 4\n!\n 76.04900 cents\n3/2\n 5/4 major third\n2\n";
  ScalaScale s;
  TuningFileError error;
  REQUIRE(parseScala(text, "m.scl", s, error));
  CHECK(s.description == "Quarter-comma meantone (part)");
  REQUIRE(s.cents.size() == 4);
  CHECK(s.cents[0] == Approx(76.049));
  CHECK(s.cents[1] == Approx(701.955).margin(1e-3));
  CHECK(s.cents[2] == Approx(386.3137).margin(1e-3));
  CHECK(s.cents[3] == Approx(1200.0));
}

TEST_CASE("a 19-tone scale without a map: key 60 at 261.63 Hz, 19 keys an octave", "[scala]") {
  std::string scl = "19-TET\n19\n";
  for (int i = 1; i <= 19; ++i) scl += std::to_string(1200.0 * i / 19.0) + "\n";
  const KeyTuning t = build(scl, "");
  CHECK_FALSE(t.equal);
  for (int key : {0, 41, 59, 60, 61, 69, 79, 98, 127}) {
    INFO("key " << key);
    CHECK(std::fabs(centsBetween(hz(t, key), 261.6255653 * std::exp2((key - 60) / 19.0))) < 1e-6);
    CHECK(t.plays(key));
  }
}

TEST_CASE("a .kbm places the reference note on its frequency and leaves 'x' keys unmapped", "[scala]") {
  std::string scl = "19-TET\n19\n";
  for (int i = 1; i <= 19; ++i) scl += std::to_string(1200.0 * i / 19.0) + "\n";
  const std::string kbm = "! a 12-key pattern over 19-TET\n12\n48\n84\n60\n69\n432.0\n19\n"
                          "0\nx\n3\nx\n6\n8\nx\n11\nx\n14\nx\n17\n";
  const KeyTuning t = build(scl, kbm);
  const auto expected = [](int degree, int octaves) { return 432.0 * std::exp2((degree - 14 + 19 * octaves) / 19.0); };
  CHECK(std::fabs(centsBetween(hz(t, 69), 432.0)) < 1e-6);
  CHECK(std::fabs(centsBetween(hz(t, 60), expected(0, 0))) < 1e-6);
  CHECK(std::fabs(centsBetween(hz(t, 64), expected(6, 0))) < 1e-6);
  CHECK(std::fabs(centsBetween(hz(t, 72), expected(0, 1))) < 1e-6);
  CHECK(std::fabs(centsBetween(hz(t, 59), expected(17, -1))) < 1e-6);
  for (int key : {61, 63, 66, 68, 70, 47, 85, 127}) {
    INFO("key " << key);
    CHECK_FALSE(t.plays(key));
  }
  for (int key : {48, 60, 62, 64, 65, 67, 69, 71, 84}) CHECK(t.plays(key));
}

TEST_CASE("bad .scl and .kbm files are refused naming the file and line", "[scala]") {
  ScalaScale s;
  KeyboardMap m;
  TuningFileError e;
  CHECK_FALSE(parseScala("! c\nname\n3\n100.0\nabc\n1200.0\n", "bad.scl", s, e));
  CHECK(e.text() == "bad.scl:5: 'abc' is neither cents nor a ratio");
  CHECK_FALSE(parseScala("name\n3\n100.0\n2/1\n", "short.scl", s, e));
  CHECK(e.text() == "short.scl:4: expected 3 pitches, found 2");
  CHECK_FALSE(parseScala("name\nmany\n", "count.scl", s, e));
  CHECK(e.line == 2);
  CHECK_FALSE(parseScala("name\n1\n-3/2\n", "neg.scl", s, e));
  CHECK(e.text() == "neg.scl:3: the ratio '-3/2' is not positive");
  CHECK_FALSE(parseKeyboardMap("12\n0\n127\n60\n200\n440.0\n12\n", "note.kbm", m, e));
  CHECK(e.text() == "note.kbm:5: the reference note must be a whole number from 0 to 127");
  CHECK_FALSE(parseKeyboardMap("! c\n2\n0\n127\n60\n69\n0\n12\n0\n1\n", "hz.kbm", m, e));
  CHECK(e.text() == "hz.kbm:7: the reference frequency must be above 0 Hz");
  CHECK_FALSE(parseKeyboardMap("2\n0\n127\n60\n69\n440.0\n12\n0\ny\n", "deg.kbm", m, e));
  CHECK(e.text() == "deg.kbm:9: 'y' is neither a scale degree nor 'x'");
  CHECK_FALSE(parseKeyboardMap("1\n0\n127\n60\n69\n440.0\n1\n0\n0\n", "long.kbm", m, e));
  CHECK(e.line == 9);
  // Valid alone, but the reference falls on an unmapped key.
  REQUIRE(parseKeyboardMap("2\n0\n127\n60\n61\n440.0\n0\n0\nx\n", "ref.kbm", m, e));
  KeyTuning t;
  CHECK_FALSE(buildTuning(equalScale(), m, "ref.kbm", t, e));
  CHECK(e.text() == "ref.kbm:5: the reference note 61 is unmapped");
}

TEST_CASE("loadTuning reads the files, names the scale and reports a missing file", "[scala]") {
  const auto dir = std::filesystem::temp_directory_path() / "spindle-scala-tests";
  std::filesystem::create_directories(dir);
  const std::string scl = (dir / "five.scl").string();
  std::ofstream(scl) << "! five.scl\n Five equal\n5\n240.0\n480.0\n720.0\n960.0\n2/1\n";
  TuningResult r;
  TuningFileError e;
  REQUIRE(loadTuning({scl, ""}, r, e));
  CHECK(r.scaleName == "Five equal");
  CHECK(std::fabs(centsBetween(r.tuning.frequency(61), 261.6255653 * std::exp2(0.2))) < 1e-6);
  REQUIRE(loadTuning({}, r, e));
  CHECK(r.tuning.equal);
  CHECK_FALSE(loadTuning({(dir / "missing.scl").string(), ""}, r, e));
  CHECK(e.text() == (dir / "missing.scl").string() + ": cannot be read");
}

}  // namespace scala_tests
