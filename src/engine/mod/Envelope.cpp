#include "engine/mod/Envelope.h"

#include <algorithm>
#include <cmath>

#include "engine/mod/Frames.h"

namespace spindle::engine::mod {

namespace {

// Shapes this close to 0 are linear; beyond +-kMaxShape exp() would leave double's range.
constexpr double kLinearShape = 1e-4, kMaxShape = 200.0;

double clampShape(float shape) noexcept SPINDLE_REALTIME {
  if (!(std::abs(static_cast<double>(shape)) >= kLinearShape)) return 0.0;  // NaN too
  return std::clamp(static_cast<double>(shape), -kMaxShape, kMaxShape);
}

// u with B(u) = level (the curve's inverse), for level in [0, 1].
double curvePosition(double shape, double level) noexcept SPINDLE_REALTIME {
  level = std::clamp(level, 0.0, 1.0);
  if (shape == 0.0) return level;
  return std::log1p(level * std::expm1(-shape)) / -shape;
}

// Frames n = 0, 1, ... with u = u0 - n / frames still above `u1`: ceil(frames (u0 - u1)).
int64_t framesAbove(double u0, double u1, int64_t frames) noexcept SPINDLE_REALTIME {
  const double n = std::ceil(static_cast<double>(frames) * (u0 - u1) - 1e-9);
  return n > 0.0 ? std::min(static_cast<int64_t>(n), frames) : 0;
}

double percent01(float percent) noexcept SPINDLE_REALTIME {
  if (!(percent > 0.0f)) return 0.0;
  return std::min(static_cast<double>(percent) * 0.01, 1.0);
}

}  // namespace

void Envelope::setup(const EnvelopeParams& p, float velocity01, double sampleRate) noexcept SPINDLE_REALTIME {
  sampleRate_ = sampleRate > 0.0 ? sampleRate : 48000.0;
  setParams(p, velocity01);
  stage_ = Stage::Idle;
  level_ = 0.0;
  remaining_ = 0;
}

void Envelope::setParams(const EnvelopeParams& p, float velocity01) noexcept SPINDLE_REALTIME {
  const float v = std::clamp(velocity01, 0.0f, 1.0f);
  delayFrames_ = toFrames(p.delay + p.vel2delay * v, sampleRate_);
  attackFrames_ = toFrames(p.attack + p.vel2attack * v, sampleRate_);
  holdFrames_ = toFrames(p.hold + p.vel2hold * v, sampleRate_);
  decayFrames_ = toFrames(p.decay + p.vel2decay * v, sampleRate_);
  releaseFrames_ = toFrames(p.release + p.vel2release * v, sampleRate_);
  startLevel_ = percent01(p.start);
  sustain_ = percent01(p.sustain + p.vel2sustain * v);
  depth_ = p.depth + p.vel2depth * v;
  attackShape_ = clampShape(p.attackShape);
  decayShape_ = clampShape(p.decayShape);
  releaseShape_ = clampShape(p.releaseShape);
  decayZero_ = p.decayZero >= 0.5f;
  releaseZero_ = p.releaseZero >= 0.5f;
  decayRun_ = decayZero_ ? framesAbove(1.0, curvePosition(decayShape_, sustain_), decayFrames_) : decayFrames_;
  if (sustain_ >= 1.0) decayRun_ = 0;
}

void Envelope::update(const EnvelopeParams& p, float velocity01) noexcept SPINDLE_REALTIME {
  const int64_t ranDelay = delayFrames_ - remaining_, ranHold = holdFrames_ - remaining_;
  const double oldSustain = sustain_;
  setParams(p, velocity01);
  const auto per = [](int64_t frames) noexcept SPINDLE_REALTIME {
    return frames > 0 ? 1.0 / static_cast<double>(frames) : 0.0;
  };
  const double u = curve_.position();
  switch (stage_) {
    case Stage::Delay: remaining_ = std::max<int64_t>(0, delayFrames_ - ranDelay); break;
    case Stage::Hold: remaining_ = std::max<int64_t>(0, holdFrames_ - ranHold); break;
    case Stage::Attack:
      remaining_ = framesAbove(1.0, u, attackFrames_);
      curve_.begin(attackShape_, u, per(attackFrames_), startLevel_, 1.0 - startLevel_);
      break;
    case Stage::Release:
      remaining_ = framesAbove(u, 0.0, releaseFrames_);
      curve_.retime(-per(releaseFrames_));
      break;
    case Stage::Decay:
      remaining_ = decayZero_ ? framesAbove(u, curvePosition(decayShape_, sustain_), decayFrames_)
                              : framesAbove(u, 0.0, decayFrames_);
      if (sustain_ >= 1.0) remaining_ = 0;
      curve_.begin(decayShape_, u, -per(decayFrames_), decayZero_ ? 0.0 : sustain_, decayZero_ ? 1.0 : 1.0 - sustain_);
      if (remaining_ > 0) break;
      glideToSustain();  // the decay is over already: to the (new) sustain level
      return;
    case Stage::Sustain:
    case Stage::Glide:
      if (sustain_ != oldSustain) glideToSustain();
      return;
    default: return;
  }
  if (remaining_ <= 0) finishStage();
}

void Envelope::start() noexcept SPINDLE_REALTIME {
  level_ = 0.0;
  enterStage(Stage::Delay);
}

void Envelope::release() noexcept SPINDLE_REALTIME {
  if (stage_ == Stage::Idle || stage_ == Stage::Done || releasing()) return;
  enterStage(Stage::Release);
}

void Envelope::fastRelease(float seconds, float shape) noexcept SPINDLE_REALTIME {
  if (stage_ == Stage::Idle || stage_ == Stage::Done) return;
  const int64_t frames = std::max<int64_t>(1, toFrames(seconds, sampleRate_));
  // A running fast release is only ever shortened, never lengthened.
  if (stage_ == Stage::FastRelease && remaining_ <= frames) return;
  remaining_ = frames;
  step_ = level_ / static_cast<double>(frames);
  stage_ = level_ > 0.0 ? Stage::FastRelease : Stage::Done;
  if (stage_ == Stage::Done) level_ = 0.0;
  fastCurved_ = shape != 0.0f;
  if (fastCurved_) curve_.begin(static_cast<double>(shape), 0.0, 1.0 / static_cast<double>(frames), level_, -level_);
}

void Envelope::Curve::begin(double s, double u0, double du, double base, double span) noexcept SPINDLE_REALTIME {
  shape = s;
  if (s == 0.0) {
    x = u0, mul = 1.0, add = du;
    offset = base, scale = span;
    return;
  }
  // base + span (exp(-s u) - 1) / (exp(-s) - 1), with x = exp(-s u).
  const double k = span / std::expm1(-s);
  x = std::exp(-s * u0), mul = std::exp(-s * du), add = 0.0;
  offset = base - k, scale = k;
}

void Envelope::glideToSustain() noexcept SPINDLE_REALTIME {
  stage_ = Stage::Glide;
  remaining_ = kGlideFrames;
  curve_.begin(0.0, 0.0, 1.0 / kGlideFrames, level_, sustain_ - level_);
}

// x = x * mul + add per frame: a linear curve has mul 1, an exponential one add 0.
// Four recurrences run side by side, each four frames apart (the step composed four
// times: x * mul^4 + add (1 + mul + mul^2 + mul^3), exactly x + 4 add and x * mul^4
// for the two shapes), so no frame waits for the previous frame's multiply: one chain
// of dependent multiplies cost 4 % of the dense piano render's CPU. The composed step
// rounds differently from four single ones, in a double's last bits: an output float
// rarely moves, by a rounding step (the sfz-tests renders: at most 6e-8).
double Envelope::Curve::run(float* out, int n) const noexcept SPINDLE_REALTIME {
  const double o = offset, k = scale, m = mul, a = add;
  double v[4] = {x, x * m + a, 0.0, 0.0};
  v[2] = v[1] * m + a;
  v[3] = v[2] * m + a;
  const double m2 = m * m, m4 = m2 * m2;
  const double a4 = a * (1.0 + m) * (1.0 + m2);  // a (1 + m + m^2 + m^3)
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    for (int j = 0; j < 4; ++j) {
      out[i + j] = static_cast<float>(o + k * v[j]);
      v[j] = v[j] * m4 + a4;
    }
  }
  const int rest = n - i;
  for (int j = 0; j < rest; ++j) out[i + j] = static_cast<float>(o + k * v[j]);
  return v[rest];
}

