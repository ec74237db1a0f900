// <effect> blocks of the lofi, disto, comp, gate and limiter types into the bus layout:
// their parameters, their controls, the stereo links, and static left unplayed.
#include "BusEffectAccess.h"
#include "TestUtil.h"
#include "catch.h"
#include "sfz/Parser.h"

namespace effect_dynamics_opcode_tests {

using spindle::test::countDiagnostics;
namespace instrument = spindle::instrument;
namespace sfz = spindle::sfz;
using spindle::test::hasControl;
using spindle::test::value;
using namespace spindle;

namespace {

const std::string kVirtual = "/nonexistent-spindle/effects/dynamics.sfz";
instrument::Instrument parse(std::string_view text) { return sfz::loadString(text, kVirtual); }
}  // namespace

TEST_CASE("<effect>: lofi, disto, comp, gate and limiter with their parameters and controls", "[sfz][effects]") {
  const auto inst = parse(R"(<region> sample=*sine
<effect> type=lofi bitred=40 decim=20 bitred_oncc20=30 decim_oncc21=50
<effect> bus=fx1 type=disto disto_depth=70 disto_tone=60 disto_stages=3 disto_dry=80 disto_wet=90
  disto_depth_oncc1=10 disto_tone_oncc2=-20 disto_dry_oncc3=5 disto_wet_oncc4=-50
<effect> type=comp comp_attack=0.01 comp_release=0.2 comp_ratio=6 comp_threshold=-24 comp_gain=3 comp_stlink=on
<effect> type=gate gate_attack=0.002 gate_release=0.3 gate_threshold=-45 gate_stlink=on gate_oncc64=100
<effect> type=limiter bypass_oncc65=0.5
)");
  const BusLayout& b = inst.buses;
  REQUIRE(b.effects.size() == 5);
  const BusEffect& lofi = b.effects[0];
  CHECK(lofi.type == BusEffectType::Lofi);
  CHECK((value(lofi, BusParam::Bitred) == 40.0f && value(lofi, BusParam::Decim) == 20.0f));
  CHECK(hasControl(lofi, BusParam::Bitred, 20, 30.0f));
  CHECK(hasControl(lofi, BusParam::Decim, 21, 50.0f));
  const BusEffect& disto = b.effects[1];
  CHECK((disto.type == BusEffectType::Disto && disto.bus == 1));
  CHECK(value(disto, BusParam::DistoDepth) == 70.0f);
  CHECK(value(disto, BusParam::DistoTone) == 60.0f);
  CHECK(value(disto, BusParam::DistoStages) == 3.0f);
  CHECK(value(disto, BusParam::DistoDry) == 80.0f);
  CHECK(value(disto, BusParam::DistoWet) == 90.0f);
  CHECK(disto.controllers.size() == 4);
  CHECK(hasControl(disto, BusParam::DistoWet, 4, -50.0f));
  const BusEffect& comp = b.effects[2];
  CHECK(comp.type == BusEffectType::Comp);
  CHECK((value(comp, BusParam::CompAttack) == 0.01f && value(comp, BusParam::CompRelease) == 0.2f));
  CHECK((value(comp, BusParam::CompRatio) == 6.0f && value(comp, BusParam::CompThreshold) == -24.0f));
  CHECK((value(comp, BusParam::CompGain) == 3.0f && value(comp, BusParam::CompLink) == 1.0f));
  const BusEffect& gate = b.effects[3];
  CHECK(gate.type == BusEffectType::Gate);
  CHECK((value(gate, BusParam::GateAttack) == 0.002f && value(gate, BusParam::GateRelease) == 0.3f));
  CHECK((value(gate, BusParam::GateThreshold) == -45.0f && value(gate, BusParam::GateLink) == 1.0f));
  CHECK(value(gate, BusParam::GateManual) == 0.0f);
  CHECK(hasControl(gate, BusParam::GateManual, 64, 100.0f));
  CHECK(b.effects[4].type == BusEffectType::Limiter);
  CHECK(hasControl(b.effects[4], BusParam::Bypass, 65, 0.5f));
  CHECK(inst.diagnostics.empty());
}

TEST_CASE("<effect>: unwritten, the new types start from sfizz's defaults", "[sfz][effects]") {
  const auto inst = parse("<region> sample=*sine\n<effect> type=disto\n<effect> type=comp\n<effect> type=gate\n");
  REQUIRE(inst.buses.effects.size() == 3);
  const BusEffect& disto = inst.buses.effects[0];
  CHECK((value(disto, BusParam::DistoTone) == 100.0f && value(disto, BusParam::DistoStages) == 1.0f));
  CHECK((value(disto, BusParam::DistoDry) == 0.0f && value(disto, BusParam::DistoWet) == 0.0f));
  const BusEffect& comp = inst.buses.effects[1];
  CHECK((value(comp, BusParam::CompAttack) == 0.005f && value(comp, BusParam::CompRelease) == 0.05f));
  CHECK((value(comp, BusParam::CompRatio) == 1.0f && value(comp, BusParam::CompLink) == 0.0f));
  CHECK(value(inst.buses.effects[2], BusParam::GateThreshold) == 0.0f);
}

TEST_CASE("<effect>: a stereo link other than on or off is named; static noise is not played", "[sfz][effects]") {
  const auto inst = parse(R"(<region> sample=*sine
<effect> type=comp comp_stlink=maybe
<effect> type=static static_level=50 static_type=1
)");
  REQUIRE(inst.buses.effects.size() == 1);
  CHECK(value(inst.buses.effects[0], BusParam::CompLink) == 0.0f);
  CHECK(countDiagnostics(inst, "comp_stlink 'maybe' is neither on nor off") == 1);
  CHECK(countDiagnostics(inst, "effect type 'static' is not played") == 1);
}

}  // namespace effect_dynamics_opcode_tests
