#pragma once
// An SFZ instrument as the parser hands it over: regions with inheritance applied and
// values clamped, the sample table they index, and everything the parser had to say.
//
// Built on the loader thread, then read-only; the engine sees only its regions (through
// the loader), never this struct while it is being built.
#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/Controllers.h"
#include "core/Preset.h"
#include "core/Region.h"

namespace spindle::sfz {

struct Diagnostic {
  enum class Severity { Warning, Error } severity;
  std::string file;  // the .sfz (or included file) the message is about
  int line;          // 1-based; 0 = the file as a whole
  std::string message;
};

// Where a region's <region> header was written.
struct RegionOrigin {
  std::string file;
  int line;
  // The region's name for the player: its global_label, master_label, group_label and
  // region_label, outermost first, joined with " / "; empty when none is set.
  std::string label = {};
};

// An <effect> or <midi> block, kept as written for the effects work (not played yet).
struct EffectBlock {
  std::string header;  // "effect" or "midi"
  std::string file;
  int line;
  std::vector<std::pair<std::string, std::string>> opcodes;  // name, value; file order
};

// A <curve> (curve_index=N, v000..v127): 128 points, given ones linearly interpolated,
// v000=0 and v127=1 unless given.
struct Curve {
  int index = 0;
  std::array<float, 128> points{};
};

struct OutputLabel {
  int output = 0;  // 0..1024, as the output opcode
  std::string label;
};

struct Instrument {
  bool ok = false;                  // false: the file itself was unreadable (diagnostics say why)
  std::string name;                 // file stem
  std::filesystem::path path;       // the .sfz
  std::vector<spindle::Region> regions;  // inheritance applied, values clamped
  std::vector<RegionOrigin> origins;     // parallel to regions
  // Unique sample table; Region::sampleIndex indexes it. Absolute resolved paths (the
  // case-insensitive match when the written case was wrong), or generator names
  // ("*sine", "*silence", "*noise"...) verbatim. Missing samples stay in the table (their
  // regions are kept, so region numbering follows the file) and are listed below.
  std::vector<std::string> samples;
  std::vector<std::string> missingSamples;  // each unresolvable sample once, absolute path
  // Entries of `samples` that regions play backwards (direction=reverse, reverse_loccN):
  // each has the path of a forward entry and is loaded whole into RAM with its frames
  // reversed (frame i = the file's frame total-1-i, its smpl loop mirrored), never
  // streamed. Ascending.
  std::vector<int32_t> reversedSamples;
  std::vector<Diagnostic> diagnostics;
  std::vector<std::string> unknownOpcodes;  // unique names unknown to the SFZ reference
  std::vector<Curve> curves;                // <curve> headers, in file order
  int swDefault = -1;                       // sw_default seen anywhere (instrument-wide)
  // set_cc/set_hdcc/set_realcc (<control> or any header), the last value per controller.
  std::vector<controllers::ControllerDefault> controllerDefaults;
  // label_cc, label_key and sw_label, one entry per controller or key (the last wins).
  std::vector<controllers::ControllerLabel> controllerLabels;
  std::vector<controllers::KeyLabel> keyLabels;
  // label_outputN (Calfbox): output N's name for the player, one entry per N (the last
  // wins). N is the region opcode output's number.
  std::vector<OutputLabel> outputLabels;
  std::vector<EffectBlock> effects;  // <effect> and <midi> headers, in file order
  std::vector<spindle::Preset> presets;  // SoundFont presets; empty for every other format

  bool isReversed(std::size_t sample) const {
    return std::binary_search(reversedSamples.begin(), reversedSamples.end(), static_cast<int32_t>(sample));
  }
};

}  // namespace spindle::sfz
