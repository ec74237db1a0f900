#pragma once
// ModPlan: a Program's controller modulations, compiled on the loader thread
// (Program::prepare) into flat lists; voices read their region's slice on the audio
// thread and never change it.
//
//   slots_:  [region 0: continuous..., note-start...][region 1: ...]...
//   fades_:  [region 0 crossfades][region 1 crossfades]...
//   sources_: [region 0: lfoN..., egN..., v1 envelopes..., v1 LFOs...][region 1: ...]...
//   vars_:    [region 0: varNN...][region 1: ...]... with the targets each moves
//             every envelope and LFO (Sources.h), with their parameters by kind in
//             lfos_, egs_, envelopes_ and v1Lfos_, region by region
#include <cstdint>
#include <span>
#include <vector>

#include "core/Modulation.h"
#include "core/Region.h"
#include "engine/mod/CurveTable.h"
#include "engine/mod/Sources.h"

namespace spindle::engine::mod {

// A source moving an LFO's frequency (lfoN_freq_lfoX, egN_freq_lfoX, and their
// controller forms): Hz per unit of the source's value. Sources are numbered LFO entries
// 0..kMaxFlexLfos-1, then flex EG entries.
// Kind Depth / DepthAdd: a source holding LFO X's output (lfoN_/egN_depth_lfoX,
// _depthadd_lfoX), percent: the LFO's output is multiplied by
//   (its Depth links' product of value * depth / 100, or 1 with none)
//   + (its DepthAdd links' sum of value * depth / 100).
enum class LinkKind : uint8_t { Freq, Depth, DepthAdd };
struct SourceLink {
  uint8_t source = 0, target = 0;  // target: the LFO's entry
  float depth = 0.0f;
  LinkKind kind = LinkKind::Freq;
};

// An ARIA variable (core/Modulation.h ModVariable) and the continuous targets it moves.
struct PlannedVariable {
  ModVariable params;
  uint64_t targets = 0;  // bit t: params.depth[t] moves target t
};

struct RegionMods {
  uint32_t first = 0, firstFade = 0, firstLfo = 0, firstEg = 0, firstLink = 0;
  uint32_t firstSource = 0, firstEnvelope = 0, firstV1Lfo = 0, firstVar = 0;
  uint8_t continuous = 0, noteStart = 0, fades = 0, lfos = 0, egs = 0, links = 0;
  uint8_t sources = 0, envelopes = 0, v1Lfos = 0, vars = 0;
  bool depthLinks = false;  // some link is of kind Depth or DepthAdd
  uint8_t ampegEg = 0;     // k > 0: the region's k-th flex EG replaces ampeg (egN_ampeg)
  uint8_t controlled = 0;  // RegionSources::controlled
  bool planned = false;    // built by ModPlan::build (not a region outside the program)
  ModTargetSet touched;  // every target with a slot
  // The region modulates gain from CC7 / CC11 or pan from CC10 itself: the part's
  // default use of that controller does not apply to its voices (as in sfizz and ARIA).
  bool ownsCc7 = false, ownsCc11 = false, ownsCc10 = false;
  CrossfadeCurve fadeCurve = CrossfadeCurve::Power;  // xf_cccurve

  bool modulated() const noexcept { return continuous > 0 || fades > 0 || lfos > 0 || egs > 0; }
  bool touches(ModTarget t) const noexcept { return t != ModTarget::Count && touched[static_cast<size_t>(t)]; }
};

class ModPlan {
 public:
  void build(const std::vector<Region>& regions, const std::vector<ModCurve>& curveHeaders);

  const RegionMods& region(size_t index) const noexcept SPINDLE_REALTIME {
    return index < regions_.size() ? regions_[index] : empty_;
  }
  std::span<const CcModulation> continuous(const RegionMods& r) const noexcept SPINDLE_REALTIME {
    return {slots_.data() + r.first, r.continuous};
  }
  std::span<const CcModulation> noteStart(const RegionMods& r) const noexcept SPINDLE_REALTIME {
    return {slots_.data() + r.first + r.continuous, r.noteStart};
  }
  std::span<const CcCrossfade> fades(const RegionMods& r) const noexcept SPINDLE_REALTIME {
    return {fades_.data() + r.firstFade, r.fades};
  }
  // Every envelope and LFO of the region, with their parameters.
  RegionSources sources(const RegionMods& r) const noexcept SPINDLE_REALTIME {
    return {{sources_.data() + r.firstSource, r.sources},
            {envelopes_.data() + r.firstEnvelope, r.envelopes},
            {v1Lfos_.data() + r.firstV1Lfo, r.v1Lfos},
            {lfos_.data() + r.firstLfo, r.lfos},
            {egs_.data() + r.firstEg, r.egs},
            r.controlled};
  }
  std::span<const SourceLink> links(const RegionMods& r) const noexcept SPINDLE_REALTIME {
    return {links_.data() + r.firstLink, r.links};
  }
  std::span<const PlannedVariable> variables(const RegionMods& r) const noexcept SPINDLE_REALTIME {
    return {vars_.data() + r.firstVar, r.vars};
  }
  const CurveTable& curves() const noexcept SPINDLE_REALTIME { return curves_; }

 private:
  void addSlots(const Region& r, RegionMods& m);
  void addLfos(const Region& r, RegionMods& m);
  void addEgs(const Region& r, RegionMods& m);
  void addLinks(const Region& r, RegionMods& m);
  void addDepthLinks(const Region& r, RegionMods& m);
  void addV1(const Region& r, RegionMods& m);
  void addVariables(const Region& r, RegionMods& m);

  std::vector<CcModulation> slots_;
  std::vector<CcCrossfade> fades_;
  std::vector<ModSource> sources_;
  std::vector<FlexLfo> lfos_;
  std::vector<FlexEg> egs_;
  std::vector<V1Envelope> envelopes_;
  std::vector<V1Lfo> v1Lfos_;
  std::vector<SourceLink> links_;
  std::vector<PlannedVariable> vars_;
  std::vector<RegionMods> regions_;
  CurveTable curves_;
  RegionMods empty_;
};

}  // namespace spindle::engine::mod
