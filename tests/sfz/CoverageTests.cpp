// How much of the SFZ reference Spindle plays. One instrument sets every opcode of
// syntax.yml once (placeholders N, X, Y = 1), one opcode per line, and the opcodes
// Spindle reports as unsupported are not played; every other one is then rendered
// without and with it (PlayedCoverage.h) and counts as played only when some value of
// it changes what comes out. Counted per version.
//
// Floors: today's measured numbers, raised as more is played. This test counts
// 184 / 397 / 144 entries (v1 / v2 / ARIA): it includes the vel2* modulation entries and
// the modulation lists of aliases (cutoff2_ccN), which a count by opcode name leaves out.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "Fixtures.h"
#include "PlayedCoverage.h"
#include "SyntaxReference.h"
#include "TestUtil.h"
#include "catch.h"
#include "sfz/Parser.h"

namespace coverage_tests {

namespace instrument = spindle::instrument;
namespace sfz = spindle::sfz;
using spindle::test::SyntaxOpcode;

namespace {

// Measured with this test's method: v1 184/184, v2 313/397, ARIA 126/144 played (an
// <effect> opcode counted only when a played effect type reads it and changes the sound;
// an opcode that needs a context to be heard gets it from PlayedScenarios.cpp). What is
// still not played, and why, is in docs/formats.md.
constexpr int kFloorV1 = 184, kFloorV2 = 313, kFloorAria = 126;

// The opcode name with its placeholders filled: N, X, Y -> 1, NNN -> 001, '*' -> a name.
std::string concreteName(const SyntaxOpcode& op) {
  std::string name = op.name;
  if (name == "vNNN") return "v001";
  if (name.starts_with("*")) return (op.firstTarget.empty() ? "amplitude" : op.firstTarget) + name.substr(1);
  // hint_* (no targets): hint_ram_based; varNN_*: its first target (var11_amplitude).
  if (name.ends_with("*"))
    name = name.substr(0, name.size() - 1) + (op.firstTarget.empty() ? "ram_based" : op.firstTarget);
  std::string out;
  for (char c : name) out += (c == 'N' || c == 'X' || c == 'Y') ? std::string("1") : std::string(1, c);
  return out;
}

bool isNumber(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

std::string valueFor(const SyntaxOpcode& op) {
  if (op.name == "sample") return "*sine";
  if (!op.firstOption.empty()) return op.firstOption;
  if (isNumber(op.defaultValue)) return op.defaultValue;
  if (isNumber(op.min)) return op.min;
  return "1";
}

enum class Place { Control, Curve, Effect, Region, Preprocessor };

// Where an opcode is written: <control> for the instrument settings that only apply
// there, <curve> for curve points, <effect> for the reference's "Effects" category (its
// url is /headers/effect) but for the region's sends effect1..effect4, the preprocessor's
// directives nowhere (Spindle runs both), everything else in one <region>. An <effect>
// opcode counts as supported only when an effect Spindle plays reads it; the others are
// reported as not supported.
Place placeOf(const SyntaxOpcode& op) {
  if (op.name.starts_with("#")) return Place::Preprocessor;
  if (op.category == "Curves") return Place::Curve;
  const bool send = op.name == "effect1" || op.name == "effect2" || op.name == "effect3" || op.name == "effect4";
  if (op.category == "Effects" && !send) return Place::Effect;
  static const std::set<std::string> control = {"default_path", "note_offset", "octave_offset", "label_ccN",
                                                "label_keyN", "label_outputN", "set_ccN", "set_hdccN",
                                                "set_realccN", "sw_note_offset", "sw_octave_offset", "hint_*"};
  return control.count(op.name) != 0 ? Place::Control : Place::Region;
}

bool saysUnsupported(const std::string& message) {
  return message.find("is not supported") != std::string::npos ||
         message.find("unknown opcode") != std::string::npos ||
         message.find("has no effect in <control>") != std::string::npos;
}

struct Tally {
  int total = 0, played = 0;
  std::vector<std::string> unsupported, silent;
};

const char* placeName(Place place) {
  switch (place) {
    case Place::Control: return "control";
    case Place::Curve: return "curve";
    case Place::Effect: return "effect";
    default: return "region";
  }
}

// The preprocessor's directives change the render through what they stand for: #define
// a key, #include a region.
bool directivePlayed(const std::string& name, const std::filesystem::path& folder) {
  namespace p = spindle::test::played;
  const std::string path = (folder / "all.sfz").string();
  if (name == "#define")
    return p::differ(p::render("<region> sample=s.wav key=$K\n", path),
                     p::render("#define $K 62\n<region> sample=s.wav key=$K\n", path));
  if (name == "#include") {
    std::ofstream(folder / "included.sfz") << "<region> sample=s.wav key=62\n";
    return p::differ(p::render("<region> sample=s.wav\n", path),
                     p::render("<region> sample=s.wav\n#include \"included.sfz\"\n", path));
  }
  return false;
}

// Whether some value of `op` changes the render (PlayedCoverage.h).
bool played(const SyntaxOpcode& op, const std::filesystem::path& folder) {
  namespace p = spindle::test::played;
  const Place place = placeOf(op);
  if (place == Place::Preprocessor) return directivePlayed(op.name, folder);
  const std::string name = concreteName(op);
  const p::Scenario scenario = p::scenarioFor(name);
  std::vector<std::string> values = p::candidates(op, scenario);
  values.insert(values.begin(), valueFor(op));
  const std::string path = "/virtual/mod-test.sfz";
  const std::vector<float> without = p::render(p::texts(placeName(place), name, "", scenario).without, path, scenario);
  for (const std::string& value : values) {
    if (value == op.defaultValue) continue;
    const std::string with = p::texts(placeName(place), name, name + "=" + value, scenario).with;
    if (p::differ(without, p::render(with, path, scenario))) return true;
  }
  return false;
}

// The opcodes the all-in-one instrument reports as not supported (by index).
std::set<size_t> unsupportedOpcodes(const std::vector<SyntaxOpcode>& opcodes) {
  // Lines: <control> first, then <curve>, <effect>, <region>; one opcode per line, so each
  // diagnostic's line names its opcode.
  std::map<Place, std::string> header = {{Place::Control, "<control>"}, {Place::Curve, "<curve> curve_index=3"},
                                         {Place::Effect, "<effect>"}, {Place::Region, "<region> sample=*sine"}};
  std::string text;
  std::map<int, size_t> opcodeAtLine;
  int line = 0;
  for (Place place : {Place::Control, Place::Curve, Place::Effect, Place::Region}) {
    text += header[place] + "\n";
    ++line;
    for (size_t i = 0; i < opcodes.size(); ++i) {
      if (placeOf(opcodes[i]) != place) continue;
      text += concreteName(opcodes[i]) + "=" + valueFor(opcodes[i]) + "\n";
      opcodeAtLine[++line] = i;
    }
  }
  const instrument::Instrument inst = sfz::loadString(text, "/nonexistent-spindle/coverage/all.sfz");
  std::set<size_t> unsupported;
  for (const instrument::Diagnostic& d : inst.diagnostics) {
    const auto it = opcodeAtLine.find(d.line);
    if (it != opcodeAtLine.end() && saysUnsupported(d.message)) unsupported.insert(it->second);
  }
  return unsupported;
}

void print(const std::map<std::string, Tally>& tally) {
  for (const auto& [version, t] : tally) {
    std::cout << "coverage " << version << ": " << t.played << "/" << t.total << " played\n";
    for (const auto& [what, names] : {std::pair{"unsupported", &t.unsupported}, std::pair{"accepted, not heard", &t.silent}}) {
      if (names->empty()) continue;
      std::cout << "  " << what << ":";
      for (const std::string& name : *names) std::cout << ' ' << name;
      std::cout << '\n';
    }
  }
}

}  // namespace

TEST_CASE("coverage of the SFZ reference: every opcode of syntax.yml, played when it changes the sound",
          "[sfz][coverage][fixtures][fidelity]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "sfz-syntax/syntax.yml");
  const std::vector<SyntaxOpcode> opcodes = spindle::test::readSyntaxOpcodes(fixtures / "sfz-syntax" / "syntax.yml");
  REQUIRE(opcodes.size() > 700);
  const std::set<size_t> unsupported = unsupportedOpcodes(opcodes);
  spindle::test::TempDir folder;
  std::map<std::string, Tally> tally;
  for (size_t i = 0; i < opcodes.size(); ++i) {
    Tally& t = tally[opcodes[i].version];
    ++t.total;
    if (unsupported.count(i)) t.unsupported.push_back(opcodes[i].name);
    else if (played(opcodes[i], folder.path())) ++t.played;
    else t.silent.push_back(opcodes[i].name);
  }
  print(tally);
  CHECK(tally["SFZ v1"].total == 184);
  CHECK(tally["SFZ v2"].total == 397);
  CHECK(tally["ARIA"].total == 144);
  CHECK(tally["SFZ v1"].played >= kFloorV1);
  CHECK(tally["SFZ v2"].played >= kFloorV2);
  CHECK(tally["ARIA"].played >= kFloorAria);
  // Labels name things and never sound: a harness that counted one would count anything.
  const std::vector<std::string>& ariaSilent = tally["ARIA"].silent;
  for (const char* label : {"label_ccN", "sw_label", "region_label"})
    CHECK(std::find(ariaSilent.begin(), ariaSilent.end(), label) != ariaSilent.end());
  CHECK(tally["SFZ v1"].silent.empty());
  CHECK(tally["SFZ v1"].unsupported.empty());
}

}  // namespace coverage_tests
