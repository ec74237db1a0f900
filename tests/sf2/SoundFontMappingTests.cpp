// Generators and modulators as region values (sf2/RegionMapping.h): envelopes, LFOs,
// the filter and its velocity bands, levels and pan, preset-level and global zones.
// Every expected value is worked out here from the SF2 2.04 units and FluidSynth's
// scales (0.4 of initialAttenuation, 96 dB envelope range, -3.01 dB pan middle).
#include <cmath>

#include "Sf2TestSupport.h"

namespace sound_font_mapping_tests {

namespace sf2 = spindle::sf2;
using spindle::ModTarget;
using spindle::Region;
using spindle::test::absoluteCents;
using spindle::test::amount;
using spindle::test::loadFont;
using spindle::test::oneZoneFont;
using spindle::test::range;
using spindle::test::regionFor;
using spindle::test::timecents;

namespace {

constexpr double kCentreDb = -3.0103;  // FluidSynth's sine pan law in the middle
constexpr double kQ0Gain = 1.50515;    // -0.5 * (0 - 3.0103): the filter's gain at Q = 0

float depth(const spindle::FlexLfo& lfo, ModTarget t) { return lfo.depth[static_cast<size_t>(t)]; }

const spindle::FlexLfo* lfoNumber(const Region& r, int number) {
  for (const spindle::FlexLfo& l : r.lfos)
    if (l.number == number) return &l;
  return nullptr;
}

const spindle::CcModulation* ccModulation(const Region& r, int cc) {
  for (uint8_t i = 0; i < r.ccModulationCount; ++i)
    if (r.ccModulations[i].cc == cc) return &r.ccModulations[i];
  return nullptr;
}

}  // namespace

TEST_CASE("volume envelope timecents become seconds, sustain centibels a percentage", "[sf2][mapping]") {
  const auto inst = loadFont(oneZoneFont({{sf2::kDelayVolEnv, amount(-1200)}, {sf2::kAttackVolEnv, 0},
                                          {sf2::kHoldVolEnv, 1200}, {sf2::kDecayVolEnv, amount(-2400)},
                                          {sf2::kSustainVolEnv, 60}, {sf2::kReleaseVolEnv, amount(-8000)}}),
                             "sf2-volenv");
  REQUIRE(inst.regions.size() == 2);  // the default velocity-to-cutoff switch: two bands
  for (const Region& r : inst.regions) {
    CHECK(r.ampeg.delay == Approx(0.5));
    CHECK(r.ampeg.attack == Approx(1.0));
    CHECK(r.ampeg.hold == Approx(2.0));
    CHECK(r.ampeg.decay == Approx(0.25));
    CHECK(r.ampeg.sustain == Approx(100.0 * std::pow(10.0, -0.96 * 6.0 / 20.0)));  // 51.5 %
    CHECK(r.ampeg.release == Approx(timecents(-7200)));  // clamped to FluidSynth's shortest
    CHECK(r.ampeg.decayShape == Approx(-std::log(std::pow(10.0, 96.0 / 20.0))));  // 96 dB over the stage
    CHECK(r.ampeg.releaseShape == Approx(r.ampeg.decayShape));
    CHECK((r.ampeg.decayZero == 1.0f && r.ampeg.releaseZero == 1.0f));
  }
}

TEST_CASE("volume envelope defaults, full sustain attenuation and hold -32768", "[sf2][mapping]") {
  const auto quiet = loadFont(oneZoneFont({{sf2::kSustainVolEnv, 1000}, {sf2::kHoldVolEnv, amount(-32768)}}), "sf2-volenv-min");
  const Region& r = regionFor(quiet, 60, 100);
  CHECK(r.ampeg.sustain == 0.0f);  // 96 dB down: silence
  CHECK(r.ampeg.hold == 0.0f);
  CHECK(r.ampeg.delay == Approx(timecents(-12000)));  // the spec's default, about 1 ms
  CHECK(r.ampeg.decay == Approx(timecents(-12000)));
  const auto loud = loadFont(oneZoneFont({{sf2::kSustainVolEnv, amount(-100)}}), "sf2-volenv-neg");
  CHECK(regionFor(loud, 60, 100).ampeg.sustain == Approx(100.0));  // negative attenuation clamps to 0 cB
}

TEST_CASE("keynumToVolEnvDecay gives one region per key, decay scaled by 2^(kn*(60-key)/1200)", "[sf2][mapping]") {
  const auto inst = loadFont(oneZoneFont({{sf2::kKeyRange, range(48, 72)}, {sf2::kDecayVolEnv, 0},
                                          {sf2::kKeynumToVolEnvDecay, 100}, {sf2::kHoldVolEnv, 0}}),
                             "sf2-keydecay");
  CHECK(inst.regions.size() == 25 * 2);  // keys 48..72, two velocity bands each
  CHECK(regionFor(inst, 60, 100).ampeg.decay == Approx(1.0));
  CHECK(regionFor(inst, 72, 100).ampeg.decay == Approx(0.5));
  CHECK(regionFor(inst, 48, 30).ampeg.decay == Approx(2.0));
  CHECK(regionFor(inst, 66, 30).ampeg.decay == Approx(std::exp2(-0.5)));
  CHECK(regionFor(inst, 72, 100).ampeg.hold == Approx(1.0));  // no keynumToVolEnvHold
  const Region& k72 = regionFor(inst, 72, 100);
  CHECK((k72.lokey == 72 && k72.hikey == 72));
}

TEST_CASE("the modulation envelope becomes pitcheg and fileg with their depths", "[sf2][mapping]") {
  const auto inst = loadFont(oneZoneFont({{sf2::kDelayModEnv, amount(-2400)}, {sf2::kAttackModEnv, 1200},
                                          {sf2::kHoldModEnv, 0}, {sf2::kDecayModEnv, amount(-1200)},
                                          {sf2::kSustainModEnv, 250}, {sf2::kReleaseModEnv, 2400},
                                          {sf2::kModEnvToPitch, 1200}, {sf2::kModEnvToFilterFc, amount(-2400)}}),
                             "sf2-modenv");
  const Region& r = regionFor(inst, 60, 100);
  for (const spindle::EnvelopeParams* e : {&r.pitcheg, &r.fileg}) {
    CHECK(e->delay == Approx(0.25));
    CHECK(e->attack == Approx(2.0));
    CHECK(e->hold == Approx(1.0));
    CHECK(e->decay == Approx(0.5));
    CHECK(e->sustain == Approx(75.0));  // 100 % - 250 per mille
    CHECK(e->release == Approx(4.0));
    CHECK(e->attackShape == Approx(5.0));
  }
  CHECK(r.pitcheg.depth == Approx(1200.0));
  CHECK(r.fileg.depth == Approx(-2400.0));
  CHECK(r.ampeg.attack == Approx(timecents(-12000)));  // the volume envelope is untouched
}

TEST_CASE("keynumToModEnvHold scales the modulation envelope's hold per key, not the volume's", "[sf2][mapping]") {
  const auto inst = loadFont(oneZoneFont({{sf2::kKeyRange, range(60, 72)}, {sf2::kHoldModEnv, 0},
                                          {sf2::kKeynumToModEnvHold, 50}, {sf2::kModEnvToPitch, 100}}),
                             "sf2-keymodhold");
  CHECK(inst.regions.size() == 13 * 2);
  CHECK(regionFor(inst, 60, 100).pitcheg.hold == Approx(1.0));
  CHECK(regionFor(inst, 72, 100).pitcheg.hold == Approx(std::exp2(-0.5)));  // -600 tc
  CHECK(regionFor(inst, 64, 100).fileg.hold == Approx(std::exp2(-200.0 / 1200.0)));
  CHECK(regionFor(inst, 72, 100).ampeg.hold == Approx(timecents(-12000)));
}

TEST_CASE("the modulation LFO is lfo1 and the vibrato LFO lfo2, with rates, delays and depths", "[sf2][mapping]") {
  const auto inst = loadFont(oneZoneFont({{sf2::kFreqModLfo, 1200}, {sf2::kDelayModLfo, amount(-1200)},
                                          {sf2::kModLfoToPitch, 50}, {sf2::kModLfoToFilterFc, amount(-600)},
                                          {sf2::kModLfoToVolume, 30}, {sf2::kFreqVibLfo, amount(-1200)},
                                          {sf2::kDelayVibLfo, 0}, {sf2::kVibLfoToPitch, 20}}),
                             "sf2-lfos");
  const Region& r = regionFor(inst, 60, 100);
  const spindle::FlexLfo* mod = lfoNumber(r, 1);
  const spindle::FlexLfo* vib = lfoNumber(r, 2);
  REQUIRE((mod && vib));
  CHECK(mod->wave == 0.0f);  // triangle
  CHECK(mod->freq == Approx(16.352).epsilon(1e-4));
  CHECK(mod->delay == Approx(0.5));
  CHECK(depth(*mod, ModTarget::Pitch) == Approx(50.0));
  CHECK(depth(*mod, ModTarget::Cutoff) == Approx(-600.0));
  CHECK(depth(*mod, ModTarget::Volume) == Approx(3.0));  // 30 cB
  CHECK(vib->wave == 0.0f);
  CHECK(vib->freq == Approx(4.088).epsilon(1e-4));
  CHECK(vib->delay == Approx(1.0));
  CHECK(depth(*vib, ModTarget::Pitch) == Approx(20.0));
  CHECK(depth(*vib, ModTarget::Volume) == 0.0f);
  // The default CC1 and channel-pressure modulators: 50 cents of the vibrato LFO each.
  for (int cc : {1, 129}) {
    const spindle::CcModulation* m = ccModulation(r, cc);
    REQUIRE(m);
    CHECK(m->target == ModTarget::Pitch);
    CHECK(m->depth == Approx(50.0));
    CHECK(m->lfo == 2);  // lfos = {lfo1, lfo2}: entry 2 is the vibrato LFO
  }
}

TEST_CASE("without depths there is no modulation LFO; the mod wheel still makes the vibrato LFO", "[sf2][mapping]") {
  const auto inst = loadFont(oneZoneFont({{sf2::kFreqModLfo, 1200}}), "sf2-lfo-none");
  const Region& r = regionFor(inst, 60, 100);
  CHECK(lfoNumber(r, 1) == nullptr);
  REQUIRE(r.lfos.size() == 1);
  CHECK(r.lfos[0].number == 2);
  CHECK(r.lfos[0].freq == Approx(8.176));  // 0 cents
  CHECK(r.lfos[0].delay == Approx(timecents(-12000)));
  CHECK(depth(r.lfos[0], ModTarget::Pitch) == 0.0f);
  const spindle::CcModulation* wheel = ccModulation(r, 1);
  REQUIRE(wheel);
  CHECK(wheel->depth == Approx(50.0));
  REQUIRE(wheel->lfo == 1);  // the region's first (only) LFO entry...
  CHECK(r.lfos[wheel->lfo - 1].number == 2);  // ...which is the vibrato LFO
}

TEST_CASE("the filter: cutoff, resonance, its gain, and the default velocity switch's two bands", "[sf2][mapping]") {
  const auto inst = loadFont(oneZoneFont({{sf2::kInitialFilterFc, 6000}, {sf2::kInitialFilterQ, 100}}), "sf2-filter");
  REQUIRE(inst.regions.size() == 2);
  const Region& soft = regionFor(inst, 60, 63);
  const Region& hard = regionFor(inst, 60, 64);
  CHECK((soft.lovel == 1 && soft.hivel == 63 && hard.lovel == 64 && hard.hivel == 127));
  const double fc = absoluteCents(6000);  // 261.6 Hz
  for (const Region* r : {&soft, &hard}) {
    CHECK(r->filType == spindle::FilterType::Lpf2p);
    CHECK(r->resonance == Approx(10.0));  // 100 cB
    CHECK(r->volume == Approx(kCentreDb - 0.5 * (10.0 - 3.0103)).margin(1e-4));
  }
  CHECK(soft.cutoff == Approx(fc).epsilon(1e-4));  // below 64 the switch is off
  CHECK(soft.filVeltrack == 0.0f);
  CHECK(hard.filVeltrack == Approx(2400.0).epsilon(1e-4));
  // FluidSynth at velocity v >= 64: -2400 * (1 - v/127) cents from the generator's cutoff.
  for (int v : {64, 100, 127}) {
    const double want = fc * std::exp2(-2400.0 * (1.0 - v / 127.0) / 1200.0);
    const double veltrack = static_cast<double>(hard.filVeltrack) * v / 127.0;
    CHECK(static_cast<double>(hard.cutoff) * std::exp2(veltrack / 1200.0) == Approx(want).epsilon(1e-4));
  }
}

TEST_CASE("a file modulator identical to the default velocity-to-cutoff one replaces it", "[sf2][mapping]") {
  // FluidSynth's identity: source 0x0102, amount source 0x0C02 (switch, positive).
  const auto off = loadFont(oneZoneFont({}, {{0x0102, sf2::kInitialFilterFc, 0, 0x0C02, 0}}), "sf2-velfilter-off");
  REQUIRE(off.regions.size() == 1);
  CHECK(off.regions[0].filType == spindle::FilterType::None);
  CHECK((off.regions[0].lovel == 1 && off.regions[0].hivel == 127));
  CHECK(off.regions[0].volume == Approx(kCentreDb).margin(1e-4));  // no filter gain either
  // TimGM6mb's variant (amount source 0x0D02, a negative switch) is another modulator.
  const auto kept = loadFont(oneZoneFont({}, {{0x0102, sf2::kInitialFilterFc, 0, 0x0D02, 0}}), "sf2-velfilter-kept");
  REQUIRE(kept.regions.size() == 2);
  CHECK(regionFor(kept, 60, 100).filVeltrack == Approx(2400.0).epsilon(1e-4));
  CHECK(regionFor(kept, 60, 100).cutoff == Approx(absoluteCents(13500) / 4.0).epsilon(1e-4));
}

TEST_CASE("initialAttenuation counts 0.4, pan is percent, velocity follows (v/127)^2", "[sf2][mapping]") {
  const auto inst = loadFont(oneZoneFont({{sf2::kInitialAttenuation, 100}, {sf2::kPan, 250}}), "sf2-level");
  const Region& r = regionFor(inst, 60, 100);
  CHECK(r.volume == Approx(-4.0 + kCentreDb + kQ0Gain).margin(1e-4));  // 100 cB * 0.4 = 4 dB
  CHECK(r.pan == Approx(50.0));
  REQUIRE(r.hasAmpVelcurve);
  for (int v : {1, 32, 64, 100, 127}) CHECK(r.ampVelcurve[static_cast<size_t>(v)] == Approx(std::pow(v / 127.0, 2.0)).epsilon(1e-3));
  const auto wide = loadFont(oneZoneFont({{sf2::kPan, amount(-700)}}), "sf2-pan-clamp");
  CHECK(regionFor(wide, 60, 100).pan == Approx(-100.0));
}

TEST_CASE("preset zones add to the instrument's generators but may not set instrument-only ones", "[sf2][mapping]") {
  const auto inst = loadFont(oneZoneFont({{sf2::kInitialAttenuation, 100}, {sf2::kPan, 250}, {sf2::kCoarseTune, 1}},
                                         {},
                                         {{sf2::kInitialAttenuation, 50}, {sf2::kPan, amount(-100)}, {sf2::kCoarseTune, 2},
                                          {sf2::kSampleModes, 1}, {sf2::kOverridingRootKey, 40}, {sf2::kExclusiveClass, 4}}),
                             "sf2-preset-add");
  const Region& r = regionFor(inst, 60, 100);
  CHECK(r.volume == Approx(-6.0 + kCentreDb + kQ0Gain).margin(1e-4));  // 150 cB
  CHECK(r.pan == Approx(30.0));                                         // 150 per mille
  CHECK(r.transpose == 3);
  CHECK(r.loopMode == spindle::LoopMode::NoLoop);  // sampleModes at preset level: ignored
  CHECK(r.pitchKeycenter == 60);                   // overridingRootKey: ignored
  CHECK(r.group == 0);                             // exclusiveClass: ignored
}

TEST_CASE("global zones: the instrument's supplies defaults, the preset's adds unless a local one does", "[sf2][mapping]") {
  spindle::test::Sf2Spec s = oneZoneFont({});
  auto& zones = s.instruments[0].zones;
  zones = {{{{sf2::kInitialAttenuation, 200}, {sf2::kPan, 100}}, {}},  // global: no sample
           {{{sf2::kKeyRange, range(0, 59)}, {sf2::kInitialAttenuation, 50}, {sf2::kSampleID, 0}}, {}},
           {{{sf2::kKeyRange, range(60, 127)}, {sf2::kSampleID, 0}}, {}}};
  auto& presetZones = s.presets[0].zones;
  presetZones = {{{{sf2::kFineTune, 10}}, {}},  // global
                 {{{sf2::kKeyRange, range(0, 59)}, {sf2::kFineTune, 5}, {sf2::kInstrument, 0}}, {}},
                 {{{sf2::kKeyRange, range(60, 127)}, {sf2::kInstrument, 0}}, {}}};
  const auto inst = loadFont(s, "sf2-globals");
  const Region& low = regionFor(inst, 40, 100);
  const Region& high = regionFor(inst, 80, 100);
  CHECK(low.volume == Approx(-2.0 + kCentreDb + kQ0Gain).margin(1e-4));   // local 50 cB
  CHECK(high.volume == Approx(-8.0 + kCentreDb + kQ0Gain).margin(1e-4));  // global 200 cB
  CHECK((low.pan == Approx(20.0) && high.pan == Approx(20.0)));
  CHECK(low.tune == Approx(5.0));    // the preset zone's own value replaces its global one
  CHECK(high.tune == Approx(10.0));  // the preset's global zone
}

}  // namespace sound_font_mapping_tests
