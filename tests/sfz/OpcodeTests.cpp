// The opcode table and value parsing on their own.
#include <set>
#include <string>

#include "catch.h"
#include "sfz/OpcodeTable.h"
#include "sfz/Values.h"

namespace opcode_tests {

namespace sfz = spindle::sfz;

TEST_CASE("note names", "[sfz][values]") {
  CHECK(sfz::parseNoteName("c4") == 60);
  CHECK(sfz::parseNoteName("C4") == 60);
  CHECK(sfz::parseNoteName("c#4") == 61);
  CHECK(sfz::parseNoteName("db4") == 61);
  CHECK(sfz::parseNoteName("DB4") == 61);  // 'B' is the note letter only in first place
  CHECK(sfz::parseNoteName("a0") == 21);
  CHECK(sfz::parseNoteName("c-1") == 0);
  CHECK(sfz::parseNoteName("g9") == 127);
  CHECK(sfz::parseNoteName("b3") == 59);
  CHECK_FALSE(sfz::parseNoteName("h4"));
  CHECK_FALSE(sfz::parseNoteName("c"));
  CHECK_FALSE(sfz::parseNoteName("c4x"));
}

TEST_CASE("numbers", "[sfz][values]") {
  bool trailing = true;
  CHECK(sfz::parseNumber("12", &trailing) == 12.0);
  CHECK_FALSE(trailing);
  CHECK(sfz::parseNumber("+1.5") == 1.5);
  CHECK(sfz::parseNumber("-0.25") == -0.25);
  CHECK(sfz::parseNumber("7abc", &trailing) == 7.0);
  CHECK(trailing);
  CHECK_FALSE(sfz::parseNumber("abc"));
  CHECK_FALSE(sfz::parseNumber(""));
}

TEST_CASE("integer opcodes truncate; out-of-range values clamp with a problem", "[sfz][values]") {
  const auto key = sfz::findOpcode("lovel");
  REQUIRE(key);
  auto r = sfz::parseValue(*key->spec, "64.9", 0);
  REQUIRE(r.value);
  CHECK(r.value->number == 64.0);
  CHECK(r.problem.empty());
  r = sfz::parseValue(*key->spec, "0", 0);
  REQUIRE(r.value);
  CHECK(r.value->number == 1.0);
  CHECK_FALSE(r.problem.empty());
}

TEST_CASE("the opcode table: unique names, aliases and numbered names resolve", "[sfz][table]") {
  std::set<std::string> names;
  for (const auto& spec : sfz::opcodeTable()) {
    CHECK(names.insert(std::string(spec.name)).second);
    for (auto alias : spec.aliases)
      if (!alias.empty()) CHECK(names.insert(std::string(alias)).second);
    CHECK(spec.min <= spec.max);
    if (spec.kind == sfz::ValueKind::Option) CHECK_FALSE(spec.options.empty());
  }
  CHECK(names.size() > 170);
  const auto loopmode = sfz::findOpcode("loopmode");
  REQUIRE(loopmode);
  CHECK(loopmode->spec->name == "loop_mode");
  const auto hicc = sfz::findOpcode("hicc74");
  REQUIRE(hicc);
  CHECK(hicc->spec->name == "hiccN");
  CHECK(hicc->index == 74);
  const auto curve = sfz::findOpcode("amp_velcurve_127");
  REQUIRE(curve);
  CHECK(curve->index == 127);
  CHECK_FALSE(sfz::findOpcode("volume2"));
  CHECK_FALSE(sfz::findOpcode("engine_color"));
}

TEST_CASE("reference opcodes are recognised with numbers in place of N, X, Y", "[sfz][table]") {
  CHECK(sfz::isReferenceOpcode("eq3_freq"));
  CHECK(sfz::isReferenceOpcode("amplitude_oncc10"));
  CHECK(sfz::isReferenceOpcode("lfo02_freq"));
  CHECK(sfz::isReferenceOpcode("hint_ram_based"));
  CHECK(sfz::isReferenceOpcode("sync_beats"));
  CHECK(sfz::isReferenceOpcode("region_label"));
  CHECK_FALSE(sfz::isReferenceOpcode("engine_color"));
  CHECK_FALSE(sfz::isReferenceOpcode("not_an_opcode"));
  CHECK(sfz::isReferenceOpcode("md5"));
}

}  // namespace opcode_tests
