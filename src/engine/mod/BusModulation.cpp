#include "engine/mod/BusModulation.h"

#include <algorithm>
#include <cmath>

#include "core/Curve.h"
#include "engine/mod/BusControls.h"
#include "engine/mod/Wave.h"

namespace spindle::engine::mod {

namespace {

// DecentSampler's LFO shapes (BusParamLfo::wave: 0 sine, 1 square, 2 saw, each 0..1).
int decentWave(uint8_t wave) noexcept SPINDLE_REALTIME {
  return wave == 1 ? kUpSquare : wave == 2 ? kUpSaw : kUpSine;
}

}  // namespace

void BusModulation::start(const BusEffect& effect, const ControllerState* controllers, double sampleRate) noexcept
    SPINDLE_REALTIME {
  busSmoothing(effect, sampleRate, kControlFrames, kSmoothSeconds, smoothing_);
  phase_ = {};
  seconds_ = 0.0;
  sampleRate_ = sampleRate;
  current_ = from_ = targets(effect, controllers);
  done_ = 0;
  running_ = false;
}

BusModulation::Params BusModulation::targets(const BusEffect& effect, const ControllerState* controllers) const noexcept
    SPINDLE_REALTIME {
  Params p = effect.values;
  if (controllers) {
    for (const BusParamCc& c : effect.controllers)
      p[static_cast<size_t>(c.param)] += busControlValue(c, controllers->value(c.cc), curves_);
    for (const BusParamCurve& c : effect.curves) p[static_cast<size_t>(c.param)] += curveAt(c.points, controllers->value(c.cc));
  }
  const size_t lfos = std::min(effect.lfos.size(), static_cast<size_t>(kMaxBusLfos));
  for (size_t i = 0; i < lfos; ++i) {
    const BusParamLfo& l = effect.lfos[i];
    if (seconds_ < static_cast<double>(l.delay)) continue;
    const float v = curveAt(l.curve, wave(decentWave(l.wave), phase_[i]));
    float& target = p[static_cast<size_t>(l.param)];
    target = l.behavior == BusParamLfo::Behavior::Add ? target + v
             : l.behavior == BusParamLfo::Behavior::Multiply ? target * v
                                                             : v;
  }
  return p;
}

bool BusModulation::step(const BusEffect& effect, const ControllerState* controllers) noexcept SPINDLE_REALTIME {
  if (running_) return false;
  running_ = true;
  done_ = 0;
  from_ = current_;
  const Params target = targets(effect, controllers);
  bool moved = false;
  for (size_t i = 0; i < current_.size(); ++i) {
    const float next = current_[i] + smoothing_[i] * (target[i] - current_[i]);
    const bool close = std::fabs(target[i] - next) <= 1e-6f * std::max(1.0f, std::fabs(target[i]));
    const float value = close ? target[i] : next;
    moved = moved || value != current_[i];
    current_[i] = value;
  }
  return moved;
}

void BusModulation::ran(const BusEffect& effect, int frames) noexcept SPINDLE_REALTIME {
  done_ += frames;
  if (done_ < kControlFrames) return;
  advanceLfos(effect, kControlFrames);
  done_ = 0;
  running_ = false;
}

void BusModulation::cut(const BusEffect& effect) noexcept SPINDLE_REALTIME {
  if (!running_) return;
  const dsp::StepRamp at{0, kControlFrames};
  for (size_t i = 0; i < current_.size(); ++i)
    if (done_ > 0) current_[i] = at.at(from_[i], current_[i], done_ - 1);
    else current_[i] = from_[i];
  advanceLfos(effect, done_);
  done_ = 0;
  running_ = false;
}

void BusModulation::advanceLfos(const BusEffect& effect, int frames) noexcept SPINDLE_REALTIME {
  const double seconds = static_cast<double>(frames) / sampleRate_;
  const size_t lfos = std::min(effect.lfos.size(), static_cast<size_t>(kMaxBusLfos));
  for (size_t i = 0; i < lfos; ++i) {
    const BusParamLfo& l = effect.lfos[i];
    const double running = std::max(0.0, seconds_ + seconds - std::max(seconds_, static_cast<double>(l.delay)));
    phase_[i] += std::max(0.0, static_cast<double>(l.hz)) * std::min(running, seconds);
    phase_[i] -= std::floor(phase_[i]);
  }
  seconds_ += seconds;
}

}  // namespace spindle::engine::mod
