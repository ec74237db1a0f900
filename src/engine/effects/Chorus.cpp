#include "engine/effects/Chorus.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>
#include <utility>

#include "engine/effects/BusMemory.h"

namespace spindle::engine {

namespace {
// The send's stereo unit (Chorus.h): FluidSynth 2.3's width, fixed at its widest, and
// its scaling of the wet gain by the width.
constexpr float kWidth = 10.0f;
constexpr float kWidthScale = 0.2f;
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

// The send's taps read between frames through a first-order all-pass, as FluidSynth's
// do: y = older + (1 - t) (newer - y'), t the delay's fraction past `whole`. It keeps
// every frequency's level where a linear interpolation loses up to 3 dB in the highs
// (1.8 dB of a white noise), and the phase it adds is what FluidSynth's taps add.
float Chorus::allPassTap(size_t voice, double delay) noexcept SPINDLE_REALTIME {
  const double clamped = std::clamp(delay, 1.0, static_cast<double>(size_ - 2));
  const auto whole = static_cast<size_t>(clamped);
  const auto t = static_cast<float>(clamped - static_cast<double>(whole));
  const float newer = memory_[(at_ + size_ - whole) & (size_ - 1)];
  const float older = memory_[(at_ + size_ - whole - 1) & (size_ - 1)];
  float& last = allPass_[voice];
  last = older + (1.0f - t) * (newer - last);
  return last;
}

int Chorus::memoryFrames() const noexcept SPINDLE_REALTIME {
  if (bus_) return static_cast<int>(rate_ * kCentreMs * (1.0 + kSweep) / 1000.0) + 2;
  return static_cast<int>(offset_ + 2.0 * std::max(scale_, targetScale_)) + 4;
}

// ---- the send ------------------------------------------------------------------

Chorus::Chorus(double sampleRate, const ChorusSettings& s) : rate_(sampleRate), offset_(1.0) {
  size(offset_ + static_cast<double>(kMaxDepthMs) * 0.001 * sampleRate, 1);
  set(s);
  scale_ = targetScale_;
  gain_ = targetGain_;
  clear();
  spreadPhases(0.0);
}

void Chorus::set(const ChorusSettings& s) noexcept SPINDLE_REALTIME {
  targetScale_ = 0.5 * static_cast<double>(std::clamp(s.depthMs, 0.0f, kMaxDepthMs)) * 0.001 * rate_;
  targetGain_ = std::clamp(s.level, 0.0f, 10.0f);
  hzSend_ = static_cast<double>(std::clamp(s.speedHz, 0.1f, 5.0f));
  for (mod::SinePhasor& sweep : sweeps_) sweep.setFrequency(hzSend_, rate_);
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
  allPass_.fill(0.0f);
  at_ = 0;
}

void Chorus::skip(int frames) noexcept SPINDLE_REALTIME {
  if (frames <= 0 || voices_ == 0) return;
  const double turn = 2.0 * std::numbers::pi * hzSend_ * frames / rate_;
  spreadPhases(sweeps_[0].angle() + turn);
}

// The stereo unit's gains (same side, other side) for `voices` voices, per unit of level.
std::pair<float, float> Chorus::sideGains(int voices) noexcept SPINDLE_REALTIME {
  if (voices <= 1) return {1.0f, -1.0f};  // one voice: the sides opposed
  const float wet = 1.0f / (1.0f + kWidth * kWidthScale);
  return {wet * (kWidth / 2.0f + 0.5f), wet * (1.0f - kWidth) / 2.0f};
}

void Chorus::process(const float* in, float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  const double scaleStep = frames > 0 ? (targetScale_ - scale_) / frames : 0.0;
  const float gainStep = frames > 0 ? (targetGain_ - gain_) / static_cast<float>(frames) : 0.0f;
  const auto [same, other] = sideGains(voices_);
  const auto voices = static_cast<size_t>(voices_);
  const bool oddTail = voices >= 3 && voices % 2 == 1;  // the last voice feeds both sides
  for (int f = 0; f < frames; ++f) {
    scale_ += scaleStep;
    gain_ += gainStep;
    memory_[at_] = in[f];
    std::array<float, 2> side{};
    for (size_t k = 0; k < voices; ++k) {
      mod::SinePhasor& sweep = sweeps_[k];
      const float out = allPassTap(k, offset_ + scale_ * (1.0 - sweep.sin()));
      side[k & 1] += out;
      if (oddTail && k + 1 == voices) side[1] += out;
      sweep.next();
    }
    left[f] += gain_ * (same * side[0] + other * side[1]);
    right[f] += gain_ * (same * side[1] + other * side[0]);
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
