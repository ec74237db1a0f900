#pragma once
// The names an instrument gives its controls, keys and headers, for the player (GUI,
// OSC, the problems list). Loader thread only, fed by the Parser.
//
//   label_ccN=Name    -> Instrument::controllerLabels (N < 512; the last one per N wins)
//   label_keyN=Name   -> Instrument::keyLabels, keyswitch=false (N a MIDI note)
//   label_outputN=Name -> Instrument::outputLabels (N <= 1024; the last one per N wins)
//   sw_label=Name     -> Instrument::keyLabels, keyswitch=true, for the key of the
//                        region's sw_last (inherited like any opcode; regions without
//                        sw_last give no label)
//   global_label, master_label, group_label, region_label
//                     -> RegionOrigin::label of each region below them: the labels set,
//                        outermost first, joined with " / " ("Kit / Snare / rim")
#include <array>
#include <string>

#include "core/Region.h"
#include "instrument/Instrument.h"
#include "instrument/Reporter.h"
#include "sfz/Preprocessor.h"

namespace spindle::sfz {

enum class LabelScope { Control, Global, Master, Group, Region };

class LabelReader {
 public:
  LabelReader(instrument::Instrument& instrument, instrument::Reporter& reporter)
      : inst_(instrument), reporter_(reporter) {}

  // A new header: forgets the header labels of its level and the levels below it.
  void enter(LabelScope scope);
  // True when the token is a label opcode (read here; the Parser skips it).
  bool take(const Token& token, LabelScope scope);
  // At a region's end: its display name, and its keyswitch label added to keyLabels.
  std::string finishRegion(const Region& region);

 private:
  void setControllerLabel(const Token& token, int cc);
  void setOutputLabel(const Token& token, int output);
  void setKeyLabel(int key, const std::string& label, bool keyswitch);

  instrument::Instrument& inst_;
  instrument::Reporter& reporter_;
  // Indexed by LabelScope - 1 (global, master, group, region).
  std::array<std::string, 4> headerLabels_, swLabels_;
};

}  // namespace spindle::sfz
