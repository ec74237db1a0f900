#pragma once
// DecentSampler's convolution effect, <effect type="convolution" mix="0.5" irFile="..."/>,
// read into a bus effect (core/BusEffects.h, BusEffectType::Convolution) on the main
// bus. Loader thread. formats reads the response's frames (formats/ImpulseResponses.h).
//
//   mix     0..1, the convolved share of the output (0.5 when not written; a value
//           outside 0..1 is clamped, with a warning)
//   irFile  a WAV or AIFF path relative to the preset's folder (backslashes and a case
//           that differs from the disk's are accepted, as for samples)
#include <filesystem>
#include <optional>
#include <string>

#include <pugixml.hpp>

#include "core/BusEffects.h"
#include "instrument/Instrument.h"
#include "instrument/Reporter.h"

namespace spindle::dspreset {

// The effect `effect` describes; nullopt, with an error naming `presetFile` and the
// response's path, when irFile is missing or names no file.
std::optional<BusEffect> convolutionEffect(const pugi::xml_node& effect, const std::filesystem::path& presetFolder,
                                           const std::string& presetFile, instrument::Reporter& report);

}  // namespace spindle::dspreset
