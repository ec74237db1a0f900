#include "engine/mod/Lfo.h"

#include <algorithm>
#include <cmath>

#include "engine/mod/Frames.h"

namespace spindle::engine::mod {

void Lfo::setup(const LfoParams& params, double sampleRate) noexcept SPINDLE_REALTIME {
  const double rate = sampleRate > 0.0 ? sampleRate : 48000.0;
  freq_ = params.freq > 0.0f ? static_cast<double>(params.freq) : 0.0;
  depth_ = std::isfinite(params.depth) ? static_cast<double>(params.depth) : 0.0;
  phasor_.setFrequency(freq_, rate);
  delayFrames_ = toFrames(params.delay, rate);
  fadeFrames_ = toFrames(params.fade, rate);
  start();
}

void Lfo::setFreq(double hz, double sampleRate) noexcept SPINDLE_REALTIME {
  const double f = hz > 0.0 ? hz : 0.0;
  if (f == freq_) return;
  freq_ = f;
  phasor_.setFrequency(freq_, sampleRate > 0.0 ? sampleRate : 48000.0);
}

void Lfo::start() noexcept SPINDLE_REALTIME {
  delayLeft_ = delayFrames_;
  phasor_.setAngle(0.0);
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
  SinePhasor phasor = phasor_;  // a local copy stays in registers
  double fade = fade_;
  for (int i = first; i < frames; ++i) {
    out[i] = static_cast<float>(depth_ * fade * phasor.sin());
    phasor.next();
    fade = std::min(1.0, fade + fadeStep_);
  }
  phasor_ = phasor;
  fade_ = fade;
}

}  // namespace spindle::engine::mod
