#include "sf2/ZoneMerge.h"

#include <algorithm>
#include <cmath>

namespace spindle::sf2 {

namespace {

// The SoundFont concave curve (section 8.2.1, as FluidSynth tabulates it): the
// attenuation curve of a velocity, -20/96 * log10((1 - x)^2), reaching 1 at x = 1.
double concave(double x) {
  if (x >= 1.0) return 1.0;
  return std::min(1.0, -(400.0 / 960.0) * std::log10(1.0 - x));
}

double convex(double x) { return 1.0 - concave(1.0 - x); }

double curve(int type, double x) {
  switch (type) {
    case 1: return concave(x);
    case 2: return convex(x);
    case 3: return x >= 0.5 ? 1.0 : 0.0;
    default: return x;
  }
}

bool sameModulator(const Modulator& a, const Modulator& b) {
  return a.source == b.source && a.destination == b.destination && a.amountSource == b.amountSource &&
         a.transform == b.transform;
}

// `over` replaces identical entries of `list` and adds the others.
void overlay(std::vector<Modulator>& list, const std::vector<Modulator>& over) {
  for (const Modulator& m : over) {
    auto same = std::find_if(list.begin(), list.end(), [&](const Modulator& e) { return sameModulator(e, m); });
    if (same != list.end()) *same = m;
    else list.push_back(m);
  }
}

// Identical preset modulators add their amounts to the instrument's (section 9.5).
void addOn(std::vector<Modulator>& list, const std::vector<Modulator>& extra) {
  for (const Modulator& m : extra) {
    auto same = std::find_if(list.begin(), list.end(), [&](const Modulator& e) { return sameModulator(e, m); });
    if (same != list.end()) same->amount = static_cast<int16_t>(std::clamp(same->amount + m.amount, -32768, 32767));
    else list.push_back(m);
  }
}

// Generators a preset zone may not set (section 8.1.3: "instrument only").
bool instrumentOnly(int g) {
  switch (g) {
    case kStartAddrsOffset: case kEndAddrsOffset: case kStartloopAddrsOffset: case kEndloopAddrsOffset:
    case kStartAddrsCoarseOffset: case kEndAddrsCoarseOffset: case kStartloopAddrsCoarseOffset:
    case kEndloopAddrsCoarseOffset: case kKeynum: case kVelocity: case kSampleModes: case kExclusiveClass:
    case kOverridingRootKey: case kInstrument: case kSampleID: case kKeyRange: case kVelRange:
      return true;
    default: return false;
  }
}

Range overlap(Range a, Range b) { return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)}; }

}  // namespace

double sourceValue(uint16_t source, double x) {
  const int type = source >> 10;
  const bool negative = (source & 0x100) != 0, bipolar = (source & 0x200) != 0;
  x = std::clamp(negative ? 1.0 - x : x, 0.0, 1.0);
  if (!bipolar) return curve(type, x);
  if (type == 3) return x >= 0.5 ? 1.0 : -1.0;
  return x >= 0.5 ? curve(type, 2.0 * x - 1.0) : -curve(type, 1.0 - 2.0 * x);
}

int sourceController(uint16_t source) {
  if (sourceIsCc(source)) return sourceIndex(source);
  switch (sourceIndex(source)) {
    case 13: return 129;  // channel pressure
    case 10: return 130;  // polyphonic pressure
    default: return -1;
  }
}

const std::vector<Modulator>& defaultModulators() {
  static const std::vector<Modulator> list{
      {0x0502, kInitialAttenuation, 960, 0, 0},  // velocity, concave, negative
      {0x0102, kInitialFilterFc, -2400, 0x0C02, 0},  // velocity, linear, negative; switch at 64
      {0x000D, kVibLfoToPitch, 50, 0, 0},        // channel pressure
      {0x0081, kVibLfoToPitch, 50, 0, 0},        // CC1 modulation wheel
      {0x0587, kInitialAttenuation, 960, 0, 0},  // CC7 volume, concave, negative
      {0x028A, kPan, 1000, 0, 0},                // CC10 pan, bipolar
      {0x058B, kInitialAttenuation, 960, 0, 0},  // CC11 expression, concave, negative
      {0x00DB, kReverbEffectsSend, 200, 0, 0},   // CC91
      {0x00DD, kChorusEffectsSend, 200, 0, 0},   // CC93
      {0x020E, 59, 12700, 0x0010, 0},            // pitch wheel x its sensitivity -> pitch
  };
  return list;
}

int32_t generatorDefault(int g) {
  switch (g) {
    case kInitialFilterFc: return 13500;
    case kDelayModLfo: case kDelayVibLfo: case kDelayModEnv: case kAttackModEnv: case kHoldModEnv:
    case kDecayModEnv: case kReleaseModEnv: case kDelayVolEnv: case kAttackVolEnv: case kHoldVolEnv:
    case kDecayVolEnv: case kReleaseVolEnv:
      return -12000;
    case kKeynum: case kVelocity: case kOverridingRootKey: return -1;
    case kScaleTuning: return 100;
    default: return 0;
  }
}

std::vector<MergedZone> mergePreset(const SoundFont& font, size_t p) {
  std::vector<MergedZone> out;
  const Preset& preset = font.presets[p];
  for (const Zone& pz : preset.zones) {
    const auto instrumentIndex = static_cast<size_t>(static_cast<uint16_t>(pz.get(kInstrument)));
    if (instrumentIndex >= font.instruments.size()) continue;
    const Instrument& instrument = font.instruments[instrumentIndex];
    std::vector<Modulator> presetMods = preset.global ? preset.global->modulators : std::vector<Modulator>{};
    overlay(presetMods, pz.modulators);
    for (const Zone& iz : instrument.zones) {
      MergedZone z;
      z.preset = p;
      z.keys = overlap(pz.keys, iz.keys);
      z.velocities = overlap(pz.velocities, iz.velocities);
      if (z.keys.lo > z.keys.hi || z.velocities.lo > z.velocities.hi) continue;
      z.sample = static_cast<uint16_t>(iz.get(kSampleID));
      if (z.sample >= font.samples.size()) continue;
      for (int g = 0; g < kGeneratorCount; ++g) {
        const auto gen = static_cast<Gen>(g);
        int32_t value = generatorDefault(g);
        if (iz.has(gen)) value = iz.get(gen);
        else if (instrument.global && instrument.global->has(gen)) value = instrument.global->get(gen);
        if (!instrumentOnly(g)) {
          if (pz.has(gen)) value += pz.get(gen);
          else if (preset.global && preset.global->has(gen)) value += preset.global->get(gen);
        }
        z.gen[static_cast<size_t>(g)] = value;
      }
      z.modulators = defaultModulators();
      std::vector<Modulator> instrumentMods = instrument.global ? instrument.global->modulators : std::vector<Modulator>{};
      overlay(instrumentMods, iz.modulators);
      overlay(z.modulators, instrumentMods);
      addOn(z.modulators, presetMods);
      out.push_back(std::move(z));
    }
  }
  return out;
}

}  // namespace spindle::sf2
