#pragma once
// An instrument as a loader hands it over, whatever the format it was read from (SFZ,
// SoundFont, DecentSampler, Hydrogen): regions with inheritance applied and values
// clamped, the sample table they index, and everything the loader had to say. Every
// loader fills this one model; src/formats turns it into the engine's Program.
//
// Built on the loader thread, then read-only; the engine sees only its regions (through
// the loader), never this struct while it is being built.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/BusEffects.h"
#include "core/Controllers.h"
#include "core/Preset.h"
#include "core/Region.h"
#include "instrument/Curves.h"
#include "instrument/Diagnostic.h"

namespace spindle::instrument {

// Where a region was defined: an SFZ <region> header's file and line, or the file (line
// 0) of a format without lines.
struct RegionOrigin {
  std::string file;
  int line;
  // The region's name for the player: its global_label, master_label, group_label and
  // region_label, outermost first, joined with " / "; a SoundFont preset's name; empty
  // when none is set.
  std::string label = {};
};

// An SFZ <effect> or <midi> block, kept as written (the <effect> blocks are played
// through Instrument::buses; <midi> blocks are not played).
struct EffectBlock {
  std::string header;  // "effect" or "midi"
  std::string file;
  int line;
  std::vector<std::pair<std::string, std::string>> opcodes;  // name, value; file order
};

struct OutputLabel {
  int output = 0;  // 0..1024, as the output opcode
  std::string label;
};

struct Instrument {
  bool ok = false;                  // false: the file itself was unreadable (diagnostics say why)
  std::string name;                 // file stem
  std::filesystem::path path;       // the file read (.sfz, .sf2, .dspreset, drumkit.xml)
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
  std::vector<std::string> unknownOpcodes;  // SFZ: unique names unknown to the SFZ reference
  std::vector<Curve> curves;                // <curve> headers in file order, or generated
  int swDefault = -1;                       // sw_default seen anywhere (instrument-wide)
  // Where controllers start: SFZ's set_cc/set_hdcc/set_realcc (<control> or any header),
  // a DecentSampler control's initial position; the last value per controller.
  std::vector<controllers::ControllerDefault> controllerDefaults;
  // SFZ's label_cc, label_key and sw_label, a DecentSampler control's label; one entry
  // per controller or key (the last wins).
  std::vector<controllers::ControllerLabel> controllerLabels;
  std::vector<controllers::KeyLabel> keyLabels;
  // label_outputN (Calfbox): output N's name for the player, one entry per N (the last
  // wins). N is the region opcode output's number.
  std::vector<OutputLabel> outputLabels;
  std::vector<EffectBlock> effects;  // <effect> and <midi> headers, in file order
  BusLayout buses;  // the <effect> blocks Spindle plays (core/BusEffects.h)
  std::vector<spindle::Preset> presets;  // SoundFont presets; empty for every other format

  bool isReversed(std::size_t sample) const {
    return std::binary_search(reversedSamples.begin(), reversedSamples.end(), static_cast<int32_t>(sample));
  }
};

}  // namespace spindle::instrument
