// <effect> blocks into the bus layout: types, buses, parameters and their controls, the
// bus levels, and what is skipped.
#include "BusEffectAccess.h"
#include "TestUtil.h"
#include "catch.h"
#include "sfz/Parser.h"

namespace effect_opcode_tests {

using spindle::test::countDiagnostics;
namespace instrument = spindle::instrument;
namespace sfz = spindle::sfz;
using spindle::test::value;
using namespace spindle;

namespace {

const std::string kVirtual = "/nonexistent-spindle/effects/x.sfz";
instrument::Instrument parse(std::string_view text) { return sfz::loadString(text, kVirtual); }

}  // namespace

TEST_CASE("<effect>: each block is one effect on its bus, with its parameters and controls", "[sfz][effects]") {
  const auto inst = parse(R"(<region> sample=*sine effect1=25 effect4=100
<effect> type=eq eq_type=hshelf eq_freq=4000 eq_bw=2 eq_gain=-6 eq_gain_oncc20=12
<effect> bus=fx2 type=filter filter_type=hpf_4p filter_cutoff=300 filter_resonance=3 filter_cutoff_oncc1=5000
<effect> bus=fx1 type=gain gain=-3 fx1tomain=50 fx1tomix=20 directtomain=80
<effect> type=width width=-40
<effect> type=rectify rectify=75
)");
  REQUIRE(inst.regions.size() == 1);
  CHECK(inst.regions[0].fxSends() == std::array<float, 4>{25.0f, 0.0f, 0.0f, 100.0f});
  const BusLayout& b = inst.buses;
  REQUIRE(b.effects.size() == 5);
  CHECK(b.toOutput == std::array<float, kBuses>{0.8f, 0.7f, 0.0f, 0.0f, 0.0f});
  const BusEffect& eq = b.effects[0];
  CHECK((eq.type == BusEffectType::Eq && eq.bus == 0 && eq.eqType == EqType::HighShelf));
  CHECK(value(eq, BusParam::EqFreq) == 4000.0f);
  CHECK(value(eq, BusParam::EqBw) == 2.0f);
  CHECK(value(eq, BusParam::EqGain) == -6.0f);
  REQUIRE(eq.controllers.size() == 1);
  CHECK((eq.controllers[0].param == BusParam::EqGain && eq.controllers[0].cc == 20 && eq.controllers[0].depth == 12.0f));
  const BusEffect& filter = b.effects[1];
  CHECK((filter.type == BusEffectType::Filter && filter.bus == 2 && filter.filterType == FilterType::Hpf4p));
  CHECK(value(filter, BusParam::FilterCutoff) == 300.0f);
  CHECK(value(filter, BusParam::FilterResonance) == 3.0f);
  CHECK(filter.controllers.size() == 1);
  CHECK((b.effects[2].type == BusEffectType::Gain && b.effects[2].bus == 1 && value(b.effects[2], BusParam::Gain) == -3.0f));
  CHECK(value(b.effects[3], BusParam::Width) == -40.0f);
  CHECK(value(b.effects[4], BusParam::Rectify) == 75.0f);
  CHECK(inst.diagnostics.empty());
}

TEST_CASE("<effect>: types and buses not played skip their block, said once per name; their opcodes are not "
          "supported",
          "[sfz][effects]") {
  const auto inst = parse(R"(<region> sample=*sine
<effect> type=strings strings_number=12
<effect> type=strings
<effect> bus=aux1 type=gain gain=-6
<effect> type=gain gain=-6 bypass_oncc10=1 bogus_fx=2
<effect> directtomain=150
)");
  REQUIRE(inst.buses.effects.size() == 1);  // the last gain
  CHECK(inst.buses.toOutput[0] == 1.0f);    // clamped to the reference's 100 %
  CHECK(countDiagnostics(inst, "effect type 'strings' is not played") == 1);
  CHECK(countDiagnostics(inst, "bus 'aux1' is not played") == 1);
  CHECK(countDiagnostics(inst, "opcode 'strings_number' is not supported") == 1);
  CHECK(countDiagnostics(inst, "bypass_oncc10") == 0);  // played: a bypass control
  CHECK(inst.unknownOpcodes == std::vector<std::string>{"bogus_fx"});
}

TEST_CASE("<effect>: no block leaves the layout unused, so the program mixes its voices straight", "[sfz][effects]") {
  CHECK_FALSE(parse("<region> sample=*sine effect1=50\n").buses.used());
  CHECK(parse("<region> sample=*sine\n<effect> directtomain=50\n").buses.used());
}

}  // namespace effect_opcode_tests
