#pragma once
// A DecentSampler preset's instrument-level <effects> as the part's main-bus effects
// (core/BusEffects.h), in file order; dspreset/EffectKinds.h says how each type plays.
// What is not played is reported once per preset with the reason. Loader thread.
#include <filesystem>
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "dspreset/EffectKinds.h"
#include "instrument/Instrument.h"
#include "instrument/Reporter.h"

namespace spindle::dspreset {

// Each <effect> of <effects>, by its index there (effectIndex / position in bindings).
struct EffectSlot {
  int bus = -1;  // its index in Instrument::buses.effects; -1: not played
  const EffectKind* kind = nullptr;
  bool linear = false;  // a gain's levelUnit is linear
  std::vector<float> base;  // each attribute's value as the effect loads (applyAttributes)
  std::vector<std::string> tags;
};

// folder: the preset's, which a convolution's irFile is relative to.
std::vector<EffectSlot> readInstrumentEffects(const pugi::xml_node& root, const std::filesystem::path& folder,
                                              instrument::Instrument& out, instrument::Reporter& report);

// The slots a binding names: by index, or every slot carrying one of `tags`.
std::vector<const EffectSlot*> slotsNamed(const std::vector<EffectSlot>& slots, int index,
                                          const std::vector<std::string>& tags);

}  // namespace spindle::dspreset
