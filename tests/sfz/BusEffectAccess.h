#pragma once
// What the <effect> reader tests read back from a bus effect: a parameter's value and
// whether a controller moves it.
#include <cstddef>

#include "core/BusEffects.h"

namespace spindle::test {

inline float value(const BusEffect& e, BusParam p) { return e.values[static_cast<size_t>(p)]; }

inline bool hasControl(const BusEffect& e, BusParam p, int cc, float depth) {
  for (const BusParamCc& c : e.controllers)
    if (c.param == p && c.cc == cc && c.depth == depth) return true;
  return false;
}

}  // namespace spindle::test
