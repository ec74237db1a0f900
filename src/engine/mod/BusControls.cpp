#include "engine/mod/BusControls.h"

#include <algorithm>
#include <cmath>

namespace spindle::engine::mod {

float busControlValue(const BusParamCc& c, float x, const CurveTable* curves) noexcept SPINDLE_REALTIME {
  return controlValue(c.depth, curves ? curves->eval(c.curve, x) : x, c.step);
}

void busSmoothing(const BusEffect& effect, double sampleRate, int stepFrames, double defaultSeconds,
                  std::array<float, kBusParams>& coefficients) noexcept SPINDLE_REALTIME {
  std::array<double, kBusParams> seconds;
  seconds.fill(-1.0);
  for (const BusParamCc& c : effect.controllers) {
    double& s = seconds[static_cast<size_t>(c.param)];
    if (c.smoothMs >= 0.0f) s = std::max(s, 0.001 * static_cast<double>(c.smoothMs));
  }
  for (size_t i = 0; i < coefficients.size(); ++i) {
    const double t = seconds[i] >= 0.0 ? seconds[i] : defaultSeconds;
    coefficients[i] = t > 0.0 ? static_cast<float>(1.0 - std::exp(-stepFrames / (t * sampleRate))) : 1.0f;
  }
}

}  // namespace spindle::engine::mod
