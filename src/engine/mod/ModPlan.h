#pragma once
// ModPlan: a Program's controller modulations, compiled on the loader thread
// (Program::prepare) into flat lists; voices read their region's slice on the audio
// thread and never change it.
//
//   slots_:  [region 0: continuous..., note-start...][region 1: ...]...
//   fades_:  [region 0 crossfades][region 1 crossfades]...
//   lfos_:   [region 0 lfoN...][region 1 lfoN...]...   (lfoTargets_ alongside)
//   egs_:    [region 0 egN...][region 1 egN...]...      (egTargets_ alongside)
//   v1_:     [region 0 v1 EGs and LFOs][region 1 ...]...  (V1Plan.h)
#include <cstdint>
#include <span>
#include <vector>

#include "core/Modulation.h"
#include "core/Region.h"
#include "engine/mod/CurveTable.h"
#include "engine/mod/V1Plan.h"

namespace spindle::engine::mod {

// A source moving an LFO's frequency (lfoN_freq_lfoX, egN_freq_lfoX, and their
// controller forms): Hz per unit of the source's value. Sources are numbered LFO entries
// 0..kMaxFlexLfos-1, then flex EG entries.
struct SourceLink {
  uint8_t source = 0, target = 0;  // target: the LFO's entry
  float depth = 0.0f;
};

struct RegionMods {
  uint32_t first = 0, firstFade = 0, firstLfo = 0, firstEg = 0, firstLink = 0;
  uint8_t continuous = 0, noteStart = 0, fades = 0, lfos = 0, egs = 0, links = 0;
  uint8_t ampegEg = 0;  // k > 0: the region's k-th flex EG replaces ampeg (egN_ampeg)
  uint64_t touched = 0;  // bit (1 << ModTarget) for every target with a slot
  // The region modulates gain from CC7 / CC11 or pan from CC10 itself: the part's
  // default use of that controller does not apply to its voices (as in sfizz and ARIA).
  bool ownsCc7 = false, ownsCc11 = false, ownsCc10 = false;
  CrossfadeCurve fadeCurve = CrossfadeCurve::Power;  // xf_cccurve

  bool modulated() const noexcept { return continuous > 0 || fades > 0 || lfos > 0 || egs > 0; }
  bool touches(ModTarget t) const noexcept { return (touched >> static_cast<unsigned>(t)) & 1u; }
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
  // The region's LFOs (lfoN_*), and for each the mask of continuous targets it moves
  // (bit t: a depth on ModTarget t, or a controller that gives it one).
  std::span<const FlexLfo> lfos(const RegionMods& r) const noexcept SPINDLE_REALTIME {
    return {lfos_.data() + r.firstLfo, r.lfos};
  }
  std::span<const uint32_t> lfoTargets(const RegionMods& r) const noexcept SPINDLE_REALTIME {
    return {lfoTargets_.data() + r.firstLfo, r.lfos};
  }
  // The region's flex EGs (egN_*) and their target masks, likewise.
  std::span<const FlexEg> egs(const RegionMods& r) const noexcept SPINDLE_REALTIME {
    return {egs_.data() + r.firstEg, r.egs};
  }
  std::span<const uint32_t> egTargets(const RegionMods& r) const noexcept SPINDLE_REALTIME {
    return {egTargets_.data() + r.firstEg, r.egs};
  }
  std::span<const SourceLink> links(const RegionMods& r) const noexcept SPINDLE_REALTIME {
    return {links_.data() + r.firstLink, r.links};
  }
  const CurveTable& curves() const noexcept SPINDLE_REALTIME { return curves_; }
  // The region's v1 envelopes and LFOs; null for a region the plan was not built with.
  const V1Plan* v1(size_t index) const noexcept SPINDLE_REALTIME {
    return index < v1_.size() ? &v1_[index] : nullptr;
  }

 private:
  void addSlots(const Region& r, RegionMods& m);
  void addLfos(const Region& r, RegionMods& m);
  void addEgs(const Region& r, RegionMods& m);
  void addLinks(const Region& r, RegionMods& m);

  std::vector<CcModulation> slots_;
  std::vector<CcCrossfade> fades_;
  std::vector<FlexLfo> lfos_;
  std::vector<uint32_t> lfoTargets_;
  std::vector<FlexEg> egs_;
  std::vector<uint32_t> egTargets_;
  std::vector<SourceLink> links_;
  std::vector<RegionMods> regions_;
  std::vector<V1Plan> v1_;
  CurveTable curves_;
  RegionMods empty_;
};

}  // namespace spindle::engine::mod
