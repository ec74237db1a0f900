#pragma once
// Delay: the SFZ bus `delay` effect kind (EffectKind.h): three taps (left, right, centre) over delay
// lines, with feedback, damping and a filter on the echoes.
//
//   left in  x input% --> [ line L ]--+-- damp --> x level, pan --+
//   right in x input% --> [ line R ]--+-- damp --> x level, pan --+-> filter -> x wet% --+
//   (L+R)/2  x input% --> [ line C ]--+-- damp --> x level, pan --+                      +--> out
//                            ^  feedback% x damped echo  |        dry% x the bus input --+
//                            +---------------------------+
//
// A tap with time 0 is silent. Pan is 0 (left) .. 100 (right), equal power. damphi
// low-passes each repeat (a one-pole, coefficient damphi/100 * 0.95), damplo
// high-passes it (a one-pole with corner up to ~1.6 kHz at 100 %): both sit in the
// feedback loop, so every further echo loses more. The filter (delay_filter, fil_type's
// names; lpf_2p when only delay_cutoff is written) runs on the echoes when delay_filter
// or delay_cutoff is written, its resonance as filter_resonance's.
//
// A tap's time is DelayTimeL/R/C seconds, or, when DelayBeatsL/R/C is above 0, that many
// beats of the engine's tempo (EffectStep::tempo): beats x 60 / bpm s.
// Either reads between frames and glides to a new time (engine/effects/DelayGlide.h), so a
// tempo change moves a synced echo without a click.
//
// delay_lfofreq and delay_moddepth: one sine LFO of lfofreq Hz, started at phase 0,
// moves every tap's time by +- moddepth percent of it (0..100): time x (1 + depth x
// sin), a chorus or flanger on the echoes (the reference gives no unit for either).
//
// allocate() sizes the lines on the loader thread for the longest time the opcodes and
// their controls reach (at most kMaxSeconds), a synced tap's at kMinSyncBpm; a longer
// time (a slower tempo, more beats) plays at the lines' length. Everything else is real-time.
#include <array>
#include <cstddef>
#include <vector>

#include "core/BusEffects.h"
#include "core/Realtime.h"
#include "engine/dsp/Filter.h"
#include "engine/effects/DelayGlide.h"
#include "engine/effects/EffectKind.h"

namespace spindle::engine {

class Delay : public EffectKindBase {
 public:
  using Params = BusParams;
  static constexpr double kMaxSeconds = 10.0;
  static constexpr double kMinSyncBpm = 20.0;  // the slowest tempo the lines hold a synced tap for

  void allocate(const BusEffect& effect, const void* first);  // loader thread
  void start(const BusEffect& effect, double sampleRate) noexcept SPINDLE_REALTIME;
  void configure(const BusEffect& effect, const Params& p) noexcept SPINDLE_REALTIME;  // the echoes' filter
  void process(const BusEffect& effect, const EffectStep& step, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME;
  // Frames an input takes to come out at the longest tap time the lines hold.
  int memoryFrames() const noexcept SPINDLE_REALTIME { return static_cast<int>(size_); }

 private:
  struct Tap {
    float high = 0.0f, low = 0.0f;  // damphi's and damplo's one-pole states
    DelayGlide glide;
  };
  struct TapParams {
    double frames = 0.0;  // the tap's target time; 0: silent
    float gainLeft = 0.0f, gainRight = 0.0f;
  };
  TapParams tapParams(const Params& p, int tap) const noexcept SPINDLE_REALTIME;
  float read(const float* line, double delay) const noexcept SPINDLE_REALTIME;
  void chunk(const Params& p, float* left, float* right, int frames) noexcept SPINDLE_REALTIME;
  // delay_moddepth's factor on the tap times for the chunk's frames (1 without it).
  void modulation(const Params& p, int frames) noexcept SPINDLE_REALTIME;

  std::vector<float> memory_;  // three lines of size_ frames
  std::array<Tap, 3> taps_{};
  size_t size_ = 1, at_ = 0;
  size_t written_ = 0;  // frames of each line written since start(), at most size_
  double rate_ = 48000.0;
  double lfoPhase_ = 0.0;  // delay_lfofreq's, in turns
  float tempo_ = 120.0f;
  bool filtered_ = false;
  dsp::Filter filter_;
  static constexpr int kChunk = 32;
  std::array<float, kChunk> echoLeft_{}, echoRight_{};  // the echoes before the filter
  std::array<double, kChunk> mod_{};  // modulation()'s factors
};

}  // namespace spindle::engine
