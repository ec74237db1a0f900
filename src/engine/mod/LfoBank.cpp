#include "engine/mod/LfoBank.h"

#include <algorithm>
#include <cmath>

#include "engine/mod/Frames.h"
#include "engine/mod/Wave.h"

namespace spindle::engine::mod {

namespace {

constexpr int kSampleHold = 12;

// lfoN_wave numbers the reference defines; anything else plays the default sine.
int shapeOf(float wave) noexcept SPINDLE_REALTIME {
  const int w = static_cast<int>(wave);
  return (w >= 0 && w <= 7) || w == kSampleHold ? w : 1;
}

}  // namespace

void LfoBank::reset(double sampleRate, uint32_t seed) noexcept SPINDLE_REALTIME {
  sampleRate_ = sampleRate > 0.0 ? sampleRate : 48000.0;
  rng_ = seed * 2654435761u + 1u;
  seed_ = seed;
  count_ = 0;
  moving_ = false;
}

void LfoBank::add(const FlexLfo& p, const StartAdds& a) noexcept SPINDLE_REALTIME {
  if (count_ == state_.size()) return;
  State& s = state_[count_];
  s = State{};
  s.params = &p;
  s.entry = count_++;
  s.shape = shapeOf(std::round(p.wave + a.wave));
  s.smoothFrames = std::max(0.0f, p.smooth + a.smooth) * 0.001f * static_cast<float>(sampleRate_);
  const double phase = static_cast<double>(p.phase + a.phase);
  s.phase = phase - std::floor(phase);
  s.delayLeft = toFrames(p.delay + a.delay, sampleRate_);
  s.fadeFrames = toFrames(p.fade + a.fade, sampleRate_);
  if (p.seed != 0) s.rng = ((seed_ + 1u) * 2654435761u) ^ (p.seed * 0x9E3779B9u) ^ 0x5bd1e995u;
  if (s.rng == 0 && p.seed != 0) s.rng = 1;
  s.held = draw(s);
}

void LfoBank::advance(int frames, const float* freqAdd) noexcept SPINDLE_REALTIME {
  moving_ = false;
  for (size_t k = 0; k < count_; ++k) {
    State& s = state_[k];
    const FlexLfo& p = *s.params;
    const double freq = std::max(0.0, static_cast<double>(p.freq + (freqAdd ? freqAdd[k] : 0.0f))) *
                        static_cast<double>(p.ratio);
    int64_t n = frames;
    if (s.delayLeft > 0) {
      const int64_t wait = std::min(s.delayLeft, n);
      s.delayLeft -= wait;
      n -= wait;
    }
    if (s.delayLeft == 0 && !s.stopped && n > 0) {
      s.fadeDone = std::min(s.fadeFrames, s.fadeDone + n);
      const double turned = s.phase + freq * static_cast<double>(n) / sampleRate_;
      const double whole = std::floor(turned);
      if (whole >= 1.0) {
        s.cycles += whole;
        if (s.shape == kSampleHold) s.held = draw(s);
        if (p.count >= 1.0f && s.cycles >= static_cast<double>(p.count)) s.stopped = true;
      }
      s.phase = turned - whole;
    }
    evaluate(s, frames);
    moving_ = moving_ || (!s.stopped && (s.delayLeft > 0 || freq > 0.0 || s.fadeDone < s.fadeFrames)) ||
              (s.smoothFrames > 0.0f && s.value != raw(s));
  }
}

// The output, through lfoN_smooth's low-pass when it has one (its first value is taken as is).
void LfoBank::evaluate(State& s, int frames) noexcept SPINDLE_REALTIME {
  const float x = raw(s);
  if (s.smoothFrames <= 0.0f || !s.started) {
    s.value = x;
  } else {
    const float k = 1.0f - std::exp(-static_cast<float>(frames) / s.smoothFrames);
    s.value += (x - s.value) * k;
    if (std::fabs(x - s.value) < 1e-6f) s.value = x;
  }
  s.started = true;
}

float LfoBank::raw(const State& s) const noexcept SPINDLE_REALTIME {
  const FlexLfo& p = *s.params;
  if (s.delayLeft > 0 || s.stopped) return 0.0f;
  const float fade =
      s.fadeFrames > 0 ? static_cast<float>(s.fadeDone) / static_cast<float>(s.fadeFrames) : 1.0f;
  float w = s.shape == kSampleHold ? s.held : wave(s.shape, s.phase);
  if (p.steps >= 1.0f) {  // a step sequence
    const int n = std::min(static_cast<int>(p.steps), FlexLfo::kMaxSteps);
    const int at = std::min(static_cast<int>(s.phase * n), n - 1);
    const float add = stepAdds_ ? (*stepAdds_)[s.entry][static_cast<size_t>(at)] : 0.0f;
    w = (p.step[static_cast<size_t>(at)] + add) * 0.01f;
  }
  float out = w * p.scale + p.offset;
  for (const FlexLfo::SubWave& sub : p.sub) {  // lfoN_waveX...: ratioX times the main wave's turns
    if (sub.wave < 0.0f) continue;
    const double turns = (s.cycles + s.phase) * static_cast<double>(sub.ratio);
    out += wave(shapeOf(sub.wave), turns - std::floor(turns)) * sub.scale + sub.offset;
  }
  return fade * out;
}

void LfoBank::save(Saved& saved) const noexcept SPINDLE_REALTIME {
  std::copy_n(state_.begin(), count_, saved.state.begin());
  saved.rng = rng_;
  saved.moving = moving_;
}

void LfoBank::restore(const Saved& saved) noexcept SPINDLE_REALTIME {
  std::copy_n(saved.state.begin(), count_, state_.begin());
  rng_ = saved.rng;
  moving_ = saved.moving;
}

float LfoBank::draw(State& s) noexcept SPINDLE_REALTIME {
  if (s.rng == 0) return random();
  s.rng ^= s.rng << 13;
  s.rng ^= s.rng >> 17;
  s.rng ^= s.rng << 5;
  return static_cast<float>(s.rng) / 2147483648.0f - 1.0f;
}

float LfoBank::random() noexcept SPINDLE_REALTIME {
  rng_ ^= rng_ << 13;
  rng_ ^= rng_ >> 17;
  rng_ ^= rng_ << 5;
  return static_cast<float>(rng_) / 2147483648.0f - 1.0f;
}

}  // namespace spindle::engine::mod
