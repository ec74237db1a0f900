#include "engine/voices/VoiceShapers.h"

#include <algorithm>

#include "engine/dsp/Shaper.h"

namespace spindle::engine {

namespace {

// Stage i's first target; drive, threshold, driveBoost and outputLevel follow in order.
ModTarget firstTarget(int stage) noexcept SPINDLE_REALTIME {
  return static_cast<ModTarget>(static_cast<int>(ModTarget::Shaper1Drive) + 4 * stage);
}

}  // namespace

void VoiceShapers::setup(const Region& r, const mod::VoiceMod& mod, bool stereo) noexcept SPINDLE_REALTIME {
  count_ = std::min<int>(r.shaperCount, kMaxShaperStages);
  modulated_ = false;
  if (count_ == 0) return;
  stereo_ = stereo;
  const mod::RegionMods& m = mod.info();
  for (int i = 0; i < count_; ++i) {
    stages_[static_cast<size_t>(i)] = r.shapers[static_cast<size_t>(i)];
    for (int p = 0; p < 4; ++p)
      modulated_ = modulated_ || m.touches(static_cast<ModTarget>(static_cast<int>(firstTarget(i)) + p));
  }
  if (modulated_) update(r, mod);
}

void VoiceShapers::update(const Region& r, const mod::VoiceMod& mod) noexcept SPINDLE_REALTIME {
  for (int i = 0; i < count_; ++i) {
    const ShaperStage& base = r.shapers[static_cast<size_t>(i)];
    ShaperStage& stage = stages_[static_cast<size_t>(i)];
    const auto sum = [&](int p) noexcept SPINDLE_REALTIME {
      return mod.sum(static_cast<ModTarget>(static_cast<int>(firstTarget(i)) + p));
    };
    stage.drive = base.drive + sum(0);
    stage.threshold = base.threshold + sum(1);
    stage.driveBoost = base.driveBoost + sum(2);
    stage.outputLevel = base.outputLevel + sum(3);
  }
}

void VoiceShapers::run(float* left, float* right, int frames) const noexcept SPINDLE_REALTIME {
  for (int i = 0; i < count_; ++i) {
    const ShaperStage& stage = stages_[static_cast<size_t>(i)];
    dsp::applyShaper(stage, left, frames);
    if (stereo_) dsp::applyShaper(stage, right, frames);
  }
}

}  // namespace spindle::engine
