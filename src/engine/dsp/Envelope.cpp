#include "engine/dsp/Envelope.h"

#include <algorithm>
#include <cmath>

namespace spindle::engine::dsp {

namespace {

// Seconds to whole frames, never negative; NaN counts as 0.
int64_t toFrames(float seconds, double sampleRate) noexcept SPINDLE_REALTIME {
  if (!(seconds > 0.0f)) return 0;
  return std::llround(static_cast<double>(seconds) * sampleRate);
}

// Multiplier c with c^frames = overshoot / (1 + overshoot): the distance to a target
// `overshoot` of the span beyond the end level shrinks to exactly that overshoot.
double curveCoef(int64_t frames) noexcept SPINDLE_REALTIME {
  if (frames <= 0) return 0.0;
  const double ratio = Envelope::kCurveOvershoot / (1.0 + Envelope::kCurveOvershoot);
  return std::pow(ratio, 1.0 / static_cast<double>(frames));
}

double percent01(float percent) noexcept SPINDLE_REALTIME {
  if (!(percent > 0.0f)) return 0.0;
  return std::min(static_cast<double>(percent) * 0.01, 1.0);
}

}  // namespace

void Envelope::setup(const EnvelopeParams& p, float velocity01, double sampleRate) noexcept SPINDLE_REALTIME {
  const float v = std::clamp(velocity01, 0.0f, 1.0f);
  sampleRate_ = sampleRate > 0.0 ? sampleRate : 48000.0;
  delayFrames_ = toFrames(p.delay + p.vel2delay * v, sampleRate_);
  attackFrames_ = toFrames(p.attack + p.vel2attack * v, sampleRate_);
  holdFrames_ = toFrames(p.hold + p.vel2hold * v, sampleRate_);
  decayFrames_ = toFrames(p.decay + p.vel2decay * v, sampleRate_);
  releaseFrames_ = toFrames(p.release + p.vel2release * v, sampleRate_);
  startLevel_ = percent01(p.start);
  sustain_ = percent01(p.sustain + p.vel2sustain * v);
  depth_ = p.depth + p.vel2depth * v;
  decayCoef_ = curveCoef(decayFrames_);
  releaseCoef_ = curveCoef(releaseFrames_);
  stage_ = Stage::Idle;
  level_ = 0.0;
  remaining_ = 0;
}

void Envelope::start() noexcept SPINDLE_REALTIME {
  level_ = 0.0;
  enterStage(Stage::Delay);
}

void Envelope::release() noexcept SPINDLE_REALTIME {
  if (stage_ == Stage::Idle || stage_ == Stage::Done || releasing()) return;
  enterStage(Stage::Release);
}

void Envelope::fastRelease(float seconds) noexcept SPINDLE_REALTIME {
  if (stage_ == Stage::Idle || stage_ == Stage::Done) return;
  const int64_t frames = std::max<int64_t>(1, toFrames(seconds, sampleRate_));
  // A running fast release is only ever shortened, never lengthened.
  if (stage_ == Stage::FastRelease && remaining_ <= frames) return;
  remaining_ = frames;
  step_ = level_ / static_cast<double>(frames);
  stage_ = level_ > 0.0 ? Stage::FastRelease : Stage::Done;
  if (stage_ == Stage::Done) level_ = 0.0;
}

bool Envelope::finished() const noexcept SPINDLE_REALTIME { return stage_ == Stage::Idle || stage_ == Stage::Done; }

bool Envelope::releasing() const noexcept SPINDLE_REALTIME { return stage_ == Stage::Release || stage_ == Stage::FastRelease; }

float Envelope::level() const noexcept SPINDLE_REALTIME { return static_cast<float>(level_); }

// Enters `stage` at the current level_; a stage with no frames is finished at once,
// so a chain of zero-length stages resolves here without writing a frame.
void Envelope::enterStage(Stage stage) noexcept SPINDLE_REALTIME {
  stage_ = stage;
  switch (stage) {
    case Stage::Delay: remaining_ = delayFrames_; break;
    case Stage::Attack:
      remaining_ = attackFrames_;
      level_ = startLevel_;
      step_ = attackFrames_ > 0 ? (1.0 - startLevel_) / static_cast<double>(attackFrames_) : 0.0;
      break;
    case Stage::Hold: remaining_ = holdFrames_; break;
    case Stage::Decay:
      remaining_ = decayFrames_;
      target_ = sustain_ - kCurveOvershoot * (1.0 - sustain_);
      break;
    case Stage::Sustain:
      level_ = sustain_;
      if (sustain_ <= 0.0) stage_ = Stage::Done;
      return;
    case Stage::Release:
      remaining_ = level_ > 0.0 ? releaseFrames_ : 0;
      target_ = -kCurveOvershoot * level_;
      break;
    case Stage::Idle:
    case Stage::FastRelease:
    case Stage::Done: return;
  }
  if (remaining_ <= 0) finishStage();
}

void Envelope::finishStage() noexcept SPINDLE_REALTIME {
  switch (stage_) {
    case Stage::Delay: enterStage(Stage::Attack); break;
    case Stage::Attack: level_ = 1.0; enterStage(Stage::Hold); break;
    case Stage::Hold: enterStage(Stage::Decay); break;
    case Stage::Decay: enterStage(Stage::Sustain); break;
    case Stage::Release:
    case Stage::FastRelease: level_ = 0.0; stage_ = Stage::Done; break;
    case Stage::Idle:
    case Stage::Sustain:
    case Stage::Done: break;
  }
}

// Writes up to `frames` frames of the current stage and advances it; returns the
// number written (at least 1 while frames > 0).
int Envelope::runStage(float* out, int frames) noexcept SPINDLE_REALTIME {
  if (stage_ == Stage::Idle || stage_ == Stage::Done || stage_ == Stage::Sustain) {
    std::fill(out, out + frames, static_cast<float>(level_));
    return frames;
  }
  const int n = static_cast<int>(std::min<int64_t>(frames, remaining_));
  double level = level_;
  switch (stage_) {
    case Stage::Attack:
    case Stage::FastRelease: {
      const double step = stage_ == Stage::Attack ? step_ : -step_;
      for (int i = 0; i < n; ++i, level += step) out[i] = static_cast<float>(level);
      break;
    }
    case Stage::Decay:
    case Stage::Release: {
      const double coef = stage_ == Stage::Decay ? decayCoef_ : releaseCoef_;
      const double target = target_;
      for (int i = 0; i < n; ++i, level = target + (level - target) * coef) out[i] = static_cast<float>(level);
      break;
    }
    default: std::fill(out, out + n, static_cast<float>(level)); break;
  }
  level_ = level;
  remaining_ -= n;
  if (remaining_ == 0) finishStage();
  return n;
}

void Envelope::process(float* out, int frames) noexcept SPINDLE_REALTIME {
  int done = 0;
  while (done < frames) done += runStage(out + done, frames - done);
}

}  // namespace spindle::engine::dsp
