#include "engine/mod/ModPlan.h"

#include <algorithm>

namespace spindle::engine::mod {

namespace {

// The entry + 1 of the region's LFO numbered `number`; 0 when it has none.
uint8_t lfoEntry(const Region& r, int number) noexcept {
  for (size_t k = 0; k < r.lfos.size() && k < kMaxFlexLfos; ++k)
    if (r.lfos[k].number == number) return static_cast<uint8_t>(k + 1);
  return 0;
}

bool ownsGain(const CcModulation& m, int cc) noexcept {
  return m.cc == cc && (m.target == ModTarget::Amplitude || m.target == ModTarget::Volume);
}

}  // namespace

void ModPlan::build(const std::vector<Region>& regions, const std::vector<ModCurve>& curveHeaders) {
  curves_ = CurveTable{};
  for (const ModCurve& c : curveHeaders) curves_.define(c.index, c.points);
  slots_.clear();
  fades_.clear();
  sources_.clear();
  lfos_.clear();
  egs_.clear();
  envelopes_.clear();
  v1Lfos_.clear();
  links_.clear();
  vars_.clear();
  regions_.assign(regions.size(), RegionMods{});
  for (size_t i = 0; i < regions.size(); ++i) {
    const Region& r = regions[i];
    RegionMods& m = regions_[i];
    addSlots(r, m);
    m.firstFade = static_cast<uint32_t>(fades_.size());
    m.fades = r.ccCrossfadeCount;
    m.fadeCurve = r.xfCccurve;
    fades_.insert(fades_.end(), r.ccCrossfades.begin(), r.ccCrossfades.begin() + r.ccCrossfadeCount);
    m.firstSource = static_cast<uint32_t>(sources_.size());
    addLfos(r, m);
    addEgs(r, m);
    addLinks(r, m);
    addVariables(r, m);
    addV1(r, m);
    m.sources = static_cast<uint8_t>(sources_.size() - m.firstSource);
    m.planned = true;
  }
}

// The v1 envelopes and LFOs, after the flex sources: which of them the region lists
// depends on the targets every slot and flex source touches.
void ModPlan::addV1(const Region& r, RegionMods& m) {
  const V1Sources v1 = compileV1(r, m.touched, m.ampegEg > 0);
  m.firstEnvelope = static_cast<uint32_t>(envelopes_.size());
  m.firstV1Lfo = static_cast<uint32_t>(v1Lfos_.size());
  m.envelopes = v1.envelopes;
  m.v1Lfos = v1.lfos;
  m.controlled = v1.controlled;
  sources_.insert(sources_.end(), v1.list.begin(), v1.list.begin() + v1.count);
  envelopes_.insert(envelopes_.end(), v1.envelope.begin(), v1.envelope.begin() + v1.envelopes);
  v1Lfos_.insert(v1Lfos_.end(), v1.lfo.begin(), v1.lfo.begin() + v1.lfos);
}

// The controller slots: continuous first, then the note-start ones.
void ModPlan::addSlots(const Region& r, RegionMods& m) {
  m.first = static_cast<uint32_t>(slots_.size());
  const auto begin = r.ccModulations.begin(), end = begin + r.ccModulationCount;
  for (const bool noteStart : {false, true}) {
    for (auto it = begin; it != end; ++it) {
      if (isNoteStartTarget(it->target) != noteStart) continue;
      slots_.push_back(*it);
      if (it->target == ModTarget::LfoFreqLfo) slots_.back().sub = lfoEntry(r, it->sub);
      m.touched.set(static_cast<size_t>(it->target));
      ++(noteStart ? m.noteStart : m.continuous);
      if (noteStart || it->lfo > 0 || it->eg > 0) continue;
      m.ownsCc7 = m.ownsCc7 || ownsGain(*it, 7);
      m.ownsCc11 = m.ownsCc11 || ownsGain(*it, 11);
      m.ownsCc10 = m.ownsCc10 || (it->cc == 10 && it->target == ModTarget::Pan);
    }
  }
}

namespace {

// A continuous target a source's value moves (not an LFO's frequency: those are links).
bool isDepthTarget(ModTarget t) {
  return static_cast<int>(t) < FlexLfo::kDepths && t != ModTarget::LfoFreq && t != ModTarget::LfoFreqLfo &&
         t != ModTarget::LfoStep && t != ModTarget::Variable;
}

// The continuous targets a source moves: its own depths and the controller slots that
// give it depth (slot.*field == k + 1).
template <class Source>
uint64_t targetsOf(const Region& r, const Source& source, size_t k, uint8_t CcModulation::*field) {
  static_assert(FlexLfo::kDepths <= 64, "a source's targets are a 64-bit mask");
  uint64_t mask = 0;
  for (int t = 0; t < FlexLfo::kDepths; ++t)
    if (source.depth[static_cast<size_t>(t)] != 0.0f && isDepthTarget(static_cast<ModTarget>(t)))
      mask |= uint64_t{1} << t;
  for (auto it = r.ccModulations.begin(); it != r.ccModulations.begin() + r.ccModulationCount; ++it)
    if ((*it).*field == k + 1 && isDepthTarget(it->target))
      mask |= uint64_t{1} << static_cast<unsigned>(it->target);
  return mask;
}

}  // namespace

// The flex EGs and their targets; the first with egN_ampeg replaces ampeg.
void ModPlan::addEgs(const Region& r, RegionMods& m) {
  m.firstEg = static_cast<uint32_t>(egs_.size());
  m.egs = static_cast<uint8_t>(std::min<size_t>(r.egs.size(), kMaxFlexEgs));
  for (size_t k = 0; k < m.egs; ++k) {
    const uint64_t mask = targetsOf(r, r.egs[k], k, &CcModulation::eg);
    if (r.egs[k].ampeg >= 0.5f && m.ampegEg == 0) m.ampegEg = static_cast<uint8_t>(k + 1);
    egs_.push_back(r.egs[k]);
    sources_.push_back({SourceKind::FlexEg, static_cast<uint8_t>(k), static_cast<uint8_t>(k), mask});
    m.touched |= ModTargetSet(mask);
  }
}

// The LFOs and their targets. The voice reads those targets while an LFO runs, so they
// count as touched.
void ModPlan::addLfos(const Region& r, RegionMods& m) {
  m.firstLfo = static_cast<uint32_t>(lfos_.size());
  m.lfos = static_cast<uint8_t>(std::min<size_t>(r.lfos.size(), kMaxFlexLfos));
  for (size_t k = 0; k < m.lfos; ++k) {
    const uint64_t mask = targetsOf(r, r.lfos[k], k, &CcModulation::lfo);
    lfos_.push_back(r.lfos[k]);
    sources_.push_back({SourceKind::FlexLfo, static_cast<uint8_t>(k), static_cast<uint8_t>(k), mask});
    m.touched |= ModTargetSet(mask);
  }
}

// The variables and the targets they move (touched: the voice reads them).
void ModPlan::addVariables(const Region& r, RegionMods& m) {
  m.firstVar = static_cast<uint32_t>(vars_.size());
  m.vars = static_cast<uint8_t>(std::min<size_t>(r.variables.size(), kMaxVariables));
  for (size_t k = 0; k < m.vars; ++k) {
    PlannedVariable v{r.variables[k]};
    for (int t = 0; t < kContinuousTargets; ++t)
      if (v.params.depth[static_cast<size_t>(t)] != 0.0f && isDepthTarget(static_cast<ModTarget>(t)))
        v.targets |= uint64_t{1} << t;
    m.touched |= ModTargetSet(v.targets);
    vars_.push_back(v);
  }
}

// Every source -> LFO frequency connection: the sources' own depths (by LFO number) and
// the controller slots (whose depth VoiceMod adds at run time).
void ModPlan::addLinks(const Region& r, RegionMods& m) {
  m.firstLink = static_cast<uint32_t>(links_.size());
  const auto link = [&](size_t source, int targetNumber, float depth) {
    const uint8_t target = lfoEntry(r, targetNumber);
    if (target == 0) return;
    for (size_t i = m.firstLink; i < links_.size(); ++i) {
      if (links_[i].source != source || links_[i].target != target - 1 || links_[i].kind != LinkKind::Freq) continue;
      links_[i].depth += depth;
      return;
    }
    links_.push_back({static_cast<uint8_t>(source), static_cast<uint8_t>(target - 1), depth});
  };
  for (size_t k = 0; k < m.lfos; ++k)
    for (int x = 1; x <= 8; ++x)
      if (r.lfos[k].freqLfo[static_cast<size_t>(x)] != 0.0f) link(k, x, r.lfos[k].freqLfo[static_cast<size_t>(x)]);
  for (size_t k = 0; k < m.egs; ++k)
    for (int x = 1; x <= 8; ++x)
      if (r.egs[k].freqLfo[static_cast<size_t>(x)] != 0.0f)
        link(kMaxFlexLfos + k, x, r.egs[k].freqLfo[static_cast<size_t>(x)]);
  for (auto it = r.ccModulations.begin(); it != r.ccModulations.begin() + r.ccModulationCount; ++it) {
    if (it->target != ModTarget::LfoFreqLfo) continue;
    if (it->lfo > 0) link(it->lfo - 1u, it->sub, 0.0f);
    if (it->eg > 0) link(kMaxFlexLfos + it->eg - 1u, it->sub, 0.0f);
  }
  addDepthLinks(r, m);
  m.links = static_cast<uint8_t>(std::min<size_t>(links_.size() - m.firstLink, 255));
}

// The sources holding LFO depths (SourceLink's kinds Depth and DepthAdd), after the
// frequency links.
void ModPlan::addDepthLinks(const Region& r, RegionMods& m) {
  const auto add = [&](size_t source, const auto& params) {
    for (int x = 1; x <= 8; ++x) {
      const uint8_t target = lfoEntry(r, x);
      const auto at = static_cast<size_t>(x);
      if (target == 0) continue;
      if (params.depthLfoGiven & (1u << x))
        links_.push_back({static_cast<uint8_t>(source), static_cast<uint8_t>(target - 1), params.depthLfo[at],
                          LinkKind::Depth});
      if (params.depthAddLfo[at] != 0.0f)
        links_.push_back({static_cast<uint8_t>(source), static_cast<uint8_t>(target - 1), params.depthAddLfo[at],
                          LinkKind::DepthAdd});
    }
  };
  const size_t before = links_.size();
  for (size_t k = 0; k < m.lfos; ++k) add(k, r.lfos[k]);
  for (size_t k = 0; k < m.egs; ++k) add(kMaxFlexLfos + k, r.egs[k]);
  m.depthLinks = links_.size() > before;
}

}  // namespace spindle::engine::mod
