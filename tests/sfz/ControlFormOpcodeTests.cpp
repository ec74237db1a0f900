// The controller forms the parser reads into the region for the engine: ARIA's
// stop_lohdccN/stop_hihdccN, delay_beats_random, delay_beats_onccN/curveccN, and SFZ v2's
// oscillator_detune_onccN, oscillator_mod_depth_onccN, oscillator_mod_smoothccN. What
// the engine plays from them: tests/app/ControlTimingRenderTests.cpp and
// OscillatorControlRenderTests.cpp; the <effect> controls beside name_onccN (curve, smoothing,
// step) on lofi: tests/engine/core/BusControlTests.cpp.
#include "TestUtil.h"
#include "catch.h"
#include "sfz/Parser.h"

namespace control_form_opcode_tests {

using spindle::test::countDiagnostics;
namespace instrument = spindle::instrument;
namespace sfz = spindle::sfz;

namespace {
const std::filesystem::path kVirtual = "/nonexistent-spindle/inst/control-forms.sfz";

instrument::Instrument parse(std::string_view text) { return sfz::loadString(text, kVirtual); }

const spindle::CcModulation* slot(const spindle::Region& r, spindle::ModTarget t, int cc) {
  for (int i = 0; i < r.ccModulationCount; ++i)
    if (r.ccModulations[static_cast<size_t>(i)].target == t && r.ccModulations[static_cast<size_t>(i)].cc == cc)
      return &r.ccModulations[static_cast<size_t>(i)];
  return nullptr;
}
}  // namespace

TEST_CASE("stop_lohdccN/stop_hihdccN: a 0..1 range beside stop_locc's 0..127", "[sfz][aria]") {
  const auto inst = parse(R"(<region> sample=*sine stop_lohdcc4=0.25 stop_hihdcc4=0.5 stop_hicc7=64
<region> sample=*sine stop_lohdcc4=1.5
)");
  REQUIRE(inst.regions.size() == 2);
  const auto& stops = inst.regions[0].stopCcs;
  REQUIRE(stops.size() == 2);
  CHECK(stops[0].cc == 4);
  CHECK(stops[0].lo == 0.25f);
  CHECK(stops[0].hi == 0.5f);
  CHECK(stops[1].cc == 7);
  CHECK(stops[1].hi == Approx(64.0 / 127.0));
  REQUIRE(inst.regions[1].stopCcs.size() == 1);
  CHECK(inst.regions[1].stopCcs[0].lo == 1.0f);  // clamped to the reference's 0..1
  CHECK(countDiagnostics(inst, "clamped") == 1);
  CHECK(countDiagnostics(inst, "not supported") == 0);
}

TEST_CASE("delay_beats_random and delay_beats' controller forms", "[sfz][aria]") {
  const auto inst = parse(R"(<region> sample=*sine delay_beats=0.5 delay_beats_random=2.5 delay_beats_oncc21=1.5
delay_beats_curvecc21=4
)");
  REQUIRE(inst.regions.size() == 1);
  const auto& r = inst.regions[0];
  CHECK(r.delayBeats == 0.5f);
  CHECK(r.delayBeatsRandom == 2.5f);
  const auto* m = slot(r, spindle::ModTarget::DelayBeats, 21);
  REQUIRE(m);
  CHECK(m->depth == 1.5f);
  CHECK(m->curve == 4);
  CHECK(countDiagnostics(inst, "not supported") == 0);
}

TEST_CASE("oscillator_detune_onccN, oscillator_mod_depth_onccN and oscillator_mod_smoothccN", "[sfz][v2][oscillator]") {
  const auto inst = parse(R"(<region> sample=*saw oscillator_multi=2 oscillator_detune_oncc1=-700
oscillator_mod_depth_oncc2=80 oscillator_mod_smoothcc2=150
)");
  REQUIRE(inst.regions.size() == 1);
  const auto& r = inst.regions[0];
  const auto* detune = slot(r, spindle::ModTarget::OscillatorDetune, 1);
  const auto* depth = slot(r, spindle::ModTarget::OscillatorModDepth, 2);
  REQUIRE(detune);
  REQUIRE(depth);
  CHECK(detune->depth == -700.0f);
  CHECK(depth->depth == 80.0f);
  CHECK(depth->smoothMs == 150.0f);
  CHECK(countDiagnostics(inst, "not supported") == 0);
}

TEST_CASE("<effect> controls: name_curveccN, name_smoothccN and name_stepccN join name_onccN", "[sfz][effects]") {
  const auto inst = parse(R"(<effect> type=lofi bitred_curvecc3=4 bitred_oncc3=80 bitred_smoothcc3=120
bitred_stepcc3=10 decim_oncc3=50 decim_stepcc5=20 decim_curvecc3=300 decim_smoothcc3=-5
)");
  REQUIRE(inst.buses.effects.size() == 1);
  const auto& controls = inst.buses.effects[0].controllers;
  REQUIRE(controls.size() == 3);  // bitred's CC 3, decim's CC 3, decim's CC 5
  const auto& bitred = controls[0];
  CHECK(bitred.param == spindle::BusParam::Bitred);
  CHECK(bitred.cc == 3);
  CHECK(bitred.depth == 80.0f);
  CHECK(bitred.curve == 4);
  CHECK(bitred.smoothMs == 120.0f);
  CHECK(bitred.step == 10.0f);
  const auto& decim = controls[1];
  CHECK(decim.param == spindle::BusParam::Decim);
  CHECK(decim.depth == 50.0f);
  CHECK(decim.curve == 255);       // clamped to 0..255
  CHECK(decim.smoothMs == 0.0f);   // clamped to >= 0
  CHECK(controls[2].cc == 5);
  CHECK(controls[2].depth == 0.0f);  // a step without a depth moves nothing
  CHECK(controls[2].step == 20.0f);
  CHECK(countDiagnostics(inst, "clamped") == 2);
  CHECK(countDiagnostics(inst, "not supported") == 0);
}

}  // namespace control_form_opcode_tests
