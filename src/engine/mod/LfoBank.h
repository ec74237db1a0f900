#pragma once
// LfoBank: the SFZ v2 LFOs (lfoN_*, core/Region.h FlexLfo) of one voice. Audio thread
// only; a member of VoiceMod, reused note after note (start() never allocates).
//
// Read at control rate: advance() moves every LFO by a control step's frames and
// value(k) is LFO k at the step's end:
//   0                                   before its delay has passed
//   fade(t) * (wave(phase) * scale + offset)   after, until `count` cycles have run
// where wave is lfoN_wave's shape (Wave.h), t counts frames from the delay's end, fade(t) = min(1, t / fade frames) (1
// with no fade), and the phase starts at lfoN_phase when the delay ends, turning at
// freq * ratio cycles a second. Sample and hold (wave 12) takes a new value in
// [-1, 1] at each cycle's start, from the voice's own generator (renders repeat). With
// lfoN_steps = n, wave(phase) is step floor(phase * n) + 1 (its percent / 100). Each
// sub-wave X given (lfoN_waveX, X >= 2) adds waveX(ratioX * the main wave's unwrapped
// turns) * scaleX + offsetX (a sample-and-hold sub-wave reads as a sine).
// lfoN_smooth = m ms: the value given is the output of a one-pole low-pass of time
// constant m ms fed that value once per control step (value += (x - value) *
// (1 - exp(-frames / (m ms)))), so the wave's corners round off and it lags a little.
#include <array>
#include <cstddef>
#include <cstdint>

#include "core/Modulation.h"
#include "core/Realtime.h"
#include "core/Region.h"

namespace spindle::engine::mod {

class LfoBank {
 public:
  // Note-start controller additions to one LFO (lfoN_delay_onccX...): seconds, cycles.
  // lfoN_smooth_onccX (ms) and lfoN_wave_onccX (added to the wave number, rounded).
  struct StartAdds {
    float delay = 0.0f, fade = 0.0f, phase = 0.0f, smooth = 0.0f, wave = 0.0f;
    void add(ModTarget t, float c) noexcept SPINDLE_REALTIME {
      (t == ModTarget::LfoDelay ? delay
       : t == ModTarget::LfoFade ? fade
       : t == ModTarget::LfoSmooth ? smooth
       : t == ModTarget::LfoWave ? wave
                                 : phase) += c;
    }
  };

  // A note's start: reset(), add() each LFO in entry order, then begin(). seed: the
  // voice's sample-and-hold noise.
  void reset(double sampleRate, uint32_t seed) noexcept SPINDLE_REALTIME;
  void add(const FlexLfo& lfo, const StartAdds& adds) noexcept SPINDLE_REALTIME;
  void begin() noexcept SPINDLE_REALTIME { advance(0, nullptr); }
  // Moves every LFO `frames` frames on; freqAdd[k] (Hz, may be null) is added to LFO
  // k's frequency for this step.
  void advance(int frames, const float* freqAdd) noexcept SPINDLE_REALTIME;
  // Controller additions to the steps (lfoN_stepX_onccY), percent per LFO and step; read
  // at every evaluation (null: none).
  using StepAdds = std::array<std::array<float, FlexLfo::kMaxSteps>, kMaxFlexLfos>;
  void setStepAdds(const StepAdds* adds) noexcept { stepAdds_ = adds; }
  float value(size_t k) const noexcept { return state_[k].value; }
  size_t size() const noexcept { return count_; }
  // Some LFO still changes its value (turning, or waiting out its delay or fade).
  bool moving() const noexcept { return moving_; }

  // What advance() moves, kept to take a control step back (VoiceMod::cutStep).
  struct Saved;
  void save(Saved& saved) const noexcept SPINDLE_REALTIME;
  void restore(const Saved& saved) noexcept SPINDLE_REALTIME;

 private:
  struct State {
    const FlexLfo* params = nullptr;
    size_t entry = 0;
    int shape = 1;
    double phase = 0.0;    // cycles, in [0, 1)
    double cycles = 0.0;   // whole cycles run
    int64_t delayLeft = 0, fadeFrames = 0, fadeDone = 0;
    float held = 0.0f;     // sample and hold's value
    uint32_t rng = 0;      // its own generator (FlexLfo::seed), 0: the bank's
    float value = 0.0f;
    float smoothFrames = 0.0f;  // lfoN_smooth's time constant in frames; 0: none
    bool started = false;       // value holds a smoothed output
    bool stopped = false;  // ran its count
  };
  void evaluate(State& s, int frames) noexcept SPINDLE_REALTIME;
  float raw(const State& s) const noexcept SPINDLE_REALTIME;  // the output before smoothing
  float random() noexcept SPINDLE_REALTIME;  // uniform in [-1, 1]
  float draw(State& s) noexcept SPINDLE_REALTIME;  // s's generator, else random()

  std::array<State, kMaxFlexLfos> state_{};
  const StepAdds* stepAdds_ = nullptr;

 public:
  struct Saved {
    std::array<State, kMaxFlexLfos> state{};
    uint32_t rng = 1;
    bool moving = false;
  };

 private:
  size_t count_ = 0;
  double sampleRate_ = 48000.0;
  uint32_t rng_ = 1, seed_ = 1;
  bool moving_ = false;
};

}  // namespace spindle::engine::mod
