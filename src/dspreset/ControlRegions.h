#pragma once
// ControlRegions: a DecentSampler sample's region under every position of the preset's
// controls (dspreset/Controls.h), as regions and controller modulation the engine
// already plays. Loader thread.
//
// For one sample, the region is built with every control at its initial position (the
// base), then once per position of each control that can reach the sample (the others
// initial). What differs from the base becomes:
//   volume, pan, tuning, velocity tracking      a continuous modulation by the control's
//   (AMP_VOLUME, PAN, *_TUNING, AMP_VEL_TRACK)  CC through a generated curve of the
//                                               difference at each CC value (so a held
//                                               note follows the control, smoothed)
//   a group effect's cutoff, resonance, EQ      the same (cutoff in cents)
//   band, shaper stage (GroupEffects.h)
//   attack, decay, sustain, release             the same, taken when a note starts
//   enabled (ENABLED, TAG_ENABLED), polyphony   one copy of the region per run of CC
//                                               values that agree, with a locc/hicc
//                                               condition on the control's CC
// Two controls changing the same setting add their differences. Enabling is judged
// against the base: a sample enabled at the base plays while no control's position
// disables it; one disabled at the base plays while any control's position enables it.
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/Region.h"
#include "dspreset/Controls.h"
#include "instrument/Instrument.h"

namespace spindle::dspreset {

struct Built {
  Region region;
  bool enabled = true;
};

class ControlRegions {
 public:
  ControlRegions(const std::vector<Control>& controls, instrument::Instrument& out) : controls_(controls), out_(out) {}

  // build(-1, 0): the base; build(c, p): control c at position p, the others initial.
  // reaches(c): whether control c can change this sample at all.
  // signature(c): what of this sample control c's settings can meet (its group, tags
  // and own values of the attributes c sets); samples alike in it change alike, so
  // each signature is built under c's positions once.
  using Build = std::function<Built(int control, int position)>;
  using Reaches = std::function<bool(int control)>;
  using Signature = std::function<std::string(int control)>;
  void add(const Build& build, const Reaches& reaches, const Signature& signature);

  // Defines the generated curves in the instrument; call once after the last add().
  void finish();

  std::vector<std::string> problems;  // what could not be expressed, once each

 private:
  struct Gate {  // a run of CC values over which a control leaves one enabled/polyphony
    int control, lo, hi;
    bool enabled;
    int32_t polyphony;
    int64_t group;
  };
  struct Effect {
    std::vector<std::pair<int, std::vector<float>>> deltas;  // field, difference at each CC value
    std::vector<Gate> runs;
    bool gating = false;
  };
  Effect effectOf(int control, const Built& base, const Build& build) const;
  int curveFor(const std::vector<float>& points);
  void modulate(Region& r, int control, int target, const std::vector<float>& delta);
  void emit(const Built& base, const std::vector<std::vector<Gate>>& gates);
  void problem(std::string what);

  const std::vector<Control>& controls_;
  instrument::Instrument& out_;
  std::vector<std::vector<float>> curves_;  // generated, from kFirstCurve on
  std::vector<std::map<std::string, Effect>> cache_;  // per control, by signature
};

}  // namespace spindle::dspreset
