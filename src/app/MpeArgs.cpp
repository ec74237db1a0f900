#include "app/MpeArgs.h"

#include <charconv>
#include <sstream>

namespace spindle::app {

namespace {

// "lower", "lower=N" (N 1..15) into zones; false when it is neither zone or N is wrong.
bool applyZone(const std::string& item, MpeZones& zones) {
  const auto eq = item.find('=');
  const std::string name = item.substr(0, eq);
  int members = 15;
  if (eq != std::string::npos) {
    const char* first = item.data() + eq + 1;
    const char* last = item.data() + item.size();
    const auto [end, ec] = std::from_chars(first, last, members);
    if (ec != std::errc() || end != last || members < 1 || members > 15) return false;
  }
  if (name == "lower") zones.lower = members;
  else if (name == "upper") zones.upper = members;
  else return false;
  return true;
}

}  // namespace

std::optional<MpeZones> parseMpeArg(const std::string& text) {
  MpeZones zones;
  if (text == "off") return zones;
  std::istringstream in(text);
  std::string item;
  int items = 0;
  while (std::getline(in, item, ',')) {
    if (!applyZone(item, zones)) return std::nullopt;
    ++items;
  }
  if (items == 0 || items > 2) return std::nullopt;
  if (zones.lower > 0 && zones.upper > 0 && zones.lower + zones.upper > 14) return std::nullopt;
  return zones;
}

}  // namespace spindle::app
