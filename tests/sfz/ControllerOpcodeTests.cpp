// Controller opcodes: set_cc/set_hdcc/set_realcc defaults, conditions on any of the 512
// controllers (normalised), on_locc/on_hicc triggers, aftertouch/tempo conditions,
// sw_vel, pedals, off_mode=time.
#include <algorithm>

#include "TestUtil.h"
#include "catch.h"
#include "sfz/Parser.h"

namespace controller_opcode_tests {

using spindle::test::countDiagnostics;
namespace instrument = spindle::instrument;
namespace sfz = spindle::sfz;

namespace {
const std::filesystem::path kVirtual = "/nonexistent-spindle/inst/controllers.sfz";

instrument::Instrument parse(std::string_view text) { return sfz::loadString(text, kVirtual); }

const spindle::controllers::ControllerDefault* findDefault(const instrument::Instrument& inst, int cc) {
  const auto it = std::find_if(inst.controllerDefaults.begin(), inst.controllerDefaults.end(),
                               [cc](const auto& d) { return d.cc == cc; });
  return it == inst.controllerDefaults.end() ? nullptr : &*it;
}
}  // namespace

TEST_CASE("set_cc, set_hdcc and set_realcc at any level; the last value wins", "[sfz][controllers]") {
  const auto inst = parse(R"(<control> set_cc7=100 set_cc1=10 set_hdcc226=0.25
<global> set_cc1=64
<group> set_realcc2=0.5
<region> sample=*sine set_cc300=127 set_hdcc226=0.75
)");
  REQUIRE(inst.regions.size() == 1);
  CHECK(inst.controllerDefaults.size() == 5);
  REQUIRE(findDefault(inst, 7));
  CHECK(findDefault(inst, 7)->value == 100 / 127.0f);
  CHECK(findDefault(inst, 1)->value == 64 / 127.0f);  // the same float as MIDI CC1=64
  CHECK(findDefault(inst, 226)->value == 0.75f);
  CHECK(findDefault(inst, 300)->value == 1.0f);
  CHECK(findDefault(inst, 2)->value == 0.5f);
  CHECK(findDefault(inst, 2)->highResolution);
  CHECK_FALSE(findDefault(inst, 1)->highResolution);
  CHECK(inst.diagnostics.empty());
}

TEST_CASE("set_cc values out of range clamp with a warning naming the line", "[sfz][controllers]") {
  const auto inst = parse("<control>\nset_cc1=200 set_hdcc2=1.5\n<region> sample=*sine set_cc512=3\n");
  CHECK(findDefault(inst, 1)->value == 1.0f);
  CHECK(findDefault(inst, 2)->value == 1.0f);
  CHECK(findDefault(inst, 512) == nullptr);
  CHECK(countDiagnostics(inst, "clamped") == 2);
  CHECK(countDiagnostics(inst, "number out of range") == 1);
  for (const auto& d : inst.diagnostics) CHECK(d.line >= 2);
}

TEST_CASE("conditions on any controller below 512, normalised, any number of them", "[sfz][controllers]") {
  std::string text = "<region> sample=*sine locc226=64 hihdcc300=0.5 lohdcc301=0.25";
  for (int n = 20; n < 32; ++n) text += " hicc" + std::to_string(n) + "=10";
  const auto inst = parse(text);
  REQUIRE(inst.regions.size() == 1);
  const auto& c = inst.regions[0].ccConditions;
  REQUIRE(c.size() == 15);
  CHECK((c[0].cc == 226 && c[0].lo == 64 / 127.0f && c[0].hi == 1.0f));
  CHECK((c[1].cc == 300 && c[1].lo == 0.0f && c[1].hi == 0.5f));
  CHECK((c[2].cc == 301 && c[2].lo == 0.25f && c[2].hi == 1.0f));
  CHECK((c[14].cc == 31 && c[14].hi == 10 / 127.0f));
  CHECK(inst.diagnostics.empty());
}

TEST_CASE("on_locc/on_hicc make controller-started regions; key=-1 keeps them", "[sfz][controllers]") {
  const auto inst = parse(R"(<region> sample=*sine key=-1 on_locc64=0 on_hicc64=63 pitch_keycenter=61
<region> sample=*sine start_locc64=64 start_hicc64=127 on_lohdcc200=0.5
<region> sample=*sine key=-1
)");
  REQUIRE(inst.regions.size() == 2);  // the third never plays: skipped with a warning
  const auto& up = inst.regions[0];
  REQUIRE(up.ccTriggers.size() == 1);
  CHECK((up.ccTriggers[0].cc == 64 && up.ccTriggers[0].lo == 0.0f && up.ccTriggers[0].hi == 63 / 127.0f));
  CHECK(up.noKey);
  CHECK(up.pitchKeycenter == 61);
  const auto& down = inst.regions[1];
  REQUIRE(down.ccTriggers.size() == 2);
  CHECK((down.ccTriggers[0].lo == 64 / 127.0f && down.ccTriggers[0].hi == 1.0f));
  CHECK((down.ccTriggers[1].cc == 200 && down.ccTriggers[1].lo == 0.5f));
  CHECK_FALSE(down.noKey);
  CHECK(countDiagnostics(inst, "never plays") == 1);
}

TEST_CASE("aftertouch, tempo, sw_vel, pedal and off_time opcodes", "[sfz][controllers]") {
  const auto inst = parse(R"(<region> sample=*sine lochanaft=10 hichanaft=20 lopolyaft=30 hipolyaft=40
 lobpm=90.5 hibpm=140 sw_vel=previous sustain_cc=67 sustain_lo=100 sustain_sw=off
 sostenuto_cc=69 sostenuto_lo=64 sostenuto_sw=on off_mode=time off_time=0.05
)");
  REQUIRE(inst.regions.size() == 1);
  const auto& r = inst.regions[0];
  CHECK((r.lochanaft == 10 && r.hichanaft == 20 && r.lopolyaft == 30 && r.hipolyaft == 40));
  CHECK((r.lobpm == 90.5f && r.hibpm == 140.0f));
  CHECK(r.swVelPrevious);
  CHECK((r.sustainCc == 67 && r.sustainLo == 100 / 127.0f && !r.sustainSw));
  CHECK((r.sostenutoCc == 69 && r.sostenutoLo == 64 / 127.0f && r.sostenutoSw));
  CHECK((r.offMode == spindle::OffMode::Time && r.offTime == 0.05f));
  CHECK(inst.diagnostics.empty());

  const auto defaults = parse("<region> sample=*sine");
  const auto& d = defaults.regions[0];
  CHECK((d.sustainCc == 64 && d.sostenutoCc == 66 && d.sustainSw && d.sostenutoSw));
  CHECK(d.sustainLo == 0.5f / 127.0f);
  CHECK((d.lobpm == 0.0f && d.hibpm == 500.0f && !d.swVelPrevious && d.offTime == 0.006f));
}

}  // namespace controller_opcode_tests
