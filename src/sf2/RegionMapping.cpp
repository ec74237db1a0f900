#include "sf2/RegionMapping.h"

#include <algorithm>
#include <cmath>

namespace spindle::sf2 {

namespace {

constexpr float kEmuAttenuation = 0.4f;          // of a centibel, per generator centibel
constexpr float kEnvelopeRangeDb = 96.0f;        // volume envelope decay and release
constexpr float kCentreDb = -3.0103f;            // the sine pan law's middle, against Spindle's
constexpr int kFilterOff = 13500;                // cents: no filter unless something moves it
// ln(10^(96/20)): the envelope shape that falls 96 dB over the stage, linearly in dB.
const float kDecayShape = -std::log(std::pow(10.0f, kEnvelopeRangeDb / 20.0f));
// FluidSynth reads the modulation envelope's attack through the SoundFont convex curve
// (1 + 5/12 log10 x); the exponential stage shape 5 follows it within 0.19 (at 10 %).
constexpr float kModAttackShape = 5.0f;

float seconds(int32_t timecents, int32_t lo, int32_t hi) {
  if (timecents <= -32768) return 0.0f;
  return std::exp2(static_cast<float>(std::clamp(timecents, lo, hi)) / 1200.0f);
}
float hertz(int32_t cents) { return 8.176f * std::exp2(static_cast<float>(cents) / 1200.0f); }

// The zone's modulators sorted by what the engine does with them.
struct Modulation {
  std::vector<Modulator> velocity;    // velocity -> attenuation or cutoff (into curves)
  std::vector<Modulator> controller;  // CC or pressure -> a continuous target
  bool touches(int destination) const {
    for (const auto* list : {&velocity, &controller})
      for (const Modulator& m : *list)
        if (m.destination == destination && m.amount != 0) return true;
    return false;
  }
};

// Handled by the part (CC7/CC11 gain, CC10 pan, bend range) or by effectSends().
bool partHandles(const Modulator& m) {
  if (m.destination == kReverbEffectsSend || m.destination == kChorusEffectsSend) return true;
  const int cc = sourceIsCc(m.source) ? sourceIndex(m.source) : -1;
  if (m.destination == kInitialAttenuation && (cc == 7 || cc == 11)) return true;
  if (m.destination == kPan && cc == 10) return true;
  return !sourceIsCc(m.source) && sourceIndex(m.source) == kSourcePitchWheel && m.destination == 59;
}

Modulation sortModulators(const MergedZone& z, MappingNotes& notes) {
  Modulation out;
  for (const Modulator& m : z.modulators) {
    if (m.amount == 0 || partHandles(m)) continue;
    const bool velocity = !sourceIsCc(m.source) && sourceIndex(m.source) == kSourceVelocity;
    const bool amountByVelocity = m.amountSource == 0 || (!sourceIsCc(m.amountSource) &&
                                                          sourceIndex(m.amountSource) == kSourceVelocity);
    if (velocity && amountByVelocity && (m.destination == kInitialAttenuation || m.destination == kInitialFilterFc)) {
      out.velocity.push_back(m);
    } else if (sourceController(m.source) >= 0 && m.amountSource == 0 && m.transform == 0) {
      out.controller.push_back(m);
    } else {
      notes.unplayedModulators.insert(m.destination);
    }
  }
  return out;
}

// The sum of velocity modulators on `destination` at velocity v.
double velocityAmount(const Modulation& mods, int destination, int v) {
  double sum = 0.0;
  const double x = static_cast<double>(v) / 127.0;
  for (const Modulator& m : mods.velocity) {
    if (m.destination != destination) continue;
    const double scale = m.amountSource ? sourceValue(m.amountSource, x) : 1.0;
    sum += m.amount * sourceValue(m.source, x) * scale;
  }
  return sum;
}

void envelopes(const MergedZone& z, int key, Region& r) {
  const auto g = [&](Gen n) { return z.gen[static_cast<size_t>(n)]; };
  const auto keyed = [&](Gen base, Gen perKey, int32_t hi) {
    return seconds(g(base) + g(perKey) * (60 - key), -12000, hi);
  };
  EnvelopeParams& a = r.ampeg;
  a.delay = seconds(g(kDelayVolEnv), -12000, 5000);
  a.attack = seconds(g(kAttackVolEnv), -12000, 8000);
  a.hold = g(kHoldVolEnv) <= -32768 ? 0.0f : keyed(kHoldVolEnv, kKeynumToVolEnvHold, 5000);
  a.decay = keyed(kDecayVolEnv, kKeynumToVolEnvDecay, 8000);
  const float sustainDb = 0.96f * static_cast<float>(std::clamp(g(kSustainVolEnv), 0, 1000)) / 10.0f;
  a.sustain = g(kSustainVolEnv) >= 1000 ? 0.0f : 100.0f * std::pow(10.0f, -sustainDb / 20.0f);
  a.release = seconds(g(kReleaseVolEnv), -7200, 8000);
  a.decayShape = a.releaseShape = kDecayShape;
  a.decayZero = a.releaseZero = 1.0f;

  EnvelopeParams m{};
  m.delay = seconds(g(kDelayModEnv), -12000, 5000);
  m.attack = seconds(g(kAttackModEnv), -12000, 8000);
  m.attackShape = kModAttackShape;
  m.hold = g(kHoldModEnv) <= -32768 ? 0.0f : keyed(kHoldModEnv, kKeynumToModEnvHold, 5000);
  m.decay = keyed(kDecayModEnv, kKeynumToModEnvDecay, 8000);
  m.sustain = 100.0f - 0.1f * static_cast<float>(std::clamp(g(kSustainModEnv), 0, 1000));
  m.release = seconds(g(kReleaseModEnv), -12000, 8000);
  m.decayZero = m.releaseZero = 1.0f;
  r.pitcheg = r.fileg = m;
  r.pitcheg.depth = static_cast<float>(std::clamp(g(kModEnvToPitch), -12000, 12000));
  r.fileg.depth = static_cast<float>(std::clamp(g(kModEnvToFilterFc), -12000, 12000));
}

// The modulation LFO (lfo1: pitch, cutoff, volume) and the vibrato LFO (lfo2: pitch),
// triangles as in the spec, each made when something gives it a depth.
void lfos(const MergedZone& z, const Modulation& mods, Region& r) {
  const auto g = [&](Gen n) { return z.gen[static_cast<size_t>(n)]; };
  const auto make = [&](int number, Gen freq, Gen delay) {
    FlexLfo lfo;
    lfo.number = number;
    lfo.wave = 0.0f;
    lfo.freq = hertz(std::clamp(g(freq), -16000, 4500));
    lfo.delay = seconds(g(delay), -12000, 5000);
    return lfo;
  };
  const auto depth = [](FlexLfo& lfo, ModTarget t) -> float& { return lfo.depth[static_cast<size_t>(t)]; };
  if (g(kModLfoToPitch) || g(kModLfoToFilterFc) || g(kModLfoToVolume) || mods.touches(kModLfoToPitch) ||
      mods.touches(kModLfoToFilterFc) || mods.touches(kModLfoToVolume)) {
    FlexLfo lfo = make(1, kFreqModLfo, kDelayModLfo);
    depth(lfo, ModTarget::Pitch) = static_cast<float>(g(kModLfoToPitch));
    depth(lfo, ModTarget::Cutoff) = static_cast<float>(g(kModLfoToFilterFc));
    depth(lfo, ModTarget::Volume) = static_cast<float>(g(kModLfoToVolume)) / 10.0f;
    r.lfos.push_back(lfo);
  }
  if (g(kVibLfoToPitch) || mods.touches(kVibLfoToPitch)) {
    FlexLfo lfo = make(2, kFreqVibLfo, kDelayVibLfo);
    depth(lfo, ModTarget::Pitch) = static_cast<float>(g(kVibLfoToPitch));
    r.lfos.push_back(lfo);
  }
}

uint8_t lfoEntry(const Region& r, int number) {
  for (size_t i = 0; i < r.lfos.size(); ++i)
    if (r.lfos[i].number == number) return static_cast<uint8_t>(i + 1);
  return 0;
}

// Curve indices for the source shapes the built-in curves do not have (200 + shape).
uint8_t curveIndex(uint16_t source) {
  const int shape = source >> 8;  // type << 2 | polarity << 1 | direction
  switch (shape) {
    case 0: return 0;  // linear, unipolar, positive
    case 2: return 1;  // linear, bipolar, positive
    case 1: return 2;  // linear, unipolar, negative
    case 3: return 3;  // linear, bipolar, negative
    default: return static_cast<uint8_t>(200 + std::min(shape, 55));
  }
}

void controllers(const Modulation& mods, Region& r, MappingNotes& notes) {
  for (const Modulator& m : mods.controller) {
    CcModulation c;
    c.cc = static_cast<uint16_t>(sourceController(m.source));
    c.curve = curveIndex(m.source);
    c.smoothMs = 0.0f;
    const auto amount = static_cast<float>(m.amount);
    switch (m.destination) {
      case kInitialAttenuation: c.target = ModTarget::Volume, c.depth = -amount / 10.0f; break;
      case kPan: c.target = ModTarget::Pan, c.depth = amount / 5.0f; break;
      case kInitialFilterFc: c.target = ModTarget::Cutoff, c.depth = amount; break;
      case kFineTune: c.target = ModTarget::Pitch, c.depth = amount; break;
      case kCoarseTune: c.target = ModTarget::Pitch, c.depth = amount * 100.0f; break;
      case kModLfoToPitch: c.target = ModTarget::Pitch, c.depth = amount, c.lfo = lfoEntry(r, 1); break;
      case kModLfoToFilterFc: c.target = ModTarget::Cutoff, c.depth = amount, c.lfo = lfoEntry(r, 1); break;
      case kModLfoToVolume: c.target = ModTarget::Volume, c.depth = amount / 10.0f, c.lfo = lfoEntry(r, 1); break;
      case kVibLfoToPitch: c.target = ModTarget::Pitch, c.depth = amount, c.lfo = lfoEntry(r, 2); break;
      default: notes.unplayedModulators.insert(m.destination); continue;
    }
    if (r.ccModulationCount < kMaxCcModulations) r.ccModulations[r.ccModulationCount++] = c;
  }
}

// The reverb and chorus sends as FluidSynth plays them: the generator plus a linear
// controller modulator (CC91 / CC93 by default, 200 = 20 % at full), the sum clamped to
// 0..100 % per voice. A controller's source value is cc / 128, as the spec has it.
void effectSends(const MergedZone& z, Region& r, MappingNotes& notes) {
  const std::array<int, kSendBuses> generators{kReverbEffectsSend, kChorusEffectsSend};
  for (size_t b = 0; b < generators.size(); ++b) {
    EffectSend& send = r.sends[b];
    send.percent = static_cast<float>(z.gen[static_cast<size_t>(generators[b])]) / 10.0f;
    for (const Modulator& m : z.modulators) {
      if (m.destination != generators[b] || m.amount == 0) continue;
      const bool linearCc = sourceIsCc(m.source) && (m.source >> 8) == 0 && m.amountSource == 0 && m.transform == 0;
      const auto cc = static_cast<uint16_t>(linearCc ? sourceIndex(m.source) : 0);
      if (!linearCc || (send.perCc != 0.0f && send.cc != cc)) {
        notes.unplayedModulators.insert(m.destination);
        continue;
      }
      send.cc = cc;
      send.perCc += static_cast<float>(m.amount) / 10.0f * 127.0f / 128.0f;
    }
  }
  r.sendGain = std::pow(10.0f, -kCentreDb / 20.0f);
}

void pitch(const MergedZone& z, const SampleFrames& s, Region& r) {
  const auto g = [&](Gen n) { return z.gen[static_cast<size_t>(n)]; };
  const int root = g(kOverridingRootKey) >= 0 && g(kOverridingRootKey) <= 127 ? g(kOverridingRootKey)
                   : s.originalKey <= 127                                      ? s.originalKey
                                                                               : 60;
  r.pitchKeycenter = static_cast<uint8_t>(root);
  r.pitchKeytrack = static_cast<float>(g(kScaleTuning));
  r.tune = static_cast<float>(g(kFineTune) + s.correction);
  r.transpose = g(kCoarseTune);
  if (g(kKeynum) >= 0 && g(kKeynum) <= 127) {  // a fixed key: every key plays as this one
    r.tune += static_cast<float>((g(kKeynum) - root) * g(kScaleTuning));
    r.pitchKeytrack = 0.0f;
  }
  r.bendFromRpn = true;
}

// Addresses, relative to the slice; the loop as stored (end exclusive) made inclusive.
void addresses(const MergedZone& z, const SampleFrames& s, Region& r) {
  const auto g = [&](Gen n) { return static_cast<int64_t>(z.gen[static_cast<size_t>(n)]); };
  const int64_t last = s.frames > 0 ? s.frames - 1 : INT64_MAX;
  r.offset = std::clamp<int64_t>(g(kStartAddrsOffset) + 32768 * g(kStartAddrsCoarseOffset), 0, last);
  const int64_t endMove = g(kEndAddrsOffset) + 32768 * g(kEndAddrsCoarseOffset);
  if (endMove != 0 && s.frames > 0) r.end = std::clamp<int64_t>(s.frames - 1 + endMove, r.offset, last);
  const int64_t loopStart = s.loopStart + g(kStartloopAddrsOffset) + 32768 * g(kStartloopAddrsCoarseOffset);
  const int64_t loopEnd = s.loopEnd + g(kEndloopAddrsOffset) + 32768 * g(kEndloopAddrsCoarseOffset);
  const int mode = z.gen[kSampleModes] & 3;
  const bool loops = (mode == 1 || mode == 3) && loopStart >= 0 && loopEnd > loopStart + 1 &&
                     (s.frames < 0 || loopEnd <= s.frames);
  r.loopModeSet = true;
  r.loopMode = !loops ? LoopMode::NoLoop : mode == 3 ? LoopMode::LoopSustain : LoopMode::LoopContinuous;
  if (loops) r.loopStart = loopStart, r.loopEnd = loopEnd - 1;
}

// Level, pan, velocity curve and the filter, for velocities lo..hi (one band).
void levels(const MergedZone& z, const Modulation& mods, int lo, int hi, Region& r) {
  const auto g = [&](Gen n) { return z.gen[static_cast<size_t>(n)]; };
  const int fixedVelocity = g(kVelocity) >= 1 && g(kVelocity) <= 127 ? g(kVelocity) : -1;
  const auto velocityOf = [&](int v) { return fixedVelocity > 0 ? fixedVelocity : v; };
  const float attenuationDb = kEmuAttenuation * static_cast<float>(std::clamp(g(kInitialAttenuation), 0, 1440)) / 10.0f;
  r.volume = -attenuationDb + kCentreDb;
  r.pan = static_cast<float>(std::clamp(g(kPan), -500, 500)) / 5.0f;
  r.hasAmpVelcurve = true;
  r.ampVeltrack = 100.0f;
  for (int v = 0; v < 128; ++v) {
    const double cb = std::clamp(velocityAmount(mods, kInitialAttenuation, velocityOf(v)), 0.0, 1440.0);
    r.ampVelcurve[static_cast<size_t>(v)] = v == 0 ? 0.0f : static_cast<float>(std::pow(10.0, -cb / 200.0));
  }
  const bool filtered = g(kInitialFilterFc) < kFilterOff || g(kModEnvToFilterFc) || g(kModLfoToFilterFc) ||
                        mods.touches(kInitialFilterFc) || mods.touches(kModLfoToFilterFc);
  if (!filtered) return;
  // The velocity's cutoff offset as a straight line through the band's ends.
  const double atLo = velocityAmount(mods, kInitialFilterFc, velocityOf(lo));
  const double atHi = velocityAmount(mods, kInitialFilterFc, velocityOf(hi));
  const double slope = hi > lo ? (atHi - atLo) / (hi - lo) : 0.0;
  r.filType = FilterType::Lpf2p;
  r.cutoff = hertz(std::clamp(g(kInitialFilterFc), 1500, 13500)) * static_cast<float>(std::exp2((atLo - slope * lo) / 1200.0));
  r.filVeltrack = static_cast<float>(slope * 127.0);
  // Q in centibels over a Butterworth's -3.01 dB, and FluidSynth's 1/sqrt(Q) gain.
  const float q = static_cast<float>(std::clamp(g(kInitialFilterQ), 0, 960)) / 10.0f;
  r.resonance = q;
  r.volume += -0.5f * (q - 3.0103f);
}

bool velocitySwitches(const Modulation& mods) {
  for (const Modulator& m : mods.velocity)
    if (m.destination == kInitialFilterFc && ((m.source >> 10) == 3 || (m.amountSource >> 10) == 3)) return true;
  return false;
}

}  // namespace

void appendRegions(const MergedZone& z, const SampleFrames& s, std::vector<Region>& out, MappingNotes& notes) {
  const Modulation mods = sortModulators(z, notes);
  const auto g = [&](Gen n) { return z.gen[static_cast<size_t>(n)]; };
  Region base;
  base.sampleIndex = s.index;
  base.lokey = z.keys.lo;
  base.hikey = std::min<uint8_t>(z.keys.hi, 127);
  pitch(z, s, base);
  addresses(z, s, base);
  lfos(z, mods, base);
  controllers(mods, base, notes);
  if (g(kExclusiveClass) > 0) base.group = base.offBy = g(kExclusiveClass);
  effectSends(z, base, notes);

  const bool perKey = g(kKeynumToVolEnvHold) || g(kKeynumToVolEnvDecay) || g(kKeynumToModEnvHold) ||
                      g(kKeynumToModEnvDecay);
  const int keyFrom = perKey ? base.lokey : 60, keyTo = perKey ? base.hikey : 60;
  const int velLo = std::max<int>(1, z.velocities.lo), velHi = std::min<int>(127, z.velocities.hi);
  std::vector<std::pair<int, int>> bands{{velLo, velHi}};
  if (velocitySwitches(mods) && velLo < 64 && velHi >= 64) bands = {{velLo, 63}, {64, velHi}};
  for (int key = keyFrom; key <= keyTo; ++key) {
    for (const auto& [lo, hi] : bands) {
      Region r = base;
      if (perKey) r.lokey = r.hikey = static_cast<uint8_t>(key);
      const int envelopeKey = g(kKeynum) >= 0 && g(kKeynum) <= 127 ? g(kKeynum) : key;
      envelopes(z, perKey ? envelopeKey : 60, r);
      r.lovel = static_cast<uint8_t>(lo);
      r.hivel = static_cast<uint8_t>(hi);
      levels(z, mods, lo, hi, r);
      out.push_back(std::move(r));
    }
  }
}

}  // namespace spindle::sf2
