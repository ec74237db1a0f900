#include "engine/Program.h"

#include <algorithm>

namespace spindle::engine {

void Program::prepare() {
  for (auto& list : regionsByKey) list.clear();
  isKeyswitch.fill(false);
  defaultKeyswitch = swDefault;
  for (uint32_t i = 0; i < regions.size(); ++i) {
    const Region& r = regions[i];
    for (int key = r.lokey; key <= r.hikey && key < 128; ++key) regionsByKey[key].push_back(i);
    if (r.swLast >= 0 && r.swLast < 128) {
      isKeyswitch[static_cast<size_t>(r.swLast)] = true;
      const bool narrowed = r.swLokey > 0 || r.swHikey < 127;
      if (narrowed) {
        for (int key = std::max<int>(0, r.swLokey); key <= std::min<int>(127, r.swHikey); ++key) {
          isKeyswitch[static_cast<size_t>(key)] = true;
        }
      }
    }
    if (defaultKeyswitch < 0 && r.swDefault >= 0) defaultKeyswitch = r.swDefault;
  }
}

}  // namespace spindle::engine
