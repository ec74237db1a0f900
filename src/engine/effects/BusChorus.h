#pragma once
// BusChorus: DecentSampler's `chorus` bus effect (Spindle's own design; the guide
// gives only its parameters): each channel reads its own delay line at a delay a sine
// at modRate sweeps, mixed with the dry signal.
//
//   x --+--------------------------------------> x (1 - mix) --+
//       +--> [ line ] -- tap at d(t) -----------> x mix --------+--> y
//   d(t) = kCentreMs * (1 + kSweep * modDepth * sin(2 pi modRate t + side)),
//   the right channel's sine a quarter turn behind the left's.
//
// At modDepth 1 the delay sweeps 1..13 ms. allocate() sizes the lines on the loader
// thread for kBusMemoryRate (BusMemory.h); everything else is real-time.
#include <array>
#include <cstddef>
#include <vector>

#include "core/BusEffects.h"
#include "core/Realtime.h"

namespace spindle::engine {

class BusChorus {
 public:
  using Params = std::array<float, kBusParams>;
  static constexpr double kCentreMs = 7.0, kSweep = 6.0 / 7.0;

  void allocate();  // loader thread
  void start(double sampleRate) noexcept SPINDLE_REALTIME;
  void process(const Params& p, float* left, float* right, int frames) noexcept SPINDLE_REALTIME;
  // Frames an input takes to leave the longest delay.
  int memoryFrames() const noexcept SPINDLE_REALTIME {
    return static_cast<int>(rate_ * kCentreMs * (1.0 + kSweep) / 1000.0) + 2;
  }

 private:
  float tap(size_t channel, double delayFrames) const noexcept SPINDLE_REALTIME;

  std::vector<float> memory_;  // two lines of size_ frames (a power of two)
  size_t size_ = 1, at_ = 0;
  double rate_ = 48000.0, phase_ = 0.0;
};

}  // namespace spindle::engine
