#include "engine/dsp/Filter.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace spindle::engine::dsp {

namespace {

// Butterworth Qs of the second-order sections, most resonant first:
// Q_k = 1 / (2 sin((2k - 1) pi / (2n))), k = 1..n/2, for order n = 4 and 6.
constexpr std::array<double, Filter::kMaxSections> kButterworth4 = {1.3065629648763766, 0.5411961001461970, 0.0};
constexpr std::array<double, Filter::kMaxSections> kButterworth6 = {1.9318516525781366, 0.7071067811865476,
                                                                    0.5176380902050415};

// State-variable sections in cascade for each type; None and the one-pole types use none.
int sectionCount(FilterType type) noexcept SPINDLE_REALTIME {
  switch (type) {
    case FilterType::None:
    case FilterType::Lpf1p:
    case FilterType::Hpf1p:
    case FilterType::Apf1p: return 0;
    case FilterType::Lpf4p:
    case FilterType::Hpf4p:
    case FilterType::Bpf4p: return 2;
    case FilterType::Lpf6p:
    case FilterType::Hpf6p:
    case FilterType::Bpf6p: return 3;
    default: return 1;
  }
}

bool isOnePole(FilterType type) noexcept SPINDLE_REALTIME {
  return type == FilterType::Lpf1p || type == FilterType::Hpf1p || type == FilterType::Apf1p;
}

// value clamped to [lo, hi]; NaN gives `nan`.
double clampOr(float value, double lo, double hi, double nan) noexcept SPINDLE_REALTIME {
  return std::isnan(value) ? nan : std::clamp(static_cast<double>(value), lo, hi);
}

}  // namespace

void Filter::setup(FilterType type, double sampleRate) noexcept SPINDLE_REALTIME {
  type_ = type;
  sampleRate_ = sampleRate > 0.0 ? sampleRate : 48000.0;
  sections_ = sectionCount(type);
  onePole_ = isOnePole(type);
  svfs_.fill(SvfCoeffs{});
  onePoleCoeffs_ = OnePoleCoeffs{};
  reset();
}

void Filter::reset() noexcept SPINDLE_REALTIME {
  left_.fill(State{});
  right_.fill(State{});
}

void Filter::setParams(float cutoffHz, float resonanceDb, float gainDb) noexcept SPINDLE_REALTIME {
  if (type_ == FilterType::None) return;
  const double minCutoff = static_cast<double>(kMinCutoffHz);
  const double cutoff = clampOr(cutoffHz, minCutoff, static_cast<double>(kMaxCutoffFraction) * sampleRate_, minCutoff);
  const double res = clampOr(resonanceDb, 0.0, static_cast<double>(kMaxResonanceDb), 0.0);
  const double gain = clampOr(gainDb, static_cast<double>(kMinGainDb), static_cast<double>(kMaxGainDb), 0.0);
  const double w0 = 2.0 * std::numbers::pi * cutoff / sampleRate_;
  design(w0, std::pow(10.0, res / 20.0) * std::numbers::sqrt2 * 0.5, gain);
}

void Filter::design(double w0, double q, double gainDb) noexcept SPINDLE_REALTIME {
  SvfCoeffs& first = svfs_[0];
  switch (type_) {
    case FilterType::None: break;
    case FilterType::Lpf1p: onePoleCoeffs_ = onePoleLow(w0); break;
    case FilterType::Hpf1p: onePoleCoeffs_ = onePoleHigh(w0); break;
    case FilterType::Apf1p: onePoleCoeffs_ = allPass1(w0); break;
    case FilterType::Lpf2p:
    case FilterType::Lpf2pSv: first = lowPass(w0, q); break;
    case FilterType::Hpf2p:
    case FilterType::Hpf2pSv: first = highPass(w0, q); break;
    case FilterType::Bpf2p:
    case FilterType::Bpf2pSv: first = bandPass(w0, q); break;
    case FilterType::Brf2p:
    case FilterType::Brf2pSv: first = notch(w0, q); break;
    case FilterType::Lpf4p:
    case FilterType::Lpf6p:
    case FilterType::Hpf4p:
    case FilterType::Hpf6p: setButterworth(w0, q * std::numbers::sqrt2); break;
    case FilterType::Bpf1p: first = bandPass(w0, 0.5); break;
    case FilterType::Brf1p: first = notch(w0, 0.5); break;
    case FilterType::Bpf4p:
    case FilterType::Bpf6p: std::fill_n(svfs_.begin(), sections_, bandPass(w0, q)); break;
    case FilterType::Pkf2p:
    case FilterType::Peq: first = peaking(w0, q, gainDb); break;
    case FilterType::Lsh: first = lowShelf(w0, q, gainDb); break;
    case FilterType::Hsh: first = highShelf(w0, q, gainDb); break;
  }
}

void Filter::setButterworth(double w0, double resonanceFactor) noexcept SPINDLE_REALTIME {
  const bool low = type_ == FilterType::Lpf4p || type_ == FilterType::Lpf6p;
  const auto& qs = sections_ == 2 ? kButterworth4 : kButterworth6;
  for (int i = 0; i < sections_; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const double q = i == 0 ? qs[k] * resonanceFactor : qs[k];
    svfs_[k] = low ? lowPass(w0, q) : highPass(w0, q);
  }
}

void Filter::process(float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  if (onePole_) {
    runStereo(onePoleCoeffs_, left_[0], right_[0], left, right, frames);
    return;
  }
  for (std::size_t i = 0; i < static_cast<std::size_t>(sections_); ++i)
    runStereo(svfs_[i], left_[i], right_[i], left, right, frames);
}

void Filter::processMono(float* io, int frames) noexcept SPINDLE_REALTIME {
  if (onePole_) {
    runMono(onePoleCoeffs_, left_[0], io, frames);
    return;
  }
  for (std::size_t i = 0; i < static_cast<std::size_t>(sections_); ++i)
    runMono(svfs_[i], left_[i], io, frames);
}

}  // namespace spindle::engine::dsp
