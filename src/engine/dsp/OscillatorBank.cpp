#include "engine/dsp/OscillatorBank.h"

#include <algorithm>
#include <cmath>

namespace spindle::engine::dsp {

namespace {

// The reference's unison coefficients: copy i is detuned by oscillator_detune times this.
constexpr std::array<double, OscillatorBank::kMaxCopies> kUnisonDetune = {0.0,   -1.0, 1.0,   -0.25, 0.25,
                                                                          -0.5, 0.5,  -0.75, 0.75};

}  // namespace

OscillatorBank::Arrangement OscillatorBank::arrangement(const Settings& s) noexcept SPINDLE_REALTIME {
  if (s.mode >= 1) return Arrangement::Fm;
  if (s.multi >= 3) return Arrangement::Unison;
  return s.multi == 2 ? Arrangement::Ring : Arrangement::Single;
}

int OscillatorBank::copies(const Settings& s) noexcept SPINDLE_REALTIME {
  switch (arrangement(s)) {
    case Arrangement::Single: return 1;
    case Arrangement::Unison: return std::clamp(s.multi, 3, kMaxCopies);
    case Arrangement::Ring:
    case Arrangement::Fm: return 2;
  }
  return 1;
}

void OscillatorBank::start(const float* table, int64_t frames, const Settings& s,
                           const std::array<float, kMaxCopies>& phases) noexcept SPINDLE_REALTIME {
  table_ = table;
  size_ = std::max<int64_t>(frames, 1);
  sizeF_ = static_cast<double>(size_);
  arrangement_ = arrangement(s);
  interpolation_ = s.interpolation;
  count_ = copies(s);
  for (int i = 0; i < count_; ++i) {
    const auto k = static_cast<size_t>(i);
    phase_[k] = wrap(static_cast<double>(phases[k]) * sizeF_);
    gainLeft_[k] = gainRight_[k] = 1.0f;
    ratio_[k] = 1.0;
  }
  if (arrangement_ == Arrangement::Unison) {
    const float last = static_cast<float>(count_ - 1);
    for (int i = 0; i < count_; ++i) {
      const auto k = static_cast<size_t>(i);
      gainLeft_[k] = static_cast<float>(i) / last;
      gainRight_[k] = 1.0f - gainLeft_[k];
    }
  }
  setModulation(s.detuneCents, s.depth);
}

void OscillatorBank::setModulation(float detuneCents, float depth) noexcept SPINDLE_REALTIME {
  depth_ = depth;
  const double cents = static_cast<double>(detuneCents);
  if (arrangement_ == Arrangement::Unison) {
    for (int i = 0; i < count_; ++i) {
      const auto k = static_cast<size_t>(i);
      ratio_[k] = std::exp2(cents * kUnisonDetune[k] / 1200.0);
    }
  } else if (count_ == 2) {
    ratio_[1] = std::exp2(cents / 1200.0);  // the modulator
  }
}

double OscillatorBank::wrap(double phase) const noexcept SPINDLE_REALTIME {
  if (phase >= 0.0 && phase < sizeF_) return phase;
  phase -= sizeF_ * std::floor(phase / sizeF_);
  return phase < sizeF_ ? phase : 0.0;  // rounding may land exactly on size
}

float OscillatorBank::read(double phase) const noexcept SPINDLE_REALTIME {
  const auto i = static_cast<int64_t>(phase);
  const auto at = [this](int64_t k) noexcept SPINDLE_REALTIME {
    return table_[k < 0 ? k + size_ : k >= size_ ? k - size_ : k];
  };
  const float t = static_cast<float>(phase - static_cast<double>(i));
  switch (interpolation_) {
    case Interpolation::Nearest: return at(t < 0.5f ? i : i + 1);
    case Interpolation::Linear: {
      const float a = at(i);
      return a + t * (at(i + 1) - a);
    }
    case Interpolation::Hermite: {
      const float xm1 = at(i - 1), x0 = at(i), x1 = at(i + 1), x2 = at(i + 2);
      const float c1 = 0.5f * (x1 - xm1);
      const float c2 = xm1 - 2.5f * x0 + 2.0f * x1 - 0.5f * x2;
      const float c3 = 0.5f * (x2 - xm1) + 1.5f * (x0 - x1);
      return ((c3 * t + c2) * t + c1) * t + x0;
    }
  }
  return 0.0f;
}

void OscillatorBank::render(float* left, float* right, int frames, const float* increments,
                            double increment) noexcept SPINDLE_REALTIME {
  if (!table_) {
    std::fill(left, left + frames, 0.0f);
    std::fill(right, right + frames, 0.0f);
    return;
  }
  for (int n = 0; n < frames; ++n) {
    const double step = increments ? static_cast<double>(increments[n]) : increment;
    float l = 0.0f, r = 0.0f;
    switch (arrangement_) {
      case Arrangement::Single: l = r = read(phase_[0]); break;
      case Arrangement::Unison:
        for (size_t k = 0; k < static_cast<size_t>(count_); ++k) {
          const float v = read(phase_[k]);
          l += gainLeft_[k] * v;
          r += gainRight_[k] * v;
          phase_[k] = wrap(phase_[k] + step * ratio_[k]);
        }
        break;
      case Arrangement::Ring: l = r = read(phase_[0]) * depth_ * read(phase_[1]); break;
      case Arrangement::Fm: {
        l = r = read(phase_[0]);
        const double modulator = static_cast<double>(depth_ * read(phase_[1]));
        phase_[1] = wrap(phase_[1] + step * ratio_[1]);
        phase_[0] = wrap(phase_[0] + step * (1.0 + modulator));
        break;
      }
    }
    if (arrangement_ == Arrangement::Single || arrangement_ == Arrangement::Ring) {
      phase_[0] = wrap(phase_[0] + step);
      if (arrangement_ == Arrangement::Ring) phase_[1] = wrap(phase_[1] + step * ratio_[1]);
    }
    left[n] = l;
    right[n] = r;
  }
}

}  // namespace spindle::engine::dsp
