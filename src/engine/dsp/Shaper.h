#pragma once
// The wave folder and wave shaper curves (Spindle's own; DecentSampler's guide gives only
// their parameters), stateless and applied to each frame in place. The instrument bus
// effects (engine/effects/Simple.h) and a voice's own shaper stages (Region::shapers) both
// run them through applyShaper, so the two places sound the same.
//
//   Folder:  v = drive * x, folded back at +-threshold as a triangle wave of period
//            4 threshold: y = threshold - |((v + threshold) mod 4 threshold) - 2 threshold|,
//            so |y| <= threshold and y = v while |v| <= threshold; threshold <= 0: silence.
//   Shaper:  y = outputLevel * tanh(drive * (1 + driveBoost) * x).
// drive, threshold and outputLevel are taken as at least 0, driveBoost within 0..1.
// Both add odd harmonics of a sine that grow with the drive.
#include "core/Realtime.h"
#include "core/Region.h"

namespace spindle::engine::dsp {

float fold(float v, float threshold) noexcept SPINDLE_REALTIME;
void applyShaper(const ShaperStage& stage, float* x, int frames) noexcept SPINDLE_REALTIME;

}  // namespace spindle::engine::dsp
