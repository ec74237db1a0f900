#include "engine/mod/ModPlan.h"

#include <algorithm>

namespace spindle::engine::mod {

namespace {

bool ownsGain(const CcModulation& m, int cc) noexcept {
  return m.cc == cc && (m.target == ModTarget::Amplitude || m.target == ModTarget::Volume);
}

}  // namespace

void ModPlan::build(const std::vector<Region>& regions, const std::vector<ModCurve>& curveHeaders) {
  curves_ = CurveTable{};
  for (const ModCurve& c : curveHeaders) curves_.define(c.index, c.points);
  slots_.clear();
  fades_.clear();
  lfos_.clear();
  lfoTargets_.clear();
  egs_.clear();
  egTargets_.clear();
  regions_.assign(regions.size(), RegionMods{});
  for (size_t i = 0; i < regions.size(); ++i) {
    const Region& r = regions[i];
    RegionMods& m = regions_[i];
    m.first = static_cast<uint32_t>(slots_.size());
    const auto begin = r.ccModulations.begin(), end = begin + r.ccModulationCount;
    // Continuous slots first, then the note-start ones.
    for (const bool noteStart : {false, true}) {
      for (auto it = begin; it != end; ++it) {
        if (isNoteStartTarget(it->target) != noteStart) continue;
        slots_.push_back(*it);
        m.touched |= uint64_t{1} << static_cast<unsigned>(it->target);
        ++(noteStart ? m.noteStart : m.continuous);
        if (noteStart || it->lfo > 0 || it->eg > 0) continue;
        m.ownsCc7 = m.ownsCc7 || ownsGain(*it, 7);
        m.ownsCc11 = m.ownsCc11 || ownsGain(*it, 11);
        m.ownsCc10 = m.ownsCc10 || (it->cc == 10 && it->target == ModTarget::Pan);
      }
    }
    m.firstFade = static_cast<uint32_t>(fades_.size());
    m.fades = r.ccCrossfadeCount;
    m.fadeCurve = r.xfCccurve;
    fades_.insert(fades_.end(), r.ccCrossfades.begin(), r.ccCrossfades.begin() + r.ccCrossfadeCount);
    addLfos(r, m);
    addEgs(r, m);
  }
}

namespace {

// The continuous targets a source moves: its own depths and the controller slots that
// give it depth (slot.*field == k + 1).
template <class Source>
uint32_t targetsOf(const Region& r, const Source& source, size_t k, uint8_t CcModulation::*field) {
  uint32_t mask = 0;
  for (int t = 0; t < FlexLfo::kDepths; ++t)
    if (source.depth[static_cast<size_t>(t)] != 0.0f && t != static_cast<int>(ModTarget::LfoFreq))
      mask |= uint32_t{1} << t;
  for (auto it = r.ccModulations.begin(); it != r.ccModulations.begin() + r.ccModulationCount; ++it)
    if ((*it).*field == k + 1 && static_cast<int>(it->target) < FlexLfo::kDepths && it->target != ModTarget::LfoFreq)
      mask |= uint32_t{1} << static_cast<unsigned>(it->target);
  return mask;
}

}  // namespace

// The flex EGs and their targets; the first with egN_ampeg replaces ampeg.
void ModPlan::addEgs(const Region& r, RegionMods& m) {
  m.firstEg = static_cast<uint32_t>(egs_.size());
  m.egs = static_cast<uint8_t>(std::min<size_t>(r.egs.size(), kMaxFlexEgs));
  for (size_t k = 0; k < m.egs; ++k) {
    const uint32_t mask = targetsOf(r, r.egs[k], k, &CcModulation::eg);
    if (r.egs[k].ampeg >= 0.5f && m.ampegEg == 0) m.ampegEg = static_cast<uint8_t>(k + 1);
    egs_.push_back(r.egs[k]);
    egTargets_.push_back(mask);
    m.touched |= mask;
  }
}

// The LFOs and their targets. The voice reads those targets while an LFO runs, so they
// count as touched.
void ModPlan::addLfos(const Region& r, RegionMods& m) {
  m.firstLfo = static_cast<uint32_t>(lfos_.size());
  m.lfos = static_cast<uint8_t>(std::min<size_t>(r.lfos.size(), kMaxFlexLfos));
  for (size_t k = 0; k < m.lfos; ++k) {
    const uint32_t mask = targetsOf(r, r.lfos[k], k, &CcModulation::lfo);
    lfos_.push_back(r.lfos[k]);
    lfoTargets_.push_back(mask);
    m.touched |= mask;
  }
}

}  // namespace spindle::engine::mod
