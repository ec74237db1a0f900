#include "dspreset/Translation.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace spindle::dspreset {

Translation::Translation(const pugi::xml_node& binding) {
  const pugi::xml_node& b = binding;
  const std::string written = b.attribute("translation").as_string("linear");
  if (written == "fixed_value") {
    kind = Kind::Fixed;
    fixed = b.attribute("translationValue").as_string();
  } else if (written == "table") {
    kind = Kind::Table;
    const std::string text = b.attribute("translationTable").as_string("0,0;1,1");
    for (size_t at = 0; at < text.size();) {
      const size_t end = std::min(text.find(';', at), text.size());
      const std::string pair = text.substr(at, end - at);
      const size_t comma = pair.find(',');
      if (comma != std::string::npos)
        table.push_back({std::atof(pair.substr(0, comma).c_str()), std::atof(pair.substr(comma + 1).c_str())});
      at = end + 1;
    }
    std::sort(table.begin(), table.end());
  } else {
    scaled = b.attribute("translationOutputMin") || b.attribute("translationOutputMax");
    outMin = b.attribute("translationOutputMin").as_double(0.0);
    outMax = b.attribute("translationOutputMax").as_double(1.0);
    reversed = b.attribute("translationReversed").as_bool(false);
  }
}

double Translation::number(double value, double lo, double hi) const {
  if (kind == Kind::Fixed) return std::atof(fixed.c_str());
  double out = value;
  if (kind == Kind::Table) {
    out = curveAt(table, value);
  } else if (scaled) {
    double norm = hi > lo ? (value - lo) / (hi - lo) : 0.0;
    if (reversed) norm = 1.0 - norm;
    out = outMin + (outMax - outMin) * norm;
  }
  return out;
}

std::string Translation::at(double value, double lo, double hi) const {
  if (kind == Kind::Fixed) return fixed;
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", number(value, lo, hi));
  return text;
}

}  // namespace spindle::dspreset
