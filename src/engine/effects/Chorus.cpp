#include "engine/effects/Chorus.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>

#include "engine/effects/BusMemory.h"

namespace spindle::engine {

namespace {
// The send's shortest tap delay: FluidSynth's taps, found by cross-correlating its
// chorus return with white noise sent in, sweep from about 0 to 8 ms. The stereo spread
// and the per-voice gain over the level (Chorus.h).
constexpr double kMinDelaySeconds = 0.0002;
constexpr float kWidth = 5.7f;
constexpr float kVoiceScale = 0.431f;
}  // namespace

void Chorus::size(double longestFrames, int lines) {
  size_ = std::bit_ceil(static_cast<size_t>(std::ceil(longestFrames)) + 4);
  lines_ = lines;
  memory_.assign(size_ * static_cast<size_t>(lines), 0.0f);
}

float Chorus::tap(size_t channel, double delay) const noexcept SPINDLE_REALTIME {
  const double clamped = std::clamp(delay, 1.0, static_cast<double>(size_ - 2));
  const auto whole = static_cast<size_t>(clamped);
  const auto t = static_cast<float>(clamped - static_cast<double>(whole));
  const float* line = memory_.data() + channel * size_;
  const float a = line[(at_ + size_ - whole) & (size_ - 1)], b = line[(at_ + size_ - whole - 1) & (size_ - 1)];
  return a + t * (b - a);
}

int Chorus::memoryFrames() const noexcept SPINDLE_REALTIME {
  if (bus_) return static_cast<int>(rate_ * kCentreMs * (1.0 + kSweep) / 1000.0) + 2;
  return static_cast<int>(offset_ + 2.0 * std::max(scale_, targetScale_)) + 4;
}

// ---- the send ------------------------------------------------------------------

Chorus::Chorus(double sampleRate, const ChorusSettings& s) : rate_(sampleRate), offset_(kMinDelaySeconds * sampleRate) {
  size(offset_ + static_cast<double>(kMaxDepthMs) * 0.001 * sampleRate, 1);
  set(s);
  scale_ = targetScale_;
  gain_ = targetGain_;
  clear();
}

void Chorus::set(const ChorusSettings& s) noexcept SPINDLE_REALTIME {
  targetScale_ = 0.5 * static_cast<double>(std::clamp(s.depthMs, 0.0f, kMaxDepthMs)) * 0.001 * rate_;
  targetGain_ = std::clamp(s.level, 0.0f, 10.0f) * kVoiceScale;
  for (mod::SinePhasor& sweep : sweeps_) sweep.setFrequency(static_cast<double>(std::clamp(s.speedHz, 0.1f, 5.0f)), rate_);
  const int voices = std::clamp(s.voices, 0, kMaxVoices);
  if (voices == voices_) return;
  voices_ = voices;
  spreadPhases(sweeps_[0].angle());
}

// Voice k's sweep starts 2 pi k / voices after voice 0's.
void Chorus::spreadPhases(double angle0) noexcept SPINDLE_REALTIME {
  for (int k = 0; k < voices_; ++k) sweeps_[static_cast<size_t>(k)].setAngle(angle0 + 2.0 * std::numbers::pi * k / voices_);
}

void Chorus::clear() noexcept SPINDLE_REALTIME {
  std::fill(memory_.begin(), memory_.end(), 0.0f);
  at_ = 0;
  spreadPhases(0.0);
}

void Chorus::process(const float* in, float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  const double scaleStep = frames > 0 ? (targetScale_ - scale_) / frames : 0.0;
  const float gainStep = frames > 0 ? (targetGain_ - gain_) / static_cast<float>(frames) : 0.0f;
  for (int f = 0; f < frames; ++f) {
    scale_ += scaleStep;
    gain_ += gainStep;
    memory_[at_] = in[f];
    float l = 0.0f, r = 0.0f;
    for (size_t k = 0; k < static_cast<size_t>(voices_); ++k) {
      mod::SinePhasor& sweep = sweeps_[k];
      l += tap(0, offset_ + scale_ * (1.0 + sweep.sin()));
      r += tap(0, offset_ + scale_ * (1.0 - sweep.cos()));
      sweep.next();
    }
    constexpr float a = (kWidth + 1.0f) / 2.0f, b = (1.0f - kWidth) / 2.0f;
    left[f] += gain_ * (a * l + b * r);
    right[f] += gain_ * (a * r + b * l);
    at_ = (at_ + 1) & (size_ - 1);
  }
  scale_ = targetScale_;
  gain_ = targetGain_;
}

// ---- the bus effect ------------------------------------------------------------

void Chorus::allocate(const BusEffect&, const void*) {
  bus_ = true;
  voices_ = 1;
  size(kBusMemoryRate * kCentreMs * (1.0 + kSweep) / 1000.0, 2);
}

void Chorus::start(const BusEffect&, double sampleRate) noexcept SPINDLE_REALTIME {
  std::fill(memory_.begin(), memory_.end(), 0.0f);
  at_ = 0;
  rate_ = sampleRate;
  hz_ = -1.0;
  sweeps_[0].setAngle(0.0);
}

void Chorus::process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  const float mix = std::clamp(step.at(BusParam::Mix), 0.0f, 1.0f);
  const double depth = kSweep * std::clamp(static_cast<double>(step.at(BusParam::ModDepth)), 0.0, 1.0);
  const double hz = std::max(0.0, static_cast<double>(step.at(BusParam::ModRate)));
  mod::SinePhasor& sweep = sweeps_[0];
  if (hz != hz_) sweep.setFrequency(hz_ = hz, rate_);
  const double centre = kCentreMs * rate_ / 1000.0;
  float* lineLeft = memory_.data();
  float* lineRight = memory_.data() + size_;
  for (int i = 0; i < frames; ++i) {
    lineLeft[at_] = left[i];
    lineRight[at_] = right[i];
    const float wetLeft = tap(0, centre * (1.0 + depth * sweep.sin()));
    const float wetRight = tap(1, centre * (1.0 - depth * sweep.cos()));
    left[i] = (1.0f - mix) * left[i] + mix * wetLeft;
    right[i] = (1.0f - mix) * right[i] + mix * wetRight;
    sweep.next();
    at_ = (at_ + 1) & (size_ - 1);
  }
}

}  // namespace spindle::engine
