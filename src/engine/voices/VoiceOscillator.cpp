// Voice: oscillator playback of one-cycle tables (SFZ v2 oscillator_*). The bank
// (dsp/OscillatorBank.h) replaces the fetch stage; pitch, filters and amp stay.
#include <cmath>

#include "engine/voices/Voice.h"

namespace spindle::engine {

// Generators (*sine...) are tables. A file is one with oscillator=on (or auto and
// short), when the whole file is in RAM as float (the bank reads it round and round):
// SampleData::table, which the loader has made for it (app::Loader::loadSamples).
bool Voice::playsAsTable(const Region& r, const SampleData& d) noexcept SPINDLE_REALTIME {
  if (d.oscillator) return true;
  return wantsOscillator(r, d.totalFrames) && d.totalFrames >= 2 && d.table;
}

// The bank plays a file table always, and a generator when an oscillator_* opcode
// asks more than its plain playback (which the sample path already gives).
void Voice::setupOscillator(const Region& r, const SampleData& d, Prng& rng) noexcept SPINDLE_REALTIME {
  oscillating_ = false;
  if (!playsAsTable(r, d)) return;
  const bool plain = r.oscillatorMulti <= 1 && r.oscillatorMode == 0 && r.oscillatorPhase == 0.0f &&
                     r.oscillatorQuality < 0;
  if (d.oscillator && plain) return;
  using Bank = dsp::OscillatorBank;
  Bank::Settings settings;
  settings.multi = r.oscillatorMulti;
  settings.mode = r.oscillatorMode;
  settings.detuneCents = oscillatorDetune();
  settings.depth = oscillatorDepth();
  const int q = r.oscillatorQuality;
  settings.interpolation = q == 0 ? Bank::Interpolation::Nearest
                           : q == 1 ? Bank::Interpolation::Linear
                                    : Bank::Interpolation::Hermite;
  // Each copy its own random phase when the phase is negative; else the fraction of a cycle.
  std::array<float, Bank::kMaxCopies> phases{};
  const float phase = r.oscillatorPhase - std::floor(r.oscillatorPhase);
  for (int i = 0; i < Bank::copies(settings); ++i)
    phases[static_cast<size_t>(i)] = r.oscillatorPhase < 0.0f ? rng.uniform() : phase;
  osc_.start(d.table, d.totalFrames, settings, phases);  // one cycle: the whole table
  oscillating_ = true;
  stereo_ = osc_.stereo();
}

// oscillator_detune plus its controllers' cents (oscillator_detune_onccN).
float Voice::oscillatorDetune() const noexcept SPINDLE_REALTIME {
  return region_->oscillatorDetune + mod_.sum(ModTarget::OscillatorDetune);
}

// oscillator_mod_depth / 100, times its controllers' percent when it has some
// (oscillator_mod_depth_onccN scales the depth as amplitude_onccN scales the gain: what
// sfizz plays; measured, ring pair: depth 50 with oncc 100 at CC 127 is half of depth
// 100, at CC 0 silent; two controllers at 50 % each, a quarter).
float Voice::oscillatorDepth() const noexcept SPINDLE_REALTIME {
  const float depth = 0.01f * region_->oscillatorModDepth;
  if (!mod_.info().touches(ModTarget::OscillatorModDepth)) return depth;
  return depth * mod_.sum(ModTarget::OscillatorModDepth);
}

// The controllers' detune and depth at every control step (their smoothed sums).
void Voice::followOscillatorModulation() noexcept SPINDLE_REALTIME {
  const mod::RegionMods& m = mod_.info();
  if (!oscillating_ || !(m.touches(ModTarget::OscillatorDetune) || m.touches(ModTarget::OscillatorModDepth))) return;
  osc_.setModulation(oscillatorDetune(), oscillatorDepth());
}

}  // namespace spindle::engine
