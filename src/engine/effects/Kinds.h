#pragma once
// Kinds: every bus effect kind, registered once. A BusEffectState holds the one kind its
// effect's type runs (EffectProcessor) and reaches it through visitKind(); makeKind()
// is the registration: the type each kind runs. A new kind is a class of EffectKind.h's
// shape in its own file, an alternative here and a line in makeKind (Kinds.cpp).
#include <cstddef>
#include <type_traits>
#include <utility>
#include <variant>

#include "core/BusEffects.h"
#include "engine/effects/AutoPan.h"
#include "engine/effects/Chorus.h"
#include "engine/effects/Convolution.h"
#include "engine/effects/Delay.h"
#include "engine/effects/Dynamics.h"
#include "engine/effects/FilterEffect.h"
#include "engine/effects/Phaser.h"
#include "engine/effects/Reverb.h"
#include "engine/effects/Simple.h"

namespace spindle::engine {

using EffectProcessor =
    std::variant<std::monostate, GainEffect, RectifyEffect, WidthEffect, ShaperEffect, FilterEffect, AutoPan, Delay,
                 Phaser, Reverb, Chorus, LofiEffect, DistoEffect, CompEffect, GateEffect, LimiterEffect, Convolution>;

// Loader thread: the kind of `type` into `processor`.
void makeKind(EffectProcessor& processor, BusEffectType type);

// Calls f(kind) with the kind `processor` holds (nothing for none). No exception, no
// allocation: real-time wherever f is.
template <class Processor, class F>
void visitKind(Processor& processor, F&& f) noexcept {
  const auto one = [&]<size_t I>(std::integral_constant<size_t, I>) noexcept {
    if constexpr (I > 0) {
      if (processor.index() == I) f(*std::get_if<I>(&processor));
    }
  };
  [&]<size_t... I>(std::index_sequence<I...>) noexcept {
    (one(std::integral_constant<size_t, I>{}), ...);
  }(std::make_index_sequence<std::variant_size_v<std::remove_const_t<Processor>>>{});
}

}  // namespace spindle::engine
