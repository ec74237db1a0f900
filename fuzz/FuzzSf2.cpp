// fuzz_sf2: the SoundFont reader on any bytes. It must refuse what lies (sizes, indices)
// with an error and never read outside the input.
#include <cstddef>
#include <cstdint>
#include <span>

#include "sf2/SoundFont.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto result = spindle::sf2::readSoundFont(std::span<const uint8_t>(data, size), "fuzz.sf2");
  if (result.font) {
    // Touch what a loader would walk: every zone of every preset and instrument.
    size_t zones = 0;
    for (const auto& p : result.font->presets) zones += p.zones.size() + (p.global ? 1 : 0);
    for (const auto& i : result.font->instruments) zones += i.zones.size() + (i.global ? 1 : 0);
    if (zones > size) __builtin_trap();  // every zone takes bytes of the input
  }
  return 0;
}
