#include "engine/effects/Chorus.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>

namespace spindle::engine::dsp {

namespace {
// The shortest tap delay: FluidSynth's taps, found by cross-correlating its chorus
// return with white noise sent in, sweep from about 0 to 8 ms.
constexpr double kMinDelaySeconds = 0.0002;
// The stereo spread and the per-voice gain over the level (Chorus.h).
constexpr float kWidth = 5.7f;
constexpr float kVoiceScale = 0.431f;
}  // namespace

Chorus::Chorus(double sampleRate, const ChorusSettings& s)
    : sampleRate_(sampleRate), minDelay_(kMinDelaySeconds * sampleRate) {
  const auto frames = static_cast<size_t>(std::ceil(minDelay_ + static_cast<double>(kMaxDepthMs) * 0.001 * sampleRate)) + 4;
  buffer_.assign(std::bit_ceil(frames), 0.0f);
  mask_ = buffer_.size() - 1;
  set(s);
  halfDepth_ = targetHalfDepth_;
  gain_ = targetGain_;
  clear();
}

void Chorus::set(const ChorusSettings& s) noexcept SPINDLE_REALTIME {
  targetHalfDepth_ = 0.5 * static_cast<double>(std::clamp(s.depthMs, 0.0f, kMaxDepthMs)) * 0.001 * sampleRate_;
  targetGain_ = std::clamp(s.level, 0.0f, 10.0f) * kVoiceScale;
  const double step =
      2.0 * std::numbers::pi * static_cast<double>(std::clamp(s.speedHz, 0.1f, 5.0f)) / sampleRate_;
  rotCos_ = std::cos(step);
  rotSin_ = std::sin(step);
  const int voices = std::clamp(s.voices, 0, kMaxVoices);
  if (voices == voices_) return;
  voices_ = voices;
  spreadPhases(std::atan2(sin_[0], cos_[0]));
}

// Voice k's sweep starts 2 pi k / voices after voice 0's.
void Chorus::spreadPhases(double phase0) noexcept SPINDLE_REALTIME {
  for (int k = 0; k < voices_; ++k) {
    const double phase = phase0 + 2.0 * std::numbers::pi * k / voices_;
    cos_[static_cast<size_t>(k)] = std::cos(phase);
    sin_[static_cast<size_t>(k)] = std::sin(phase);
  }
}

void Chorus::clear() noexcept SPINDLE_REALTIME {
  std::fill(buffer_.begin(), buffer_.end(), 0.0f);
  at_ = 0;
  spreadPhases(0.0);
}

// The line `delayFrames` (>= 1) behind the newest frame, linearly interpolated.
float Chorus::tap(double delayFrames) const noexcept SPINDLE_REALTIME {
  const double whole = std::floor(delayFrames);
  const auto frac = static_cast<float>(delayFrames - whole);
  const size_t i = (at_ - static_cast<size_t>(whole)) & mask_;
  const float a = buffer_[i], b = buffer_[(i - 1) & mask_];
  return a + (b - a) * frac;
}

void Chorus::process(const float* in, float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  const double depthStep = frames > 0 ? (targetHalfDepth_ - halfDepth_) / frames : 0.0;
  const float gainStep = frames > 0 ? (targetGain_ - gain_) / static_cast<float>(frames) : 0.0f;
  for (int f = 0; f < frames; ++f) {
    halfDepth_ += depthStep;
    gain_ += gainStep;
    buffer_[at_] = in[f];
    float l = 0.0f, r = 0.0f;
    for (size_t k = 0; k < static_cast<size_t>(voices_); ++k) {
      // sin for the left tap; -cos is the same sine a quarter period later.
      l += tap(minDelay_ + halfDepth_ * (1.0 + sin_[k]));
      r += tap(minDelay_ + halfDepth_ * (1.0 - cos_[k]));
      const double c = cos_[k] * rotCos_ - sin_[k] * rotSin_;
      sin_[k] = sin_[k] * rotCos_ + cos_[k] * rotSin_;
      cos_[k] = c;
    }
    constexpr float a = (kWidth + 1.0f) / 2.0f, b = (1.0f - kWidth) / 2.0f;
    left[f] += gain_ * (a * l + b * r);
    right[f] += gain_ * (a * r + b * l);
    at_ = (at_ + 1) & mask_;
    if (++sinceNormal_ == kNormalFrames) {  // on the chorus's own frames, wherever blocks end
      renormalise();
      sinceNormal_ = 0;
    }
  }
  halfDepth_ = targetHalfDepth_;
  gain_ = targetGain_;
}

// Keeps each phasor on the unit circle (rounding would let it drift over hours).
void Chorus::renormalise() noexcept SPINDLE_REALTIME {
  for (size_t k = 0; k < static_cast<size_t>(voices_); ++k) {
    const double norm = 1.0 / std::sqrt(cos_[k] * cos_[k] + sin_[k] * sin_[k]);
    cos_[k] *= norm;
    sin_[k] *= norm;
  }
}

}  // namespace spindle::engine::dsp
