#pragma once
// BusModPhaser: DecentSampler's `phaser` bus effect: six first-order all-pass stages
// whose break frequency a sine sweeps around centerFrequency, with feedback, mixed
// with the dry signal (Spindle's own; the guide gives only its parameters).
//
//   x --+--> (+) --> [AP f(t)] x 6 --+--> y = (1 - mix) x + mix ap
//       |     ^ feedback x ap        |
//       |     +----------------------+
//   f(t) = centerFrequency * 2^(kOctaves * modDepth * sin(2 pi modRate t))
//
// At mix 0.5 the all-pass output cancels the dry signal where the chain turns the
// phase by 180 degrees, so notches sweep at modRate. Feedback is -1..1 (held within
// +-kMaxFeedback). Both channels share the sweep.
#include <array>

#include "core/BusEffects.h"
#include "core/Realtime.h"

namespace spindle::engine {

class BusModPhaser {
 public:
  using Params = std::array<float, kBusParams>;
  static constexpr int kStages = 6;
  static constexpr double kOctaves = 2.0;
  static constexpr float kMaxFeedback = 0.95f;

  void start(double sampleRate) noexcept SPINDLE_REALTIME;
  void process(const Params& p, float* left, float* right, int frames) noexcept SPINDLE_REALTIME;
  // Frames its feedback loop takes to die away (the tail's length).
  int memoryFrames() const noexcept SPINDLE_REALTIME { return static_cast<int>(0.05 * rate_); }

 private:
  struct Channel {
    std::array<float, kStages> state{};
    float last = 0.0f;
  };
  static float run(Channel& c, float x, float coefficient, float feedback) noexcept SPINDLE_REALTIME;

  std::array<Channel, 2> channels_{};
  double rate_ = 48000.0, phase_ = 0.0;
};

}  // namespace spindle::engine
