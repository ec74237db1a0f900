// BusEffectState: the effects with memory (delay, phaser, reverb, convolution, chorus): their sizing on the
// loader thread, their start and coefficients, and how long their tails last.
#include "engine/effects/BusEffectState.h"

namespace spindle::engine {

void BusEffectState::allocate(const BusEffect& effect, const BusEffectState* first, const mod::CurveTable* curves) {
  curves_ = curves;
  dynamics_.prepare(effect.type);
  if (effect.type == BusEffectType::Delay) delay_.allocate(effect);
  if (effect.type == BusEffectType::Reverb) reverb_.allocate(effect);
  if (effect.type == BusEffectType::Convolution) convolution_.allocate(effect, first ? &first->convolution_ : nullptr);
  if (effect.type == BusEffectType::Chorus) chorus_.allocate();
}

int BusEffectState::memoryFrames(const BusEffect& effect) const noexcept SPINDLE_REALTIME {
  switch (effect.type) {
    case BusEffectType::Delay: return delay_.memoryFrames();
    case BusEffectType::Phaser: return phaser_.memoryFrames();
    case BusEffectType::Reverb: return reverb_.memoryFrames();
    case BusEffectType::Convolution: return convolution_.memoryFrames();
    case BusEffectType::Chorus: return chorus_.memoryFrames();
    case BusEffectType::ModPhaser: return modPhaser_.memoryFrames();
    default: return 0;
  }
}

void BusEffectState::startTail(const BusEffect& effect, double sampleRate) noexcept SPINDLE_REALTIME {
  if (effect.type == BusEffectType::Delay) delay_.start(effect, sampleRate);
  if (effect.type == BusEffectType::Phaser) phaser_.start(sampleRate);
  if (effect.type == BusEffectType::Reverb) reverb_.start(sampleRate);
  if (effect.type == BusEffectType::Convolution) convolution_.start();
  if (effect.type == BusEffectType::Chorus) chorus_.start(sampleRate);
  if (effect.type == BusEffectType::ModPhaser) modPhaser_.start(sampleRate);
}

void BusEffectState::tailCoefficients(const BusEffect& effect) noexcept SPINDLE_REALTIME {
  if (effect.type == BusEffectType::Delay) delay_.setFilter(current_);
  if (effect.type == BusEffectType::Reverb) reverb_.configure(effect, current_);
}

}  // namespace spindle::engine
