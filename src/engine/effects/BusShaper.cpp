#include "engine/effects/BusShaper.h"

#include "engine/effects/BusMemory.h"
#include "engine/dsp/Shaper.h"

namespace spindle::engine {

void BusShaper::process(BusEffectType type, const Params& p, float* left, float* right, int frames) noexcept
    SPINDLE_REALTIME {
  ShaperStage stage;
  stage.type = type == BusEffectType::WaveFolder ? ShaperType::Folder : ShaperType::Shaper;
  stage.drive = busParam(p, BusParam::Drive);
  stage.threshold = busParam(p, BusParam::Threshold);
  stage.driveBoost = busParam(p, BusParam::DriveBoost);
  stage.outputLevel = busParam(p, BusParam::OutputLevel);
  dsp::applyShaper(stage, left, frames);
  dsp::applyShaper(stage, right, frames);
}

}  // namespace spindle::engine
