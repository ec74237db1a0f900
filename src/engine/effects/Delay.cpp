#include "engine/effects/Delay.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/effects/BusMemory.h"

namespace spindle::engine {

namespace {

constexpr BusParam kTime[3] = {BusParam::DelayTimeL, BusParam::DelayTimeR, BusParam::DelayTimeC};
constexpr BusParam kBeats[3] = {BusParam::DelayBeatsL, BusParam::DelayBeatsR, BusParam::DelayBeatsC};
constexpr BusParam kLevel[3] = {BusParam::DelayLevelL, BusParam::DelayLevelR, BusParam::DelayLevelC};
constexpr BusParam kPan[3] = {BusParam::DelayPanL, BusParam::DelayPanR, BusParam::DelayPanC};
constexpr float kMaxFeedback = 0.99f;  // a loop at 100 % would never die
constexpr float kMaxDampHi = 0.95f;
constexpr float kMaxDampLo = 0.2f;  // the high-pass coefficient at damplo 100 %: ~1.6 kHz at 48 kHz

float percent(const Delay::Params& p, BusParam which) noexcept SPINDLE_REALTIME {
  return 0.01f * busParam(p, which);
}

}  // namespace

void Delay::allocate(const BusEffect& effect, const void*) {
  float longest = 0.0f;
  for (BusParam t : kTime) longest = std::max(longest, busParamMax(effect, t));
  for (BusParam b : kBeats) longest = std::max(longest, busParamMax(effect, b) * 60.0f / static_cast<float>(kMinSyncBpm));
  longest *= 1.0f + std::clamp(busParamMax(effect, BusParam::DelayModDepth), 0.0f, 100.0f) * 0.01f;
  const double seconds = std::min(static_cast<double>(longest), kMaxSeconds);
  size_ = static_cast<size_t>(std::ceil(seconds * kBusMemoryRate)) + 1;
  memory_.assign(size_ * taps_.size(), 0.0f);
  filtered_ = effect.filterWritten || busParamMax(effect, BusParam::DelayCutoff) > 0.0f;
}

void Delay::start(const BusEffect& effect, double sampleRate) noexcept SPINDLE_REALTIME {
  // Writing starts at frame 0 of each line, so only the first written_ frames of each
  // line can be dirty: a fresh program's lines (allocated zeroed) cost nothing here.
  for (size_t i = 0; i < taps_.size(); ++i)
    std::fill_n(memory_.begin() + static_cast<std::ptrdiff_t>(i * size_), written_, 0.0f);
  for (Tap& t : taps_) {
    t.high = t.low = 0.0f;
    t.glide.start(sampleRate);
  }
  at_ = written_ = 0;
  rate_ = sampleRate;
  lfoPhase_ = 0.0;
  const FilterType type = effect.filterWritten ? effect.filterType : FilterType::Lpf2p;
  filter_.setup(type == FilterType::None ? FilterType::Lpf2p : type, sampleRate);
}

// delay_resonance as filter_resonance: Q = 10^(dB/20); dsp::Filter takes 20 log10(Q sqrt 2).
void Delay::configure(const BusEffect&, const Params& p) noexcept SPINDLE_REALTIME {
  if (filtered_) filter_.setParams(busParam(p, BusParam::DelayCutoff), busParam(p, BusParam::DelayResonance) + 3.0103f);
}

Delay::TapParams Delay::tapParams(const Params& p, int tap) const noexcept SPINDLE_REALTIME {
  const auto i = static_cast<size_t>(tap);
  const double beats = busParam(p, kBeats[i]);
  const double frames = beats > 0.0 ? beats * 60.0 / static_cast<double>(tempo_) * rate_
                                    : std::round(static_cast<double>(busParam(p, kTime[i])) * rate_);
  TapParams t;
  const auto most = static_cast<double>(size_ - 1);
  if (!(frames > 0.0) || most < 1.0) return t;  // silent
  t.frames = std::clamp(frames, 1.0, most);
  const float level = std::max(0.0f, percent(p, kLevel[i]));
  const float angle = std::clamp(percent(p, kPan[i]), 0.0f, 1.0f) * std::numbers::pi_v<float> / 2.0f;
  t.gainLeft = level * std::cos(angle);
  t.gainRight = level * std::sin(angle);
  return t;
}

// The line's frame `delay` frames before the one written now, between frames linearly
// (1 <= delay <= size_ - 1, so both frames read were written before).
float Delay::read(const float* line, double delay) const noexcept SPINDLE_REALTIME {
  const double whole = std::floor(delay);
  const auto frac = static_cast<float>(delay - whole);
  const auto back = static_cast<size_t>(whole);
  const float a = line[(at_ + size_ - back) % size_], b = line[(at_ + 2 * size_ - back - 1) % size_];
  return a + frac * (b - a);
}

void Delay::process(const BusEffect&, const EffectStep& step, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  if (step.tempo > 0.0f) tempo_ = step.tempo;
  written_ = std::min(size_, written_ + static_cast<size_t>(frames));
  for (int done = 0; done < frames; done += kChunk)
    chunk(step.to, left + done, right + done, std::min(kChunk, frames - done));
}

void Delay::modulation(const Params& p, int frames) noexcept SPINDLE_REALTIME {
  const double depth = std::clamp(static_cast<double>(percent(p, BusParam::DelayModDepth)), 0.0, 1.0);
  const double turn = std::max(0.0, static_cast<double>(busParam(p, BusParam::DelayLfoFreq))) / rate_;
  for (int f = 0; f < frames; ++f) {
    mod_[static_cast<size_t>(f)] = 1.0 + depth * std::sin(2.0 * std::numbers::pi * lfoPhase_);
    lfoPhase_ += turn;
    lfoPhase_ -= std::floor(lfoPhase_);
  }
}

void Delay::chunk(const Params& p, float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  const std::array<TapParams, 3> tap = {tapParams(p, 0), tapParams(p, 1), tapParams(p, 2)};
  const bool modulated = busParam(p, BusParam::DelayModDepth) > 0.0f;
  if (modulated) modulation(p, frames);
  const auto most = static_cast<double>(size_ - 1);
  const float input = percent(p, BusParam::DelayInput), dry = percent(p, BusParam::DelayDry);
  const float wet = percent(p, BusParam::DelayWet);
  const float feedback = std::clamp(percent(p, BusParam::DelayFeedback), 0.0f, kMaxFeedback);
  const float hi = std::clamp(percent(p, BusParam::DelayDampHi), 0.0f, 1.0f) * kMaxDampHi;
  const float lo = std::clamp(percent(p, BusParam::DelayDampLo), 0.0f, 1.0f) * kMaxDampLo;
  for (int f = 0; f < frames; ++f) {
    const float in[3] = {left[f] * input, right[f] * input, 0.5f * (left[f] + right[f]) * input};
    float l = 0.0f, r = 0.0f;
    for (size_t i = 0; i < taps_.size(); ++i) {
      Tap& t = taps_[i];
      float* line = memory_.data() + i * size_;
      float echo = 0.0f;
      if (tap[i].frames <= 0.0) t.glide.silence();
      if (tap[i].frames > 0.0) {
        const double at = t.glide.next(tap[i].frames);
        const float y = read(line, modulated ? std::clamp(at * mod_[static_cast<size_t>(f)], 1.0, most) : at);
        t.high = (1.0f - hi) * y + hi * t.high;
        t.low += lo * (t.high - t.low);
        echo = t.high - t.low;
      }
      line[at_] = in[i] + feedback * echo;
      l += tap[i].gainLeft * echo;
      r += tap[i].gainRight * echo;
    }
    echoLeft_[static_cast<size_t>(f)] = l;
    echoRight_[static_cast<size_t>(f)] = r;
    at_ = at_ + 1 == size_ ? 0 : at_ + 1;
  }
  if (filtered_) filter_.process(echoLeft_.data(), echoRight_.data(), frames);
  for (int f = 0; f < frames; ++f) {
    left[f] = dry * left[f] + wet * echoLeft_[static_cast<size_t>(f)];
    right[f] = dry * right[f] + wet * echoRight_[static_cast<size_t>(f)];
  }
}

}  // namespace spindle::engine
