#include "engine/voices/VoiceEq.h"

namespace spindle::engine {

void VoiceEq::setup(const Region& r, const mod::VoiceMod& mod, int velocity, double sampleRate, bool stereo) noexcept
    SPINDLE_REALTIME {
  using T = ModTarget;
  const mod::RegionMods& m = mod.info();
  stereo_ = stereo;
  modulated_ = false;
  for (int t = static_cast<int>(T::Eq1Freq); t <= static_cast<int>(T::Eq3Gain); ++t)
    modulated_ = modulated_ || m.touches(static_cast<T>(t));
  eq_.setup(sampleRate);
  for (int b = 0; b < dsp::Eq::kBands; ++b) eq_.setType(b, r.eq[static_cast<size_t>(b)].type);
  update(r, mod, velocity);
  active_ = eq_.active() || modulated_;
}

void VoiceEq::update(const Region& r, const mod::VoiceMod& mod, int velocity) noexcept SPINDLE_REALTIME {
  const float v = static_cast<float>(velocity) / 127.0f;
  for (int b = 0; b < dsp::Eq::kBands; ++b) {
    const EqBand& band = r.eq[static_cast<size_t>(b)];
    const auto sum = [&](int param) noexcept SPINDLE_REALTIME {
      return mod.sum(static_cast<ModTarget>(static_cast<int>(ModTarget::Eq1Freq) + 3 * b + param));
    };
    eq_.setBand(b, band.freq + band.vel2freq * v + sum(0), band.bw + sum(1), band.gain + band.vel2gain * v + sum(2));
  }
}

void VoiceEq::process(float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  if (!active_) return;
  if (stereo_) {
    eq_.process(left, right, frames);
  } else {
    eq_.processMono(left, frames);
  }
}

}  // namespace spindle::engine
