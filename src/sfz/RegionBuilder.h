#pragma once
// Builds one Region from the opcodes of its header levels (global, master, group,
// region), applied in that order, each level in file order: a later opcode wins.
#include <optional>
#include <string>

#include "core/Region.h"
#include "sfz/Curves.h"
#include "sfz/OpcodeTable.h"

namespace spindle::sfz {

// An opcode whose value has been parsed and clamped, ready to apply.
struct ParsedOpcode {
  const OpcodeSpec* spec;
  int index;      // N of loccN / amp_velcurve_N, else -1
  double number;  // value; the sample table index for `sample`; -1 for "no key" / "sample"
};

class RegionBuilder {
 public:
  void apply(const ParsedOpcode& op);

  // The finished region, or nullopt with the reason it cannot play in `whySkipped`.
  // `notes` receives remarks about a region that is kept (empty when none).
  std::optional<Region> finish(std::string& whySkipped, std::string& notes);

 private:
  void applySpecial(Special which, const ParsedOpcode& op);
  void setCcBound(int cc, bool high, double value);

  Region region_;
  CurvePoints velcurve_;
  bool hasSample_ = false;
  bool noKey_ = false;
  bool ccOverflow_ = false;
};

}  // namespace spindle::sfz
