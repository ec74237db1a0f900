#include "engine/effects/BusReverb.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/effects/BusMemory.h"

namespace spindle::engine {

namespace {

// Line lengths at 44.1 kHz at the largest size (primes, as dsp::Reverb's, 55..102 ms).
constexpr std::array<int, BusReverb::kLines> kLengths44k{2411, 2767, 3089, 3359, 3677, 3989, 4243, 4519};
// Each reverb_type's decay at size 100, in %; size 0 has half of it (sfizz's profiles;
// chamber, which sfizz does not know, plays as its default large hall).
constexpr std::array<double, 7> kDecayAtMaxSize{90.0, 65.0, 75.0, 50.0, 50.0, 5.0, 90.0};
// The wet output's scale at a T60 of kReferenceT60, and how it follows the decay time: a
// noise's steady wet level grows with T60^(1 - 2 kLevelExponent) (sfizz's fverb: +2 dB
// from size 10 to 90, against +7.8 dB for an unscaled network).
constexpr double kOutputScale = 0.254, kLevelExponent = 0.05, kReferenceT60 = 4.8;
// The lines' damping corner over sfizz's damping frequency: the network passes each
// line's filter many times, so its corner sits higher for the same darkening.
constexpr double kDampScale = 2.0;

}  // namespace

double BusReverb::decaySeconds(double decayPercent) noexcept SPINDLE_REALTIME {
  return 1.6 * std::pow(9.0, (std::clamp(decayPercent, 0.0, 100.0) - 45.0) / 45.0);
}

double BusReverb::decayPercent(int reverbType, double sizePercent) noexcept SPINDLE_REALTIME {
  const double top = kDecayAtMaxSize[static_cast<size_t>(std::clamp(reverbType, 0, 6))];
  const double size = std::clamp(sizePercent, 0.0, 100.0) / 100.0;
  return top * size + 0.5 * top * (1.0 - size);
}

double BusReverb::pitchHz(double percent) noexcept SPINDLE_REALTIME {
  return 440.0 * std::exp2((21.0 + 1.08 * std::clamp(percent, 0.0, 100.0) - 69.0) / 12.0);
}

void BusReverb::allocate(const BusEffect& effect) {
  const double predelay = std::min(static_cast<double>(busParamMax(effect, BusParam::ReverbPredelay)), kMaxPredelaySeconds);
  predelayCapacity_ = static_cast<size_t>(std::ceil(predelay * kBusMemoryRate)) + 1;
  lineCapacity_ = static_cast<size_t>(std::ceil(kLengths44k.back() * kBusMemoryRate / 44100.0)) + 1;
  memory_.assign(predelayCapacity_ + lineCapacity_ * kLines, 0.0f);
}

void BusReverb::start(double sampleRate) noexcept SPINDLE_REALTIME {
  std::fill(memory_.begin(), memory_.end(), 0.0f);
  for (Line& line : lines_) line.state = 0.0f;
  toneState_ = 0.0f;
  at_ = 0;
  rate_ = sampleRate;
}

int BusReverb::memoryFrames() const noexcept SPINDLE_REALTIME {
  return static_cast<int>(predelayCapacity_ + lineCapacity_);
}

// Each line's gain loses 60 dB in T60; its one-pole low-pass (the damping) sits at the
// damping corner, so the highs die sooner.
void BusReverb::configure(const BusEffect& effect, const Params& p) noexcept SPINDLE_REALTIME {
  const auto size = static_cast<double>(busParam(p, BusParam::ReverbSize));
  const double t60 = decaySeconds(decayPercent(effect.reverbType, size));
  const double stretch = 0.5 + 0.5 * std::clamp(size, 0.0, 100.0) / 100.0;
  const auto pole = [this](double hz) { return std::exp(-2.0 * std::numbers::pi * std::min(hz, 0.45 * rate_) / rate_); };
  const auto damp = static_cast<float>(pole(kDampScale * pitchHz(100.0 - 0.5 * static_cast<double>(busParam(p, BusParam::ReverbDamp)))));
  for (size_t i = 0; i < lines_.size(); ++i) {
    Line& line = lines_[i];
    const double frames = std::round(kLengths44k[i] * stretch * rate_ / 44100.0);
    line.length = static_cast<int>(std::clamp(frames, 1.0, static_cast<double>(lineCapacity_ - 1)));
    line.gain = static_cast<float>(std::pow(10.0, -3.0 * line.length / (rate_ * t60)));
    line.damp = damp;
  }
  const double predelay = std::round(static_cast<double>(busParam(p, BusParam::ReverbPredelay)) * rate_);
  predelayFrames_ = static_cast<int>(std::clamp(predelay, 0.0, static_cast<double>(predelayCapacity_ - 1)));
  level_ = static_cast<float>(kOutputScale * std::pow(t60 / kReferenceT60, -kLevelExponent));
  tone_ = 1.0f - static_cast<float>(pole(pitchHz(static_cast<double>(busParam(p, BusParam::ReverbTone)))));
}

// One frame of the network: returns the left output, sets the right.
float BusReverb::network(float in, float& right) noexcept SPINDLE_REALTIME {
  std::array<float, kLines> out{};
  float sum = 0.0f;
  for (size_t i = 0; i < lines_.size(); ++i) {
    Line& line = lines_[i];
    const float x = buffer(i)[(at_ + lineCapacity_ - static_cast<size_t>(line.length)) % lineCapacity_] * line.gain;
    line.state = x * (1.0f - line.damp) + line.state * line.damp;
    out[i] = line.state;
    sum += out[i];
  }
  const float mixed = sum * (2.0f / kLines);
  float l = 0.0f, r = 0.0f;
  for (size_t i = 0; i < lines_.size(); ++i) {
    buffer(i)[at_ % lineCapacity_] = out[i] - mixed + in;
    (i % 2 == 0 ? l : r) += (i % 4 < 2 ? out[i] : -out[i]);
  }
  right = r;
  return l;
}

void BusReverb::process(const Params& p, float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  const float input = 0.01f * busParam(p, BusParam::ReverbInput), dry = 0.01f * busParam(p, BusParam::ReverbDry);
  const float wet = 0.01f * busParam(p, BusParam::ReverbWet) * level_;
  for (int f = 0; f < frames; ++f) {
    float* predelay = memory_.data();
    const size_t write = at_ % predelayCapacity_;
    predelay[write] = 0.5f * (left[f] + right[f]) * input;
    const float delayed = predelay[(write + predelayCapacity_ - static_cast<size_t>(predelayFrames_)) % predelayCapacity_];
    toneState_ += tone_ * (delayed - toneState_);
    float r = 0.0f;
    const float l = network(toneState_, r);
    left[f] = dry * left[f] + wet * l;
    right[f] = dry * right[f] + wet * r;
    at_ = (at_ + 1) % (predelayCapacity_ * lineCapacity_);
  }
}

}  // namespace spindle::engine
