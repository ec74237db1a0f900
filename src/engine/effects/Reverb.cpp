#include "engine/effects/Reverb.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/effects/BusMemory.h"

namespace spindle::engine {

namespace {

// Line lengths at 44.1 kHz, primes: the nearest primes to where FluidSynth's eight
// first echoes of an impulse arrive (2621, 3016, 3373, 3657, 4003, 4340, 4620 and 4919
// frames at 48 kHz), so its tail starts as late.
constexpr std::array<int, Reverb::kLines> kLengths44k{2411, 2767, 3089, 3359, 3677, 3989, 4243, 4519};

// The send's law. T60 = kDecayReference / -log10(0.7 + 0.28 room): 0.96 s at the
// default room size 0.2. High-frequency T60 over the low-frequency one at full damping,
// and the low-pass coefficient's bound (the formula passes 1 for long lines and strong
// damping). The wet output scale: white noise sent in comes out with FluidSynth 2.3's
// wet energy at its defaults (per side 0.42 times the energy sent in; left/right
// correlation 0.61, which the width mixing gives by itself). FluidSynth's wet
// normalisation by width (SCALE_WET_WIDTH), and the default width the scale was
// measured at.
constexpr double kDecayReference = 0.117;
constexpr double kFullDampRatio = 0.45;
constexpr double kMaxDamp = 0.9;
constexpr float kSendScale = 0.635f;
constexpr float kWidthScale = 0.2f;
constexpr float kDefaultWidth = 0.5f;

// The bus's law. Each reverb_type's decay at size 100, in %; size 0 has half of it
// (sfizz's profiles; chamber, which sfizz does not know, plays as its default large
// hall). The wet output's scale at a T60 of kReferenceT60, and how it follows the decay
// time: a noise's steady wet level grows with T60^(1 - 2 kLevelExponent) (sfizz's fverb:
// +2 dB from size 10 to 90, against +7.8 dB for an unscaled network). The lines' damping
// corner over sfizz's damping frequency: the network passes each line's filter many
// times, so its corner sits higher for the same darkening.
constexpr std::array<double, 7> kDecayAtMaxSize{90.0, 65.0, 75.0, 50.0, 50.0, 5.0, 90.0};
constexpr double kBusScale = 0.254, kLevelExponent = 0.05, kReferenceT60 = 4.8;
constexpr double kDampScale = 2.0;

}  // namespace

void Reverb::size(size_t predelayCapacity, size_t lineCapacity) {
  predelayCapacity_ = predelayCapacity;
  lineCapacity_ = lineCapacity;
  memory_.assign(predelayCapacity_ + lineCapacity_ * kLines, 0.0f);
}

// One frame of the network: returns the left output, sets the right.
float Reverb::network(float in, float& right) noexcept SPINDLE_REALTIME {
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
  at_ = (at_ + 1) % (predelayCapacity_ * lineCapacity_);
  right = r;
  return l;
}

void Reverb::clear() noexcept SPINDLE_REALTIME {
  std::fill(memory_.begin(), memory_.end(), 0.0f);
  for (Line& line : lines_) line.state = 0.0f;
  toneState_ = 0.0f;
}

// ---- the send ------------------------------------------------------------------

Reverb::Reverb(double sampleRate, const ReverbSettings& settings) : rate_(sampleRate) {
  for (size_t i = 0; i < lines_.size(); ++i)
    lines_[i].length = static_cast<int>(std::max<long>(std::lround(kLengths44k[i] * sampleRate / 44100.0), 1));
  memoryFrames_ = lines_.back().length;
  size(1, static_cast<size_t>(memoryFrames_) + 1);
  configureSend(settings);
  wet1_ = targetWet1_;
  wet2_ = targetWet2_;
}

void Reverb::set(const ReverbSettings& settings) noexcept SPINDLE_REALTIME { configureSend(settings); }

// Jot's absorbent filter: a line of d frames loses 60 dB in T60 at DC and in
// T60 * ratio at Nyquist, through g (1 - b) / (1 - b z^-1).
void Reverb::configureSend(const ReverbSettings& s) noexcept SPINDLE_REALTIME {
  const double sampleRate = rate_;
  const double feedback = 0.7 + 0.28 * std::clamp(static_cast<double>(s.roomSize), 0.0, 1.0);
  t60_ = static_cast<float>(kDecayReference / -std::log10(std::min(feedback, 0.999)));
  const double ratio = 1.0 - (1.0 - kFullDampRatio) * std::clamp(static_cast<double>(s.damping), 0.0, 1.0);
  for (Line& line : lines_) {
    const double d = static_cast<double>(line.length);
    const double gainDb = -60.0 * d / (sampleRate * static_cast<double>(t60_));
    line.gain = static_cast<float>(std::pow(10.0, gainDb / 20.0));
    const double b = std::log(10.0) / 4.0 * (gainDb / 20.0) * (1.0 - 1.0 / (ratio * ratio));
    line.damp = static_cast<float>(std::min(b, kMaxDamp));  // a pole at 1 or past it would not decay
  }
  const float width = std::clamp(s.width, 0.0f, 100.0f);
  const float wet = std::clamp(s.level, 0.0f, 1.0f) * kSendScale * (1.0f + kWidthScale * kDefaultWidth) /
                    (1.0f + kWidthScale * width);
  targetWet1_ = wet * (width / 2.0f + 0.5f);
  targetWet2_ = wet * ((1.0f - width) / 2.0f);
}

void Reverb::process(const float* in, float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  const float step1 = frames > 0 ? (targetWet1_ - wet1_) / static_cast<float>(frames) : 0.0f;
  const float step2 = frames > 0 ? (targetWet2_ - wet2_) / static_cast<float>(frames) : 0.0f;
  for (int f = 0; f < frames; ++f) {
    wet1_ += step1;
    wet2_ += step2;
    float r = 0.0f;
    const float l = network(in[f], r);
    left[f] += wet1_ * l + wet2_ * r;
    right[f] += wet1_ * r + wet2_ * l;
  }
  wet1_ = targetWet1_;
  wet2_ = targetWet2_;
}

// ---- the bus effect ------------------------------------------------------------

double Reverb::decaySeconds(double decayPercent) noexcept SPINDLE_REALTIME {
  return 1.6 * std::pow(9.0, (std::clamp(decayPercent, 0.0, 100.0) - 45.0) / 45.0);
}

double Reverb::decayPercent(int reverbType, double sizePercent) noexcept SPINDLE_REALTIME {
  const double top = kDecayAtMaxSize[static_cast<size_t>(std::clamp(reverbType, 0, 6))];
  const double size = std::clamp(sizePercent, 0.0, 100.0) / 100.0;
  return top * size + 0.5 * top * (1.0 - size);
}

double Reverb::pitchHz(double percent) noexcept SPINDLE_REALTIME {
  return 440.0 * std::exp2((21.0 + 1.08 * std::clamp(percent, 0.0, 100.0) - 69.0) / 12.0);
}

void Reverb::allocate(const BusEffect& effect, const void*) {
  const double predelay = std::min(static_cast<double>(busParamMax(effect, BusParam::ReverbPredelay)), kMaxPredelaySeconds);
  size(static_cast<size_t>(std::ceil(predelay * kBusMemoryRate)) + 1,
       static_cast<size_t>(std::ceil(kLengths44k.back() * kBusMemoryRate / 44100.0)) + 1);
  memoryFrames_ = static_cast<int>(predelayCapacity_ + lineCapacity_);
}

void Reverb::start(const BusEffect&, double sampleRate) noexcept SPINDLE_REALTIME {
  clear();
  at_ = 0;
  rate_ = sampleRate;
}

// Each line's gain loses 60 dB in T60; its one-pole low-pass (the damping) sits at the
// damping corner, so the highs die sooner.
void Reverb::configure(const BusEffect& effect, const BusParams& p) noexcept SPINDLE_REALTIME {
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
  level_ = static_cast<float>(kBusScale * std::pow(t60 / kReferenceT60, -kLevelExponent));
  tone_ = 1.0f - static_cast<float>(pole(pitchHz(static_cast<double>(busParam(p, BusParam::ReverbTone)))));
}

void Reverb::process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  const float input = 0.01f * step.at(BusParam::ReverbInput), dry = 0.01f * step.at(BusParam::ReverbDry);
  const float wet = 0.01f * step.at(BusParam::ReverbWet) * level_;
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
  }
}

}  // namespace spindle::engine
