#include "engine/mod/FlexEgBank.h"

#include <algorithm>
#include <cmath>

namespace spindle::engine::mod {

double FlexEgBank::curve(double shape, double x) noexcept SPINDLE_REALTIME {
  x = std::clamp(x, 0.0, 1.0);
  if (!(std::abs(shape) >= 1e-4)) return x;
  const double s = std::clamp(shape, -100.0, 100.0);
  return s > 0.0 ? std::pow(x, s) : 1.0 - std::pow(1.0 - x, -s);
}

void FlexEgBank::reset(double sampleRate, const CurveTable* curves) noexcept SPINDLE_REALTIME {
  sampleRate_ = sampleRate > 0.0 ? sampleRate : 48000.0;
  curves_ = curves;
  released_ = false;
  count_ = 0;
}

void FlexEgBank::add(const FlexEg& eg) noexcept SPINDLE_REALTIME {
  if (count_ == state_.size()) return;
  State& s = state_[count_];
  s = State{};
  s.params = &eg;
  s.entry = count_++;
  enter(s, 0);
}

void FlexEgBank::release() noexcept SPINDLE_REALTIME { released_ = true; }

void FlexEgBank::save(Saved& saved) const noexcept SPINDLE_REALTIME {
  std::copy_n(state_.begin(), count_, saved.state.begin());
}

void FlexEgBank::restore(const Saved& saved) noexcept SPINDLE_REALTIME {
  std::copy_n(saved.state.begin(), count_, state_.begin());
}

bool FlexEgBank::moving() const noexcept SPINDLE_REALTIME {
  for (size_t k = 0; k < count_; ++k)
    if (!state_[k].done && !(held(state_[k]) && state_[k].frames >= state_[k].length)) return true;
  return false;
}

bool FlexEgBank::held(const State& s) const noexcept SPINDLE_REALTIME {
  return !released_ && s.stage == static_cast<int>(s.params->sustain);
}

void FlexEgBank::enter(State& s, int stage) noexcept SPINDLE_REALTIME {
  const FlexEg& p = *s.params;
  s.stage = stage;
  s.frames = 0;
  s.source = s.level;
  if (stage >= std::max(p.points, static_cast<int>(p.pointCount))) {
    s.done = true;
    s.level = 0.0;
    return;
  }
  s.elapsed = 0;
  s.length = s.stageFrames = stageLength(s);
  s.target = stageTarget(s);
}

void FlexEgBank::next(State& s, int64_t left) noexcept SPINDLE_REALTIME {
  const FlexEg& p = *s.params;
  const int last = std::max(p.points, static_cast<int>(p.pointCount)) - 1;
  const bool loop = s.stage == last && p.loop >= 0.0f && p.loop <= static_cast<float>(last) && !released_ &&
                    (p.loopCount < 1.0f || static_cast<float>(s.loops) < p.loopCount) && left != s.loopMark;
  if (!loop) return enter(s, s.stage + 1);
  ++s.loops;
  s.loopMark = left;
  enter(s, static_cast<int>(p.loop));
}

int64_t FlexEgBank::stageLength(const State& s) const noexcept SPINDLE_REALTIME {
  const auto at = static_cast<size_t>(s.stage);
  const double seconds = std::max(0.0, static_cast<double>(s.params->point[at].time + adds_.time[s.entry][at]));
  return std::llround(seconds * sampleRate_);
}

double FlexEgBank::stageTarget(const State& s) const noexcept SPINDLE_REALTIME {
  const auto at = static_cast<size_t>(s.stage);
  return static_cast<double>(s.params->point[at].level + adds_.level[s.entry][at]);
}

void FlexEgBank::pointsMoved() noexcept SPINDLE_REALTIME {
  for (size_t k = 0; k < count_; ++k) {
    State& s = state_[k];
    if (s.done || s.params->dynamic < 0.5f) continue;
    const int64_t length = stageLength(s);
    const double target = stageTarget(s);
    if (length == s.stageFrames && target == s.target) continue;
    s.source = s.level;
    s.target = target;
    s.stageFrames = length;
    s.length = std::max<int64_t>(0, length - s.elapsed);
    s.frames = 0;
  }
}

// Runs the frames stage by stage; a zero-length stage jumps to its level at once.
void FlexEgBank::advance(int frames) noexcept SPINDLE_REALTIME {
  for (size_t k = 0; k < count_; ++k) {
    State& s = state_[k];
    int64_t left = frames;
    s.loopMark = -1;
    while (!s.done) {
      const FlexEgPoint& point = s.params->point[static_cast<size_t>(s.stage)];
      const int64_t run = std::min(left, std::max<int64_t>(0, s.length - s.frames));
      s.frames += run;
      s.elapsed += run;
      left -= run;
      const double x = s.length > 0 ? static_cast<double>(s.frames) / static_cast<double>(s.length) : 1.0;
      const double bend = point.curve >= 0.0f && curves_
                              ? static_cast<double>(curves_->eval(static_cast<int>(point.curve), static_cast<float>(x)))
                              : curve(point.shape, x);
      s.level = s.source + (s.target - s.source) * bend;
      if (s.frames < s.length || held(s)) break;
      next(s, left);
      if (left == 0 && s.length > 0) break;
    }
  }
}

}  // namespace spindle::engine::mod
