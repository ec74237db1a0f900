// <effect> blocks of the types with memory: delay, phaser, reverb and fverb, their
// parameters, controls and names, and the opcodes Spindle does not play among them.
#include "BusEffectAccess.h"
#include "TestUtil.h"
#include "catch.h"
#include "sfz/Parser.h"

namespace tail_effect_opcode_tests {

using spindle::test::findDiagnostic;
namespace instrument = spindle::instrument;
namespace sfz = spindle::sfz;
using spindle::test::hasControl;
using spindle::test::value;
using namespace spindle;

namespace {

const std::string kVirtual = "/nonexistent-spindle/effects/tails.sfz";
instrument::Instrument parse(std::string_view text) { return sfz::loadString(text, kVirtual); }

}  // namespace

TEST_CASE("<effect> type=delay: taps, levels, pans, feedback, mix, filter and damping", "[sfz][effects]") {
  const auto inst = parse(R"(<region> sample=*sine
<effect> type=delay delay_timel=0.25 delay_timer=0.375 delay_timec=0.5 delay_levell=80 delay_levelr=70
 delay_levelc=60 delay_panl=10 delay_panr=90 delay_panc=40 delay_feedback=45 delay_input=90 delay_dry=70
 delay_wet=60 delay_filter=hpf_2p delay_cutoff=500 delay_resonance=3 delay_damphi=20 delay_damplo=10
 delay_timel_oncc20=0.1 delay_feedback_oncc21=30 delay_cutoff_oncc22=2000
)");
  REQUIRE(inst.buses.effects.size() == 1);
  const BusEffect& d = inst.buses.effects[0];
  CHECK(d.type == BusEffectType::Delay);
  const std::pair<BusParam, float> expected[] = {
      {BusParam::DelayTimeL, 0.25f}, {BusParam::DelayTimeR, 0.375f}, {BusParam::DelayTimeC, 0.5f},
      {BusParam::DelayLevelL, 80.0f}, {BusParam::DelayLevelR, 70.0f}, {BusParam::DelayLevelC, 60.0f},
      {BusParam::DelayPanL, 10.0f}, {BusParam::DelayPanR, 90.0f}, {BusParam::DelayPanC, 40.0f},
      {BusParam::DelayFeedback, 45.0f}, {BusParam::DelayInput, 90.0f}, {BusParam::DelayDry, 70.0f},
      {BusParam::DelayWet, 60.0f}, {BusParam::DelayCutoff, 500.0f}, {BusParam::DelayResonance, 3.0f},
      {BusParam::DelayDampHi, 20.0f}, {BusParam::DelayDampLo, 10.0f}};
  for (const auto& [param, v] : expected) CHECK(value(d, param) == v);
  CHECK((d.filterWritten && d.filterType == FilterType::Hpf2p));
  CHECK(hasControl(d, BusParam::DelayTimeL, 20, 0.1f));
  CHECK(hasControl(d, BusParam::DelayFeedback, 21, 30.0f));
  CHECK(hasControl(d, BusParam::DelayCutoff, 22, 2000.0f));
  CHECK(inst.diagnostics.empty());
}

TEST_CASE("<effect> type=phaser and type=fverb / reverb", "[sfz][effects]") {
  const auto inst = parse(R"(<region> sample=*sine
<effect> type=phaser phaser_stages=6 phaser_freq=0.5 phaser_depth=80 phaser_feedback=40 phaser_waveform=1
 phaser_wet=70 phaser_phase_oncc10=25 phaser_freq_oncc11=4
<effect> type=fverb reverb_type=small_room reverb_size=40 reverb_damp=20 reverb_tone=70 reverb_predelay=0.03
 reverb_input=90 reverb_dry=80 reverb_wet=50 reverb_size_oncc12=30 reverb_wet_oncc13=-20
<effect> type=reverb reverb_type=nowhere
)");
  REQUIRE(inst.buses.effects.size() == 3);
  const BusEffect& p = inst.buses.effects[0];
  CHECK(p.type == BusEffectType::Phaser);
  CHECK(value(p, BusParam::PhaserStages) == 6.0f);
  CHECK(value(p, BusParam::PhaserFreq) == 0.5f);
  CHECK(value(p, BusParam::PhaserDepth) == 80.0f);
  CHECK(value(p, BusParam::PhaserFeedback) == 40.0f);
  CHECK(value(p, BusParam::PhaserWet) == 70.0f);
  CHECK(p.wave == 1);
  CHECK(hasControl(p, BusParam::PhaserPhase, 10, 25.0f));
  CHECK(hasControl(p, BusParam::PhaserFreq, 11, 4.0f));
  const BusEffect& r = inst.buses.effects[1];
  CHECK(r.type == BusEffectType::Reverb);
  CHECK(r.reverbType == 5);  // small_room
  CHECK(value(r, BusParam::ReverbSize) == 40.0f);
  CHECK(value(r, BusParam::ReverbDamp) == 20.0f);
  CHECK(value(r, BusParam::ReverbTone) == 70.0f);
  CHECK(value(r, BusParam::ReverbPredelay) == 0.03f);
  CHECK(value(r, BusParam::ReverbInput) == 90.0f);
  CHECK(value(r, BusParam::ReverbDry) == 80.0f);
  CHECK(value(r, BusParam::ReverbWet) == 50.0f);
  CHECK(hasControl(r, BusParam::ReverbSize, 12, 30.0f));
  CHECK(hasControl(r, BusParam::ReverbWet, 13, -20.0f));
  // sfizz's defaults for an unwritten fverb: no input, dry or wet (it silences its bus).
  const BusEffect& plain = inst.buses.effects[2];
  CHECK(plain.type == BusEffectType::Reverb);
  CHECK(plain.reverbType == 0);
  CHECK(value(plain, BusParam::ReverbInput) == 0.0f);
  CHECK(value(plain, BusParam::ReverbDry) == 0.0f);
  REQUIRE(inst.diagnostics.size() == 1);
  CHECK(findDiagnostic(inst, "reverb_type 'nowhere'"));
}

TEST_CASE("<effect>: the delay's mode, spread, tempo sync and strings are not played; its LFO is", "[sfz][effects]") {
  const auto inst = parse(R"(<region> sample=*sine
<effect> type=delay delay_timel=0.2 delay_mode=cross delay_spread=50 delay_lfofreq=2 delay_moddepth=30
 delay_syncl_oncc1=1 delay_time_tap=1
<effect> type=strings strings_number=12
)");
  REQUIRE(inst.buses.effects.size() == 1);
  for (const char* name : {"delay_mode", "delay_spread", "delay_syncl_oncc1", "delay_time_tap", "strings"}) {
    INFO(name);
    CHECK(findDiagnostic(inst, name));
  }
  CHECK_FALSE(findDiagnostic(inst, "delay_lfofreq"));
  CHECK_FALSE(findDiagnostic(inst, "delay_moddepth"));
  CHECK(value(inst.buses.effects[0], BusParam::DelayLfoFreq) == 2.0f);
  CHECK(value(inst.buses.effects[0], BusParam::DelayModDepth) == 30.0f);
}

}  // namespace tail_effect_opcode_tests
