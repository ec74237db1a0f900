// VoicePitch: note-start increment, bend_smooth and the per-segment increments.
#include "engine/voices/VoicePitch.h"

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

int VoicePitch::computeIncrements(float bendCents, float extraCents, mod::VoiceSources& sources, float* pitchEnv,
                                  float* pitchLfo, int frames) noexcept SPINDLE_REALTIME {
  const bool gliding = smoothBend(bendCents);
  const double extra = static_cast<double>(modCents_) + static_cast<double>(extraCents);
  increment_ = std::min(baseIncrement_ * centsToRatio(static_cast<double>(bendCents_) + extra), kMaxIncrement);
  perFrame_ = sourcesMove_ || gliding;
  if (!perFrame_) return frames;
  float depth = 0.0f;
  if (sourcesMove_) {
    sources.processEnvelope(mod::V1Dest::Pitch, pitchEnv, frames);
    sources.processLfo(mod::V1Dest::Pitch, pitchLfo, frames);
    depth = sources.depth(mod::V1Dest::Pitch);
  } else {
    std::fill_n(pitchEnv, frames, 0.0f);
    std::fill_n(pitchLfo, frames, 0.0f);
  }
  for (int i = 0; i < frames; ++i) {
    if (gliding) bendCents_ = glideStep(bendCents_);
    const double cents = static_cast<double>(bendCents_) + extra + static_cast<double>(pitchEnv[i] * depth + pitchLfo[i]);
    pitchEnv[i] = static_cast<float>(std::min(baseIncrement_ * std::exp2(cents / 1200.0), kMaxIncrement));
    if (!sourcesMove_ && bendCents_ == bendTarget_) return i + 1;
  }
  return frames;
}

// bend_smooth: every new bend is reached in a straight glide (in cents) lasting
// bend_smooth ms, one step per frame, so the frames never depend on where blocks end;
// what sfizz_render plays is close (tests/engine/core/V2OpcodeTests.cpp). 0 plays the
// bend at once, exactly. True while the glide goes on.
bool VoicePitch::smoothBend(float targetCents) noexcept SPINDLE_REALTIME {
  const float ms = bendSmoothMs_;
  if (ms <= 0.0f) {
    bendCents_ = bendTarget_ = targetCents;
    return false;
  }
  if (targetCents != bendTarget_) {
    bendTarget_ = targetCents;
    bendRate_ = std::fabs(targetCents - bendCents_) / (ms * 0.001f * static_cast<float>(sampleRate_));
  }
  return bendCents_ != bendTarget_;
}

float VoicePitch::glideStep(float from) const noexcept SPINDLE_REALTIME {
  return bendTarget_ > from ? std::min(from + bendRate_, bendTarget_) : std::max(from - bendRate_, bendTarget_);
}

}  // namespace spindle::engine
