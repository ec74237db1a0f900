#include "engine/mod/Lfo.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace spindle::engine::dsp {

namespace {

int64_t toFrames(float seconds, double sampleRate) noexcept SPINDLE_REALTIME {
  if (!(seconds > 0.0f)) return 0;
  return std::llround(static_cast<double>(seconds) * sampleRate);
}

}  // namespace

void Lfo::setup(const LfoParams& params, double sampleRate) noexcept SPINDLE_REALTIME {
  const double rate = sampleRate > 0.0 ? sampleRate : 48000.0;
  freq_ = params.freq > 0.0f ? static_cast<double>(params.freq) : 0.0;
  depth_ = std::isfinite(params.depth) ? static_cast<double>(params.depth) : 0.0;
  const double w = 2.0 * std::numbers::pi * freq_ / rate;
  rotCos_ = std::cos(w);
  rotSin_ = std::sin(w);
  delayFrames_ = toFrames(params.delay, rate);
  fadeFrames_ = toFrames(params.fade, rate);
  start();
}

void Lfo::setFreq(double hz, double sampleRate) noexcept SPINDLE_REALTIME {
  const double f = hz > 0.0 ? hz : 0.0;
  if (f == freq_) return;
  freq_ = f;
  const double w = 2.0 * std::numbers::pi * freq_ / (sampleRate > 0.0 ? sampleRate : 48000.0);
  rotCos_ = std::cos(w);
  rotSin_ = std::sin(w);
}

void Lfo::start() noexcept SPINDLE_REALTIME {
  delayLeft_ = delayFrames_;
  sin_ = 0.0;
  cos_ = 1.0;
  sinceNormal_ = 0;
  fade_ = fadeFrames_ > 0 ? 0.0 : 1.0;
  fadeStep_ = fadeFrames_ > 0 ? 1.0 / static_cast<double>(fadeFrames_) : 0.0;
}

int Lfo::runDelay(float* out, int frames) noexcept SPINDLE_REALTIME {
  const int n = static_cast<int>(std::min<int64_t>(frames, delayLeft_));
  std::fill(out, out + n, 0.0f);
  delayLeft_ -= n;
  return n;
}

void Lfo::process(float* out, int frames) noexcept SPINDLE_REALTIME {
  if (!active()) {
    std::fill(out, out + frames, 0.0f);
    return;
  }
  const int first = runDelay(out, frames);
  double s = sin_, c = cos_, fade = fade_;
  int sinceNormal = sinceNormal_;
  for (int i = first; i < frames; ++i) {
    out[i] = static_cast<float>(depth_ * fade * s);
    const double ns = s * rotCos_ + c * rotSin_;
    c = c * rotCos_ - s * rotSin_;
    s = ns;
    fade = std::min(1.0, fade + fadeStep_);
    // |(s, c)| stays 1 to within rounding; one Newton step pulls it back every
    // kNormalFrames frames of the LFO's own, wherever the blocks end.
    if (++sinceNormal == kNormalFrames) {
      const double g = 1.5 - 0.5 * (s * s + c * c);
      s *= g;
      c *= g;
      sinceNormal = 0;
    }
  }
  sin_ = s;
  cos_ = c;
  fade_ = fade;
  sinceNormal_ = sinceNormal;
}

}  // namespace spindle::engine::dsp
