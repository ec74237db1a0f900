#include "engine/effects/Reverb.h"

#include <algorithm>
#include <cmath>

namespace spindle::engine::dsp {

namespace {

// Line lengths at 44.1 kHz, primes, scaled to the sample rate: the nearest primes to
// where FluidSynth's eight first echoes of an impulse arrive (2621, 3016, 3373, 3657,
// 4003, 4340, 4620 and 4919 frames at 48 kHz), so its tail starts as late.
constexpr std::array<int, Reverb::kLines> kLengths44k{2411, 2767, 3089, 3359, 3677, 3989, 4243, 4519};
// T60 = kDecayReference / -log10(0.7 + 0.28 room): 0.96 s at the default room size 0.2.
constexpr double kDecayReference = 0.117;
// High-frequency T60 over the low-frequency one at full damping, and the low-pass
// coefficient's bound (the formula passes 1 for long lines and strong damping).
constexpr double kFullDampRatio = 0.45;
constexpr double kMaxDamp = 0.9;
// Wet output scale: white noise sent in comes out with FluidSynth 2.3's wet energy at
// its defaults (per side 0.42 times the energy sent in; left/right correlation 0.61,
// which the width mixing gives by itself).
constexpr float kOutputScale = 0.635f;
// FluidSynth's wet normalisation by width (SCALE_WET_WIDTH), and the default width the
// scale above was measured at.
constexpr float kWidthScale = 0.2f;
constexpr float kDefaultWidth = 0.5f;

}  // namespace

Reverb::Reverb(double sampleRate, const ReverbSettings& settings) : sampleRate_(sampleRate) {
  for (size_t i = 0; i < lines_.size(); ++i) {
    const auto length = static_cast<size_t>(std::lround(kLengths44k[i] * sampleRate / 44100.0));
    lines_[i].buffer.assign(std::max<size_t>(length, 1), 0.0f);
  }
  configure(settings);
  wet1_ = targetWet1_;
  wet2_ = targetWet2_;
}

void Reverb::set(const ReverbSettings& settings) noexcept SPINDLE_REALTIME { configure(settings); }

// Jot's absorbent filter: a line of d frames loses 60 dB in T60 at DC and in
// T60 * ratio at Nyquist, through g (1 - b) / (1 - b z^-1).
void Reverb::configure(const ReverbSettings& s) noexcept SPINDLE_REALTIME {
  const double sampleRate = sampleRate_;
  const double feedback = 0.7 + 0.28 * std::clamp(static_cast<double>(s.roomSize), 0.0, 1.0);
  t60_ = static_cast<float>(kDecayReference / -std::log10(std::min(feedback, 0.999)));
  const double ratio = 1.0 - (1.0 - kFullDampRatio) * std::clamp(static_cast<double>(s.damping), 0.0, 1.0);
  for (Line& line : lines_) {
    const double d = static_cast<double>(line.buffer.size());
    const double gainDb = -60.0 * d / (sampleRate * static_cast<double>(t60_));
    line.gain = static_cast<float>(std::pow(10.0, gainDb / 20.0));
    const double b = std::log(10.0) / 4.0 * (gainDb / 20.0) * (1.0 - 1.0 / (ratio * ratio));
    line.damp = static_cast<float>(std::min(b, kMaxDamp));  // a pole at 1 or past it would not decay
  }
  const float width = std::clamp(s.width, 0.0f, 100.0f);
  const float wet = std::clamp(s.level, 0.0f, 1.0f) * kOutputScale * (1.0f + kWidthScale * kDefaultWidth) /
                    (1.0f + kWidthScale * width);
  targetWet1_ = wet * (width / 2.0f + 0.5f);
  targetWet2_ = wet * ((1.0f - width) / 2.0f);
}

void Reverb::process(const float* in, float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  std::array<float, kLines> out{};
  const float step1 = frames > 0 ? (targetWet1_ - wet1_) / static_cast<float>(frames) : 0.0f;
  const float step2 = frames > 0 ? (targetWet2_ - wet2_) / static_cast<float>(frames) : 0.0f;
  for (int f = 0; f < frames; ++f) {
    wet1_ += step1;
    wet2_ += step2;
    float sum = 0.0f;
    for (size_t i = 0; i < lines_.size(); ++i) {
      Line& line = lines_[i];
      const float x = line.buffer[static_cast<size_t>(line.at)] * line.gain;
      line.state = x * (1.0f - line.damp) + line.state * line.damp;
      out[i] = line.state;
      sum += out[i];
    }
    const float mixed = sum * (2.0f / kLines);
    float l = 0.0f, r = 0.0f;
    for (size_t i = 0; i < lines_.size(); ++i) {
      Line& line = lines_[i];
      line.buffer[static_cast<size_t>(line.at)] = out[i] - mixed + in[f];
      if (++line.at == static_cast<int>(line.buffer.size())) line.at = 0;
      (i % 2 == 0 ? l : r) += (i % 4 < 2 ? out[i] : -out[i]);
    }
    left[f] += wet1_ * l + wet2_ * r;
    right[f] += wet1_ * r + wet2_ * l;
  }
  wet1_ = targetWet1_;
  wet2_ = targetWet2_;
}

void Reverb::clear() noexcept SPINDLE_REALTIME {
  for (Line& line : lines_) {
    std::fill(line.buffer.begin(), line.buffer.end(), 0.0f);
    line.state = 0.0f;
  }
}

}  // namespace spindle::engine::dsp
