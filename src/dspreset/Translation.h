#pragma once
// A DecentSampler binding's translation of a value (a control's, in its own range
// [lo, hi], or a modulator's in 0..1): fixed_value, linear (with translationOutputMin/
// Max and translationReversed; without them the value passes through) or table
// (translationTable "x,y;x,y...", linear between its points, held beyond them: core/Curve.h).
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "core/Curve.h"

namespace spindle::dspreset {

struct Translation {
  enum class Kind { Fixed, Linear, Table } kind = Kind::Linear;
  std::string fixed;
  bool scaled = false;  // linear with translationOutputMin/Max: else the input passes through
  double outMin = 0.0, outMax = 1.0;
  bool reversed = false;
  std::vector<CurvePoint> table;

  explicit Translation(const pugi::xml_node& binding);
  // The translated value, as text (a fixed_value as written).
  std::string at(double value, double lo, double hi) const;
  // The same as a number (a fixed_value that is not a number reads as 0).
  double number(double value, double lo, double hi) const;
};

}  // namespace spindle::dspreset