double Envelope::Curve::position() const noexcept SPINDLE_REALTIME {
  if (shape == 0.0) return x;
  return x > 0.0 ? std::log(x) / -shape : 1.0;
}

void Envelope::Curve::retime(double du) noexcept SPINDLE_REALTIME {
  if (shape == 0.0) {
    add = du;
  } else {
    mul = std::exp(-shape * du);
  }
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
    case Stage::Attack: beginAttack(); break;
    case Stage::Hold: remaining_ = holdFrames_; break;
    case Stage::Decay: beginDecay(); break;
    case Stage::Sustain:
      level_ = sustain_;
      if (sustain_ <= 0.0) stage_ = Stage::Done;
      return;
    case Stage::Release: beginRelease(); break;
    case Stage::Idle:
    case Stage::FastRelease:
    case Stage::Glide:
    case Stage::Done: return;
  }
  if (remaining_ <= 0) finishStage();
}

// From the start level up to 1.0.
void Envelope::beginAttack() noexcept SPINDLE_REALTIME {
  remaining_ = attackFrames_;
  level_ = startLevel_;
  const double du = attackFrames_ > 0 ? 1.0 / static_cast<double>(attackFrames_) : 0.0;
  curve_.begin(attackShape_, 0.0, du, startLevel_, 1.0 - startLevel_);
}

