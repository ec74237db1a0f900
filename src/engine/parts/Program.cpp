#include "engine/parts/Program.h"

#include <algorithm>


namespace spindle::engine {

void Program::prepare() {
  for (auto& list : regionsByKey) list.clear();
  isKeyswitch.fill(false);
  defaultKeyswitch = swDefault;
  prepareControllers();
  for (uint32_t i = 0; i < regions.size(); ++i) {
    const Region& r = regions[i];
    if (!r.ccTriggers.empty()) ccTriggered.push_back(i);
    for (int key = r.lokey; key <= r.hikey && key < 128 && r.ccTriggers.empty(); ++key) regionsByKey[key].push_back(i);
    markKeyswitches(r);
    if (defaultKeyswitch < 0 && r.swDefault >= 0) defaultKeyswitch = r.swDefault;
  }
  publishedControllers.clear();
  for (const controllers::ControllerLabel& label : controllerLabels) {
    const auto cc = static_cast<uint16_t>(label.cc);
    const bool known = std::find(publishedControllers.begin(), publishedControllers.end(), cc) != publishedControllers.end();
    if (label.cc >= 0 && label.cc < controllers::kCount && !known) publishedControllers.push_back(cc);
  }
  modulation.build(regions, curves);
  buses = busLayout.used() ? std::make_shared<ProgramBuses>(busLayout, curves) : nullptr;
  preparePresets();
}

void Program::preparePresets() {
  presetMap.clear();
  if (presets.empty()) return;
  const auto at = [](int bank, int program) { return static_cast<std::size_t>(bank * 128 + program); };
  std::vector<int16_t> exact(129 * 128, -1);  // the first preset of each bank and program
  for (std::size_t i = presets.size(); i-- > 0;) {
    const Preset& p = presets[i];
    if (p.bank <= 128 && p.program < 128) exact[at(p.bank, p.program)] = static_cast<int16_t>(i);
  }
  presetMap.assign(exact.size(), 0);
  for (int bank = 0; bank <= 128; ++bank) {
    const int fallback = bank == 128 ? 128 : 0;
    for (int program = 0; program < 128; ++program) {
      int16_t found = exact[at(bank, program)];
      if (found < 0) found = exact[at(fallback, program)];
      if (found < 0) found = exact[at(fallback, 0)];
      presetMap[at(bank, program)] = std::max<int16_t>(found, 0);
    }
  }
}

// sw_last's key, every key of sw_lolast..sw_hilast, and for such a region the whole
// sw_lokey..sw_hikey range when it narrows 0..127.
void Program::markKeyswitches(const Region& r) {
  const auto mark = [this](int lo, int hi) {
    for (int key = std::max(0, lo); key <= std::min(127, hi); ++key) isKeyswitch[static_cast<size_t>(key)] = true;
  };
  const bool last = r.swLast >= 0 && r.swLast < 128;
  const bool lastRange = r.swLolast >= 0 && r.swLolast < 128;
  if (last) mark(r.swLast, r.swLast);
  if (lastRange) mark(r.swLolast, r.swHilast);
  const bool narrowed = r.swLokey > 0 || r.swHikey < 127;
  if ((last || lastRange) && narrowed) mark(r.swLokey, r.swHikey);
}

void Program::prepareControllers() {
  ccTriggered.clear();
  highResolutionCc.fill(false);
  pedalCc.fill(false);
  for (const controllers::ControllerDefault& d : controllerDefaults) {
    if (d.highResolution && d.cc >= 0 && d.cc < 32) highResolutionCc[static_cast<size_t>(d.cc)] = true;
  }
  for (const Region& r : regions) {
    if (r.sustainCc < controllers::kCount) pedalCc[r.sustainCc] = true;
    if (r.sostenutoCc < controllers::kCount) pedalCc[r.sostenutoCc] = true;
  }
  if (!regions.empty()) {
    sustainCc = regions.front().sustainCc;
    sustainLo = regions.front().sustainLo;
  }
  pedalCc[static_cast<size_t>(sustainCc)] = true;
}

}  // namespace spindle::engine
