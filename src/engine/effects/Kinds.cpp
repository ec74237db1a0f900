#include "engine/effects/Kinds.h"

namespace spindle::engine {

void makeKind(EffectProcessor& processor, BusEffectType type) {
  using T = BusEffectType;
  switch (type) {
    case T::Gain: processor.emplace<GainEffect>(); break;
    case T::Rectify: processor.emplace<RectifyEffect>(); break;
    case T::Width: processor.emplace<WidthEffect>(); break;
    case T::WaveFolder:
    case T::WaveShaper: processor.emplace<ShaperEffect>(); break;
    case T::Eq:
    case T::Filter: processor.emplace<FilterEffect>(); break;
    case T::Apan: processor.emplace<AutoPan>(); break;
    case T::Delay: processor.emplace<Delay>(); break;
    case T::Phaser:
    case T::ModPhaser: processor.emplace<Phaser>(); break;
    case T::Reverb: processor.emplace<Reverb>(); break;
    case T::Chorus: processor.emplace<Chorus>(); break;
    case T::Lofi: processor.emplace<LofiEffect>(); break;
    case T::Disto: processor.emplace<DistoEffect>(); break;
    case T::Comp: processor.emplace<CompEffect>(); break;
    case T::Gate: processor.emplace<GateEffect>(); break;
    case T::Limiter: processor.emplace<LimiterEffect>(); break;
    case T::Convolution: processor.emplace<Convolution>(); break;
    default: processor.emplace<std::monostate>(); break;
  }
}

}  // namespace spindle::engine
