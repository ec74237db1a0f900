#include "sfz/RegionBuilder.h"

#include <algorithm>
#include <string>
#include <utility>

namespace spindle::sfz {

namespace {

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

template <class T>
T as(double v) {
  return static_cast<T>(v);
}

uint8_t asNote(double v) { return static_cast<uint8_t>(std::clamp(v, 0.0, 127.0)); }

// 0 global, 1 master, 2 group: the Special enum lists each family in that order.
size_t levelOf(Special which, Special global) { return static_cast<size_t>(which) - static_cast<size_t>(global); }

}  // namespace

RegionBuilder::RegionBuilder(uint32_t masterBlock, uint32_t groupBlock) {
  region_.masterBlock = masterBlock;
  region_.groupBlock = groupBlock;
}

void RegionBuilder::apply(const ParsedOpcode& op) {
  Region& r = region_;
  const double v = op.number;
  std::visit(Overloaded{
                 [&](Special s) { applySpecial(s, op); },
                 [&](float Region::*m) { r.*m = as<float>(v); },
                 [&](uint8_t Region::*m) { r.*m = as<uint8_t>(v); },
                 [&](int16_t Region::*m) { r.*m = as<int16_t>(v); },
                 [&](int32_t Region::*m) { r.*m = as<int32_t>(v); },
                 [&](int64_t Region::*m) { r.*m = as<int64_t>(v); },
                 [&](EnvField f) { (r.*f.envelope).*f.param = as<float>(v); },
                 [&](LfoField f) { (r.*f.lfo).*f.param = as<float>(v); },
                 [&](ModField f) { applyModulation(f, op); },
                 [&](FlexLfoField f) { applyFlexLfo(f, op); },
                 [&](FlexEgField f) { applyFlexEg(f, op); },
                 [&](VariableField f) { applyVariable(f, op); },
                 [&](EqField f) {
                   const int band = f.band > 0 ? f.band : op.index;
                   if (band >= 1 && band <= 3) r.eq[static_cast<size_t>(band - 1)].*f.param = as<float>(v);
                 },
             },
             op.spec->target);
}

// Each Special is taken by exactly one of these, in this order.
void RegionBuilder::applySpecial(Special which, const ParsedOpcode& op) {
  if (applyMappingSpecial(which, op)) return;
  if (applyModeSpecial(which, op.number)) return;
  if (applyLevelSpecial(which, op.number)) return;
  applyControllerSpecial(which, op);
}

// What a region plays and for which notes: the sample, the key range and keycenter
// (key=-1 and pitch_keycenter=sample arrive as negative numbers), the velocity curve.
bool RegionBuilder::applyMappingSpecial(Special which, const ParsedOpcode& op) {
  Region& r = region_;
  const double v = op.number;
  const bool none = v < 0;  // key=-1 ("no key"), pitch_keycenter=sample
  switch (which) {
    case Special::Sample:
      r.sampleIndex = as<int32_t>(v);
      hasSample_ = true;
      return true;
    case Special::Key:
      noKey_ = none;
      if (!none) r.lokey = r.hikey = r.pitchKeycenter = asNote(v);
      return true;
    case Special::LoKey:
    case Special::HiKey:
      noKey_ = none;
      if (!none) (which == Special::LoKey ? r.lokey : r.hikey) = asNote(v);
      return true;
    case Special::PitchKeycenter:
      r.pitchKeycenterFromKey = none;
      if (!none) r.pitchKeycenter = asNote(v);
      return true;
    case Special::AmpVelcurve: velcurve_.set(op.index, as<float>(v)); return true;
    default: return false;
  }
}

// Options stored as enums or flags (the option's index in OpcodeTable), and sw_default.
bool RegionBuilder::applyModeSpecial(Special which, double v) {
  Region& r = region_;
  switch (which) {
    case Special::LoopMode:
      r.loopMode = as<LoopMode>(v);
      r.loopModeSet = true;
      return true;
    case Special::Trigger: r.trigger = as<Trigger>(v); return true;
    case Special::OffMode: r.offMode = as<OffMode>(v); return true;
    case Special::FilType: r.filType = as<FilterType>(v); return true;
    case Special::Fil2Type: r.fil2Type = as<FilterType>(v); return true;
    case Special::NoteSelfmask: r.noteSelfmask = as<uint8_t>(v); return true;
    case Special::RtDead: r.rtDead = as<uint8_t>(v); return true;
    case Special::OffsetMode: r.offsetPercent = v > 0; return true;
    case Special::XfKeycurve: r.xfKeycurve = as<CrossfadeCurve>(v); return true;
    case Special::XfVelcurve: r.xfVelcurve = as<CrossfadeCurve>(v); return true;
    case Special::SwDefault: r.swDefault = as<int16_t>(v); return true;
    default: return false;
  }
}

// What depends on the header level it is written at: group= and polyphony= (scoped in
// finish()), and the global_/master_/group_ volume, amplitude and tune, which combine
// with the region's own value in finish().
bool RegionBuilder::applyLevelSpecial(Special which, double v) {
  switch (which) {
    case Special::Group:
      region_.group = as<int64_t>(v);
      (level_ < 3 ? groupInHeader_ : groupInRegion_) = true;
      return true;
    case Special::Polyphony: polyphonyAt_[level_] = as<int32_t>(v); return true;
    case Special::GlobalVolume:
    case Special::MasterVolume:
    case Special::GroupVolume: levelVolume_[levelOf(which, Special::GlobalVolume)] = as<float>(v); return true;
    case Special::GlobalAmplitude:
    case Special::MasterAmplitude:
    case Special::GroupAmplitude: levelAmplitude_[levelOf(which, Special::GlobalAmplitude)] = as<float>(v); return true;
    case Special::GlobalTune:
    case Special::MasterTune:
    case Special::GroupTune: levelTune_[levelOf(which, Special::GlobalTune)] = as<float>(v); return true;
    default: return false;
  }
}

// Controller conditions and triggers (stored normalised, 0..1), pedals, sw_vel.
// set_cc/set_hdcc/set_realcc never reach a region: the parser keeps them instrument-wide.
void RegionBuilder::applyControllerSpecial(Special which, const ParsedOpcode& op) {
  Region& r = region_;
  const float v = as<float>(op.number);
  switch (which) {
    case Special::LoCc: setCcBound(r.ccConditions, op.index, false, v / 127.0f); break;
    case Special::HiCc: setCcBound(r.ccConditions, op.index, true, v / 127.0f); break;
    case Special::LoHdcc: setCcBound(r.ccConditions, op.index, false, v); break;
    case Special::HiHdcc: setCcBound(r.ccConditions, op.index, true, v); break;
    case Special::OnLoCc: setCcBound(r.ccTriggers, op.index, false, v / 127.0f); break;
    case Special::OnHiCc: setCcBound(r.ccTriggers, op.index, true, v / 127.0f); break;
    case Special::OnLoHdcc: setCcBound(r.ccTriggers, op.index, false, v); break;
    case Special::OnHiHdcc: setCcBound(r.ccTriggers, op.index, true, v); break;
    case Special::SwVel: r.swVelPrevious = op.number > 0; break;
    case Special::SustainCc: r.sustainCc = as<uint16_t>(op.number); break;
    case Special::SustainLo: r.sustainLo = v / 127.0f; break;
    case Special::SustainSw: r.sustainSw = op.number > 0; break;
    case Special::SostenutoCc: r.sostenutoCc = as<uint16_t>(op.number); break;
    case Special::SostenutoLo: r.sostenutoLo = v / 127.0f; break;
    case Special::SostenutoSw: r.sostenutoSw = op.number > 0; break;
    case Special::Phase: r.phaseInvert = op.number > 0; break;
    case Special::EqType:
      if (op.index >= 1 && op.index <= 3) r.eq[static_cast<size_t>(op.index - 1)].type = as<EqType>(op.number);
      break;
    case Special::StopLoCc: setCcBound(r.stopCcs, op.index, false, v / 127.0f); break;
    case Special::StopHiCc: setCcBound(r.stopCcs, op.index, true, v / 127.0f); break;
    case Special::StopLoHdcc: setCcBound(r.stopCcs, op.index, false, v); break;
    case Special::StopHiHdcc: setCcBound(r.stopCcs, op.index, true, v); break;
    case Special::Direction: r.reverse = op.number > 0; break;
    case Special::ReverseLoCc: setCcBound(r.reverseCcs, op.index, false, v / 127.0f); break;
    case Special::ReverseHiCc: setCcBound(r.reverseCcs, op.index, true, v / 127.0f); break;
    case Special::RtDecayN:
    case Special::RtDecayNTime:
      if (op.index < 1 || op.index > static_cast<int>(r.rtDecayN.size())) break;
      (which == Special::RtDecayN ? r.rtDecayN : r.rtDecayNTime)[static_cast<size_t>(op.index - 1)] = as<float>(v);
      break;
    default: break;
  }
}

// One entry per controller: a later lo/hi of the same controller replaces the bound.
// A new entry starts from the full range 0..1.
void RegionBuilder::setCcBound(std::vector<CcCondition>& list, int cc, bool high, float value) {
  auto found = std::find_if(list.begin(), list.end(), [cc](const CcCondition& c) { return c.cc == cc; });
  if (found == list.end()) found = list.insert(list.end(), CcCondition{as<uint16_t>(cc), 0.0f, 1.0f});
  (high ? found->hi : found->lo) = value;
}

// A later opcode for the same controller and target (region over group over global)
// replaces the earlier value of that parameter only.
void RegionBuilder::applyModulation(const ModField& field, const ParsedOpcode& op) {
  const int cc = field.source >= 0 ? field.source : op.index;
  const double v = op.number;
  if (field.param == ModParam::CrossfadeCurve) {
    region_.xfCccurve = as<CrossfadeCurve>(v);
    return;
  }
  if (field.param == ModParam::CrossfadeLo || field.param == ModParam::CrossfadeHi) {
    CcCrossfade* x = crossfade(cc, field.fadeOut);
    if (x) (field.param == ModParam::CrossfadeLo ? x->lo : x->hi) = as<uint8_t>(v);
    return;
  }
  int sub = op.sub;
  if (field.target == ModTarget::Variable) {  // varNN_onccX: a source of the variable
    const ModVariable* var = variable(op.var);
    if (!var) return;
    sub = static_cast<int>(var - region_.variables.data() + 1);
  }
  CcModulation* m = modulation(cc, field.target, op.lfo, op.eg, sub);
  if (!m) return;
  switch (field.param) {
    case ModParam::Depth: m->depth = as<float>(v); break;
    case ModParam::Curve: m->curve = as<uint8_t>(v); break;
    case ModParam::Smooth: m->smoothMs = as<float>(v); break;
    case ModParam::Step: m->step = as<float>(v); break;
    default: break;
  }
}

namespace {

// lfoN_/egN_depth_lfoX (scale, marked given) or _depthadd_lfoX on a source.
template <class Source>
void setDepthLfo(Source& source, LinkKind kind, int x, float v) {
  if (x < 1 || x > 8) return;
  const auto at = static_cast<size_t>(x);
  if (kind == LinkKind::DepthAdd) {
    source.depthAddLfo[at] = v;
  } else {
    source.depthLfo[at] = v;
    source.depthLfoGiven = static_cast<uint16_t>(source.depthLfoGiven | (1u << x));
  }
}

}  // namespace

// lfoN_*: a depth, the frequency modulation by LFO X, sub-wave X's field (X = 1 is the
// main wave's), step X, or a parameter of the region's LFO N.
void RegionBuilder::applyFlexLfo(const FlexLfoField& f, const ParsedOpcode& op) {
  FlexLfo* lfo = flexLfo(op.lfo);
  if (!lfo) return;
  const float v = as<float>(op.number);
  if (f.depth >= 0)
    lfo->depth[static_cast<size_t>(f.depth)] = v;
  else if (f.depthLfo != LinkKind::None)
    setDepthLfo(*lfo, f.depthLfo, op.index, v);
  else if (f.freqLfo && op.index >= 1 && op.index <= 8)
    lfo->freqLfo[static_cast<size_t>(op.index)] = v;
  else if (f.sub && op.index >= 2 && op.index <= FlexLfo::kMaxWaves)
    lfo->sub[static_cast<size_t>(op.index - 2)].*f.sub = v;
  else if (f.sub && op.index == 1)
    lfo->*f.param = v;
  else if (f.step && op.index >= 1 && op.index <= FlexLfo::kMaxSteps)
    lfo->step[static_cast<size_t>(op.index - 1)] = v;
  else if (f.param)
    lfo->*f.param = v;
}

// egN_*: a depth, the frequency modulation by LFO X, a field of point X, or a parameter
// of the region's EG N. A point makes the EG at least that long.
void RegionBuilder::applyFlexEg(const FlexEgField& f, const ParsedOpcode& op) {
  FlexEg* eg = flexEg(op.eg);
  if (!eg) return;
  const float v = as<float>(op.number);
  if (f.depth >= 0) {
    eg->depth[static_cast<size_t>(f.depth)] = v;
  } else if (f.depthLfo != LinkKind::None) {
    setDepthLfo(*eg, f.depthLfo, op.index, v);
  } else if (f.freqLfo) {
    if (op.index >= 1 && op.index <= 8) eg->freqLfo[static_cast<size_t>(op.index)] = v;
  } else if (f.point) {
    if (op.index < 0 || op.index >= FlexEg::kMaxPoints) return;
    eg->point[static_cast<size_t>(op.index)].*f.point = v;
    eg->points = std::max(eg->points, op.index + 1);
  } else {
    eg->*f.param = v;
  }
}

// varNN_mod (mult or add) or the variable's depth on a target.
void RegionBuilder::applyVariable(const VariableField& f, const ParsedOpcode& op) {
  ModVariable* var = variable(op.var);
  if (!var) return;
  if (f.depth >= 0)
    var->depth[static_cast<size_t>(f.depth)] = as<float>(op.number);
  else
    var->mult = as<float>(op.number);
}

CcModulation* RegionBuilder::modulation(int cc, ModTarget target, int lfoNumber, int egNumber, int sub) {
  Region& r = region_;
  uint8_t lfo = 0, eg = 0;
  if (lfoNumber > 0) {
    const FlexLfo* l = flexLfo(lfoNumber);
    if (!l) return nullptr;
    lfo = static_cast<uint8_t>(l - r.lfos.data() + 1);
  }
  if (egNumber > 0) {
    const FlexEg* e = flexEg(egNumber);
    if (!e) return nullptr;
    eg = static_cast<uint8_t>(e - r.egs.data() + 1);
  }
  const auto end = r.ccModulations.begin() + r.ccModulationCount;
  const auto found = std::find_if(r.ccModulations.begin(), end, [&](const CcModulation& m) {
    return m.cc == cc && m.target == target && m.lfo == lfo && m.eg == eg && m.sub == sub;
  });
  if (found != end) return &*found;
  if (r.ccModulationCount >= kMaxCcModulations) {
    modOverflow_ = true;
    return nullptr;
  }
  *found = CcModulation{as<uint16_t>(cc), target};
  found->lfo = lfo;
  found->eg = eg;
  found->sub = as<uint8_t>(std::clamp(sub, 0, 255));
  ++r.ccModulationCount;
  return &*found;
}

FlexLfo* RegionBuilder::flexLfo(int number) {
  auto& lfos = region_.lfos;
  const auto found = std::find_if(lfos.begin(), lfos.end(), [&](const FlexLfo& l) { return l.number == number; });
  if (found != lfos.end()) return &*found;
  if (lfos.size() >= static_cast<size_t>(kMaxFlexLfos)) {
    lfoOverflow_ = true;
    return nullptr;
  }
  lfos.push_back(FlexLfo{});
  lfos.back().number = number;
  return &lfos.back();
}

FlexEg* RegionBuilder::flexEg(int number) {
  auto& egs = region_.egs;
  const auto found = std::find_if(egs.begin(), egs.end(), [&](const FlexEg& e) { return e.number == number; });
  if (found != egs.end()) return &*found;
  if (egs.size() >= static_cast<size_t>(kMaxFlexEgs)) {
    lfoOverflow_ = true;
    return nullptr;
  }
  egs.push_back(FlexEg{});
  egs.back().number = number;
  return &egs.back();
}

ModVariable* RegionBuilder::variable(int number) {
  auto& vars = region_.variables;
  const auto found = std::find_if(vars.begin(), vars.end(), [&](const ModVariable& v) { return v.number == number; });
  if (found != vars.end()) return &*found;
  if (vars.size() >= static_cast<size_t>(kMaxVariables)) {
    varOverflow_ = true;
    return nullptr;
  }
  vars.push_back(ModVariable{});
  vars.back().number = number;
  return &vars.back();
}

// A new xfin crossfade starts as 0..0 (no fade), an xfout one as 127..127.
CcCrossfade* RegionBuilder::crossfade(int cc, bool fadeOut) {
  Region& r = region_;
  const auto end = r.ccCrossfades.begin() + r.ccCrossfadeCount;
  const auto found = std::find_if(r.ccCrossfades.begin(), end,
                                  [&](const CcCrossfade& x) { return x.cc == cc && x.fadeOut == fadeOut; });
  if (found != end) return &*found;
  if (r.ccCrossfadeCount >= kMaxCcCrossfades) {
    modOverflow_ = true;
    return nullptr;
  }
  const uint8_t edge = fadeOut ? 127 : 0;
  *found = CcCrossfade{as<uint16_t>(cc), fadeOut, edge, edge};
  ++r.ccCrossfadeCount;
  return &*found;
}

}  // namespace spindle::sfz
