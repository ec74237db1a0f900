// fuzz_xml_instrument: the DecentSampler and Hydrogen loaders on any XML, through the
// scratch folder (they read files and resolve sample paths against it).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ScratchDir.h"
#include "dspreset/DecentSampler.h"
#include "hydrogen/DrumKit.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using spindle::fuzz::scratch;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  spindle::dspreset::loadPreset(scratch().write("preset.dspreset", bytes));
  spindle::hydrogen::loadDrumKit(scratch().write("drumkit.xml", bytes));
  return 0;
}
