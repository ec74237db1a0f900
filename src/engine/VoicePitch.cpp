// VoicePitch: note-start increment, bend_smooth and the per-segment increments.
#include "engine/VoicePitch.h"

#include <algorithm>
#include <cmath>

#include "core/Units.h"

namespace spindle::engine {

// pitch_random is bipolar: uniform in +-pitch_random cents.
void VoicePitch::setup(const Region& r, const SampleData& d, int key, double keyPosition, int velocity,
                       double sampleRate, bool asTable, Prng& rng) noexcept SPINDLE_REALTIME {
  sampleRate_ = sampleRate;
  bendSmoothMs_ = r.bendSmooth;
  const int root = d.rootKey;
  const int center = r.pitchKeycenterFromKey ? (root >= 0 ? root : key) : r.pitchKeycenter;
  keyPosition_ = keyPosition;
  keytrack_ = static_cast<double>(r.pitchKeytrack);
  double cents = (keyPosition - center) * keytrack_;
  cents += 100.0 * r.transpose + static_cast<double>(r.tune);
  cents += static_cast<double>(r.pitchVeltrack) * velocity / 127.0;
  if (r.pitchRandom > 0.0f) cents += static_cast<double>(r.pitchRandom * rng.bipolar());
  double fileRate = d.sampleRate > 0.0 ? d.sampleRate : sampleRate;
  // An oscillator's table plays middle C at its rate: at the keycenter it plays the keycenter.
  // A file played as a table (oscillator=on) is one cycle at the keycenter, whatever its rate.
  if (asTable) {
    if (!d.oscillator) fileRate = static_cast<double>(d.totalFrames) * noteToHz(60.0);
    fileRate *= centsToRatio(100.0 * (center - 60));
  }
  baseIncrement_ = centsToRatio(cents) * fileRate / sampleRate;
  increment_ = baseIncrement_;
}

void VoicePitch::retune(double keyPosition) noexcept SPINDLE_REALTIME {
  baseIncrement_ *= centsToRatio((keyPosition - keyPosition_) * keytrack_);
  keyPosition_ = keyPosition;
}

void VoicePitch::computeIncrements(float bendCents, float extraCents, mod::VoiceSources& sources, float* pitchEnv,
                                   float* pitchLfo, int frames) noexcept SPINDLE_REALTIME {
  double bend = static_cast<double>(smoothBend(bendCents, frames) + modCents_);
  if (extraCents != 0.0f) bend += static_cast<double>(extraCents);
  increment_ = std::min(baseIncrement_ * centsToRatio(bend), kMaxIncrement);
  if (!sourcesMove_) return;
  sources.processEnvelope(mod::V1Dest::Pitch, pitchEnv, frames);
  sources.processLfo(mod::V1Dest::Pitch, pitchLfo, frames);
  const float depth = sources.depth(mod::V1Dest::Pitch);
  for (int i = 0; i < frames; ++i) {
    const double cents = bend + static_cast<double>(pitchEnv[i] * depth + pitchLfo[i]);
    pitchEnv[i] = static_cast<float>(std::min(baseIncrement_ * std::exp2(cents / 1200.0), kMaxIncrement));
  }
}

// bend_smooth: every new bend is reached in a straight glide (in cents) lasting
// bend_smooth ms, stepped once per render segment; what sfizz_render plays is close
// (tests/engine/core/V2OpcodeTests.cpp). 0 plays the bend at once, exactly.
float VoicePitch::smoothBend(float targetCents, int frames) noexcept SPINDLE_REALTIME {
  const float ms = bendSmoothMs_;
  if (ms <= 0.0f) return bendCents_ = bendTarget_ = targetCents;
  if (targetCents != bendTarget_) {
    bendTarget_ = targetCents;
    bendRate_ = std::fabs(targetCents - bendCents_) / (ms * 0.001f * static_cast<float>(sampleRate_));
  }
  // The segment plays the glide's value at its middle frame.
  const float half = 0.5f * bendRate_ * static_cast<float>(frames);
  const auto toward = [&](float from) noexcept SPINDLE_REALTIME {
    return targetCents > from ? std::min(from + half, targetCents) : std::max(from - half, targetCents);
  };
  const float middle = toward(bendCents_);
  bendCents_ = toward(middle);
  return middle;
}

}  // namespace spindle::engine
