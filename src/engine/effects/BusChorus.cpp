#include "engine/effects/BusChorus.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>

#include "engine/effects/BusMemory.h"

namespace spindle::engine {

void BusChorus::allocate() {
  const auto longest = static_cast<size_t>(std::ceil(kBusMemoryRate * kCentreMs * (1.0 + kSweep) / 1000.0)) + 4;
  size_ = std::bit_ceil(longest);
  memory_.assign(2 * size_, 0.0f);
}

void BusChorus::start(double sampleRate) noexcept SPINDLE_REALTIME {
  std::fill(memory_.begin(), memory_.end(), 0.0f);
  at_ = 0;
  phase_ = 0.0;
  rate_ = sampleRate;
}

// Linear interpolation between the two frames around `delayFrames` before the newest.
float BusChorus::tap(size_t channel, double delayFrames) const noexcept SPINDLE_REALTIME {
  const double clamped = std::clamp(delayFrames, 1.0, static_cast<double>(size_ - 2));
  const auto whole = static_cast<size_t>(clamped);
  const auto t = static_cast<float>(clamped - static_cast<double>(whole));
  const float* line = memory_.data() + channel * size_;
  const float a = line[(at_ + size_ - whole) & (size_ - 1)], b = line[(at_ + size_ - whole - 1) & (size_ - 1)];
  return a + t * (b - a);
}

void BusChorus::process(const Params& p, float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  const float mix = std::clamp(busParam(p, BusParam::Mix), 0.0f, 1.0f);
  const double depth = kSweep * std::clamp(static_cast<double>(busParam(p, BusParam::ModDepth)), 0.0, 1.0);
  const double step = std::max(0.0, static_cast<double>(busParam(p, BusParam::ModRate))) / rate_;
  const double centre = kCentreMs * rate_ / 1000.0;
  for (int i = 0; i < frames; ++i) {
    memory_[at_] = left[i];
    memory_[size_ + at_] = right[i];
    const double angle = 2.0 * std::numbers::pi * phase_;
    const float wetLeft = tap(0, centre * (1.0 + depth * std::sin(angle)));
    const float wetRight = tap(1, centre * (1.0 + depth * std::sin(angle - std::numbers::pi / 2.0)));
    left[i] = (1.0f - mix) * left[i] + mix * wetLeft;
    right[i] = (1.0f - mix) * right[i] + mix * wetRight;
    at_ = (at_ + 1) & (size_ - 1);
    phase_ += step;
    phase_ -= std::floor(phase_);
  }
}

}  // namespace spindle::engine
