#include "engine/mod/BusModulation.h"

#include "engine/mod/BusControls.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace spindle::engine {

void BusModulation::start(double sampleRate) noexcept SPINDLE_REALTIME {
  phase_ = {};
  seconds_ = 0.0;
  sampleRate_ = sampleRate;
}

float BusModulation::wave(int shape, double phase) noexcept SPINDLE_REALTIME {
  if (shape == 1) return phase < 0.5 ? 1.0f : 0.0f;
  if (shape == 2) return static_cast<float>(phase);
  return static_cast<float>(0.5 + 0.5 * std::sin(2.0 * std::numbers::pi * phase));
}

float BusModulation::curveAt(const std::vector<float>& curve, float x) noexcept SPINDLE_REALTIME {
  if (curve.empty()) return 0.0f;
  const float at = std::clamp(x, 0.0f, 1.0f) * static_cast<float>(curve.size() - 1);
  const auto i = std::min(static_cast<size_t>(at), curve.size() - 1);
  const size_t j = std::min(i + 1, curve.size() - 1);
  const float t = at - static_cast<float>(i);
  return curve[i] + t * (curve[j] - curve[i]);
}

BusModulation::Params BusModulation::targets(const BusEffect& effect, const mod::ControllerState* controllers,
                                             const mod::CurveTable* curves) const noexcept SPINDLE_REALTIME {
  Params p = effect.values;
  if (controllers) {
    for (const BusParamCc& c : effect.controllers) p[static_cast<size_t>(c.param)] += busControlValue(c, controllers->value(c.cc), curves);
    for (const BusParamCurve& c : effect.curves) p[static_cast<size_t>(c.param)] += curveAt(c.points, controllers->value(c.cc));
  }
  const size_t lfos = std::min(effect.lfos.size(), static_cast<size_t>(kMaxBusLfos));
  for (size_t i = 0; i < lfos; ++i) {
    const BusParamLfo& l = effect.lfos[i];
    if (seconds_ < static_cast<double>(l.delay)) continue;
    const float v = curveAt(l.curve, wave(l.wave, phase_[i]));
    float& target = p[static_cast<size_t>(l.param)];
    target = l.behavior == BusParamLfo::Behavior::Add ? target + v
             : l.behavior == BusParamLfo::Behavior::Multiply ? target * v
                                                             : v;
  }
  return p;
}

void BusModulation::advance(const BusEffect& effect, int frames) noexcept SPINDLE_REALTIME {
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


}  // namespace spindle::engine
