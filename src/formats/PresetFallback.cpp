#include "formats/PresetFallback.h"

namespace spindle::formats {

std::string percussionFallback(const engine::Program& program) {
  int fallbacks = 0, target = -1;
  for (int p = 0; p < 128; ++p) {
    const int preset = program.presetFor(128, p);
    if (preset < 0 || static_cast<size_t>(preset) >= program.presets.size()) continue;
    if (program.presets[static_cast<size_t>(preset)].bank == 128) continue;
    ++fallbacks;
    target = preset;
  }
  if (fallbacks == 0) return {};
  const Preset& to = program.presets[static_cast<size_t>(target)];
  const std::string plays = ": MIDI channel 10 plays '" + to.name + "' (bank " + std::to_string(to.bank) + ", program " +
                            std::to_string(to.program) + "), the file's first preset";
  if (fallbacks == 128) return "no percussion preset (bank 128)" + plays;
  return "no percussion preset (bank 128) for " + std::to_string(fallbacks) + " of its 128 programs" + plays +
         ", for those";
}

}  // namespace spindle::formats
