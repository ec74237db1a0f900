#pragma once
// Builds one Region from the opcodes of its header levels (global, master, group,
// region), applied in that order, each level in file order: a later opcode wins.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/Region.h"
#include "sfz/Curves.h"
#include "sfz/OpcodeTable.h"

namespace spindle::sfz {

// An opcode whose value has been parsed and clamped, ready to apply.
struct ParsedOpcode {
  const OpcodeSpec* spec;
  int index;      // N of loccN / amp_velcurve_N, else -1
  double number;  // value; the sample table index for `sample`; -1 for "no key" / "sample"
  int lfo = 0;    // the N of lfoN_*, else 0
  int eg = 0;     // the N of egN_*, else 0
  int sub = 0;    // a number inside the name (OpcodeMatch::sub)
};

class RegionBuilder {
 public:
  void apply(const ParsedOpcode& op);

  // The finished region, or nullopt with the reason it cannot play in `whySkipped`.
  // `notes` receives remarks about a region that is kept (empty when none).
  std::optional<Region> finish(std::string& whySkipped, std::string& notes);

 private:
  void applySpecial(Special which, const ParsedOpcode& op);
  void applyControllerSpecial(Special which, const ParsedOpcode& op);
  static void setCcBound(std::vector<CcCondition>& list, int cc, bool high, float value);
  void applyModulation(const ModField& field, const ParsedOpcode& op);
  CcModulation* modulation(int cc, ModTarget target, int lfoNumber, int egNumber, int sub);
  FlexLfo* flexLfo(int number);  // the region's lfoN, added on first mention
  FlexEg* flexEg(int number);    // the region's egN, likewise
  CcCrossfade* crossfade(int cc, bool fadeOut);

  Region region_;
  CurvePoints velcurve_;
  bool hasSample_ = false;
  bool noKey_ = false;
  // global_/master_/group_ levels, indexed 0 global, 1 master, 2 group. They combine
  // with the region's own volume (dB, added), amplitude (percent, multiplied) and tune
  // (cents, added) in finish(): a header level never replaces the region's value.
  std::array<float, 3> levelVolume_{}, levelTune_{};
  std::array<float, 3> levelAmplitude_{100.0f, 100.0f, 100.0f};
  bool modOverflow_ = false, lfoOverflow_ = false;
};

}  // namespace spindle::sfz
