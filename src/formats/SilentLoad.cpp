#include "formats/SilentLoad.h"

namespace spindle::formats {

void refuseEmpty(instrument::Instrument& in) {
  if (!in.ok || !in.regions.empty()) return;
  in.ok = false;
  in.diagnostics.push_back({instrument::Diagnostic::Severity::Error, in.path.string(), 0,
                            "no playable region: nothing in this instrument would sound"});
}

std::string noSampleLoaded(std::size_t referenced, std::size_t loaded) {
  if (referenced == 0 || loaded > 0) return {};
  return "none of its " + std::to_string(referenced) + (referenced == 1 ? " sample" : " samples") +
         " could be loaded: nothing would sound";
}

}  // namespace spindle::formats
