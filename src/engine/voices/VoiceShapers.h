#pragma once
// VoiceShapers: a voice's shaper stages (Region::shapers: DecentSampler's group
// wave_folder and wave_shaper), the curves of dsp/Shaper.h run in order on the voice's
// own signal. Controllers move each stage's drive, threshold, driveBoost and
// outputLevel (ModTarget::Shaper1Drive...), added to the region's values at control
// rate. A voice whose region has no stage does nothing here. Audio thread only; a
// member of Voice.
#include <array>

#include "core/Realtime.h"
#include "core/Region.h"
#include "engine/mod/VoiceMod.h"

namespace spindle::engine {

class VoiceShapers {
 public:
  void setup(const Region& r, const mod::VoiceMod& mod, bool stereo) noexcept SPINDLE_REALTIME;
  // Control rate: the parameters controllers move.
  void followModulation(const Region& r, const mod::VoiceMod& mod) noexcept SPINDLE_REALTIME {
    if (modulated_) update(r, mod);
  }
  // A mono voice's right channel holds nothing yet: only the left is shaped.
  void process(float* left, float* right, int frames) const noexcept SPINDLE_REALTIME {
    if (count_ > 0) run(left, right, frames);
  }

 private:
  void update(const Region& r, const mod::VoiceMod& mod) noexcept SPINDLE_REALTIME;
  void run(float* left, float* right, int frames) const noexcept SPINDLE_REALTIME;

  std::array<ShaperStage, kMaxShaperStages> stages_{};
  int count_ = 0;
  bool modulated_ = false, stereo_ = false;
};

}  // namespace spindle::engine
