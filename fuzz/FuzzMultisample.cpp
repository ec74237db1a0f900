// fuzz_multisample: the multisample loader on any text as multisample.xml, its sample
// paths resolved against the scratch folder.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ScratchDir.h"
#include "multisample/Multisample.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  spindle::multisample::loadMultisampleText(bytes, spindle::fuzz::scratch().path() / "multisample.xml");
  return 0;
}
