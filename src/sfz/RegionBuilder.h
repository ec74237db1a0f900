#pragma once
// Builds one Region from the opcodes of its header levels (global, master, group,
// region), applied in that order, each level in file order: a later opcode wins.
// Applying opcodes: RegionBuilder.cpp; finishing the region: RegionFinish.cpp.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/Region.h"
#include "instrument/Curves.h"
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
  int var = 0;    // the NN of varNN_*, else 0
};

// A polyphony group's limit is its number's: a region of group N with no polyphony of
// its own takes the last one another region of group N was given (as sfizz).
void shareGroupPolyphony(std::vector<Region>& regions);

class RegionBuilder {
 public:
  // blocks: the <master> and <group> header the region is under (Region::masterBlock,
  // groupBlock); any numbers, the same for the regions of one header.
  RegionBuilder(uint32_t masterBlock = 0, uint32_t groupBlock = 0);
  // The header level of the opcodes applied next: 0 global, 1 master, 2 group, 3 region.
  void enterLevel(size_t level) { level_ = level < 3 ? level : 3; }
  void apply(const ParsedOpcode& op);

  // The finished region, or nullopt with the reason it cannot play in `whySkipped`.
  // `notes` receives remarks about a region that is kept (empty when none).
  std::optional<Region> finish(std::string& whySkipped, std::string& notes);

 private:
  void applySpecial(Special which, const ParsedOpcode& op);
  bool applyMappingSpecial(Special which, const ParsedOpcode& op);
  bool applyModeSpecial(Special which, double v);
  bool applyLevelSpecial(Special which, double v);
  void applyControllerSpecial(Special which, const ParsedOpcode& op);
  static void setCcBound(std::vector<CcCondition>& list, int cc, bool high, float value);
  void applyModulation(const ModField& field, const ParsedOpcode& op);
  void applyFlexLfo(const FlexLfoField& f, const ParsedOpcode& op);  // lfoN_*
  void applyFlexEg(const FlexEgField& f, const ParsedOpcode& op);     // egN_*
  void applyVariable(const VariableField& f, const ParsedOpcode& op);  // varNN_*
  CcModulation* modulation(int cc, ModTarget target, int lfoNumber, int egNumber, int sub);
  FlexLfo* flexLfo(int number);  // the region's lfoN, added on first mention
  FlexEg* flexEg(int number);    // the region's egN, likewise
  ModVariable* variable(int number);  // the region's varNN, likewise
  CcCrossfade* crossfade(int cc, bool fadeOut);

  Region region_;
  instrument::CurvePoints velcurve_;
  bool hasSample_ = false;
  bool noKey_ = false;
  // global_/master_/group_ levels, indexed 0 global, 1 master, 2 group. They combine
  // with the region's own volume (dB, added), amplitude (percent, multiplied) and tune
  // (cents, added) in finish(): a header level never replaces the region's value.
  std::array<float, 3> levelVolume_{}, levelTune_{};
  std::array<float, 3> levelAmplitude_{100.0f, 100.0f, 100.0f};
  bool modOverflow_ = false, lfoOverflow_ = false, varOverflow_ = false;
  size_t level_ = 3;
  std::array<int32_t, 4> polyphonyAt_{-1, -1, -1, -1};  // polyphony given at each level
  bool groupInHeader_ = false, groupInRegion_ = false;  // group=N given there
  void scopePolyphony();
};

}  // namespace spindle::sfz