// From 1.0 down to sustain: decayZero runs the 1 -> 0 curve until it reaches sustain.
void Envelope::beginDecay() noexcept SPINDLE_REALTIME {
  remaining_ = decayRun_;
  const double du = decayFrames_ > 0 ? -1.0 / static_cast<double>(decayFrames_) : 0.0;
  if (decayZero_)
    curve_.begin(decayShape_, 1.0, du, 0.0, 1.0);
  else
    curve_.begin(decayShape_, 1.0, du, sustain_, 1.0 - sustain_);
}

// From the level the note-off found down to 0.
void Envelope::beginRelease() noexcept SPINDLE_REALTIME {
  const double du = releaseFrames_ > 0 ? -1.0 / static_cast<double>(releaseFrames_) : 0.0;
  if (level_ <= 0.0) {
    remaining_ = 0;
  } else if (releaseZero_) {  // enter the 1 -> 0 curve where it passes the level
    const double u0 = curvePosition(releaseShape_, level_);
    remaining_ = framesAbove(u0, 0.0, releaseFrames_);
    curve_.begin(releaseShape_, u0, du, 0.0, 1.0);
  } else {
    remaining_ = releaseFrames_;
    curve_.begin(releaseShape_, 1.0, du, 0.0, level_);
  }
}

void Envelope::finishStage() noexcept SPINDLE_REALTIME {
  switch (stage_) {
    case Stage::Delay: enterStage(Stage::Attack); break;
    case Stage::Attack: level_ = 1.0; enterStage(Stage::Hold); break;
    case Stage::Hold: enterStage(Stage::Decay); break;
    case Stage::Decay:
    case Stage::Glide: enterStage(Stage::Sustain); break;
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
    case Stage::FastRelease:
      if (!fastCurved_) {
        for (int i = 0; i < n; ++i, level -= step_) out[i] = static_cast<float>(level);
        break;
      }
      [[fallthrough]];
    case Stage::Attack:
    case Stage::Decay:
    case Stage::Glide:
    case Stage::Release: {
      curve_.x = curve_.run(out, n);
      level = curve_.offset + curve_.scale * curve_.x;
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

}  // namespace spindle::engine::mod
