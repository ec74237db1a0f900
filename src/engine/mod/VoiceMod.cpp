#include "engine/mod/VoiceMod.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "engine/mod/Curves.h"

namespace spindle::engine::mod {

static_assert(FlexLfo::kDepths <= 64, "ModSource::targets is a 64-bit mask of the continuous targets");

const RegionMods VoiceMod::kNone{};

namespace {

// Which envelope a note-start slot moves (a VoiceMod::k* bit), 0 for none.
uint32_t envelopeOf(const CcModulation& m) noexcept SPINDLE_REALTIME {
  const auto t = static_cast<int>(m.target);
  const auto in = [t](ModTarget first, ModTarget last) noexcept SPINDLE_REALTIME {
    return t >= static_cast<int>(first) && t <= static_cast<int>(last);
  };
  if (m.eg > 0 && (m.target == ModTarget::EgTime || m.target == ModTarget::EgLevel)) return VoiceMod::kFlexEgs;
  if (m.lfo > 0 || m.eg > 0) return 0;
  if (in(ModTarget::AmpegDelay, ModTarget::AmpegRelease)) return VoiceMod::kAmpeg;
  if (in(ModTarget::FilegDelay, ModTarget::FilegDepth)) return VoiceMod::kFileg;
  if (in(ModTarget::PitchegDelay, ModTarget::PitchegDepth)) return VoiceMod::kPitcheg;
  return 0;
}

}  // namespace

uint32_t VoiceMod::refreshEnvelopes(const ControllerState& cc) noexcept SPINDLE_REALTIME {
  if (envelopeSlots_ == 0) return 0;
  uint32_t changed = 0;
  const auto noteStart = plan_->noteStart(*info_);
  for (size_t i = 0; i < noteStart.size(); ++i) {
    const CcModulation& m = noteStart[i];
    const float x = input(cc, m.cc);
    const uint32_t envelope = x != noteStartSource_[i] ? envelopeOf(m) : 0;
    if (envelope == 0) continue;
    const float delta = contribution(m, x) - contribution(m, noteStartSource_[i]);
    noteStartSource_[i] = x;
    changed |= envelope;
    if (envelope != kFlexEgs) {
      sums_[static_cast<size_t>(m.target)] += delta;
    } else if (m.eg <= kMaxFlexEgs && m.sub < FlexEg::kMaxPoints) {
      FlexEgBank::PointAdds& adds = sources_.flexEgs().pointAdds();
      (m.target == ModTarget::EgTime ? adds.time : adds.level)[m.eg - 1u][m.sub] += delta;
    }
  }
  if (changed & kFlexEgs) sources_.flexEgs().pointsMoved();
  return changed;
}

void VoiceMod::start(const ModPlan& plan, size_t regionIndex, const Region& region, const ControllerState& cc,
                     double sampleRate, uint32_t seed, float velocity01, uint64_t frame) noexcept SPINDLE_REALTIME {
  plan_ = &plan;
  info_ = &plan.region(regionIndex);
  const RegionSources list = info_->planned ? plan.sources(*info_) : sources_.compileOwn(region);
  startSmoothed(cc, static_cast<float>(sampleRate) * 0.001f);
  std::array<LfoBank::StartAdds, kMaxFlexLfos> lfoStart{};
  readNoteStart(cc, lfoStart);
  followClock(list, lfoStart, frame, sampleRate);
  lfoFreqMod_.fill(0.0f);
  sumUp();
  sources_.flexLfos().setStepAdds(&stepAdds_);
  sources_.startControlRate(list, lfoStart, sampleRate, seed, &plan.curves());
  addSources();
  sources_.startPerFrame(targetSums(), velocity01, sampleRate);
}

// LFOs on the engine's clock (FlexLfo::clock) start where one LFO running since frame 0
// is at `frame`: their delay counted from frame 0, their phase turned on by the time
// since it ended (at the LFO's own frequency; what moves the frequency is not followed).
void VoiceMod::followClock(const RegionSources& list, std::array<LfoBank::StartAdds, kMaxFlexLfos>& lfoStart,
                           uint64_t frame, double sampleRate) noexcept SPINDLE_REALTIME {
  const double now = static_cast<double>(frame) / (sampleRate > 0.0 ? sampleRate : 48000.0);
  for (size_t k = 0; k < list.flexLfos.size() && k < lfoStart.size(); ++k) {
    const FlexLfo& l = list.flexLfos[k];
    if (l.clock == 0) continue;
    LfoBank::StartAdds& a = lfoStart[k];
    const double delay = static_cast<double>(l.delay + a.delay);
    const double running = now - delay;
    a.delay -= static_cast<float>(std::min(now, std::max(0.0, delay)));
    if (running <= 0.0) continue;
    const double turns = running * static_cast<double>(l.freq) * static_cast<double>(l.ratio);
    a.phase += static_cast<float>(turns - std::floor(turns));
  }
}

// The continuous slots and the crossfades start at their controllers' values (no glide).
void VoiceMod::startSmoothed(const ControllerState& cc, float framesPerMs) noexcept SPINDLE_REALTIME {
  const auto slots = plan_->continuous(*info_);
  for (size_t i = 0; i < slots.size(); ++i) {
    const float ms = slots[i].smoothMs >= 0.0f ? slots[i].smoothMs : kDefaultSmoothMs;
    smoothFrames_[i] = ms * framesPerMs;
    const float x = input(cc, slots[i].cc);
    const float v = contribution(slots[i], x);
    values_[i] = {v, v, 0.0f, 0, x};
  }
  fadeSmoothFrames_ = kDefaultSmoothMs * framesPerMs;
  const auto fades = plan_->fades(*info_);
  for (size_t i = 0; i < fades.size(); ++i) {
    const float x = input(cc, fades[i].cc);
    const float g = curves::ccCrossfadeGain(fades[i], x, info_->fadeCurve);
    fades_[i] = {g, g, 0.0f, 0, x};
  }
}

// The note-start slots, read once: into the sums, the flex EG points' additions, or the
// LFOs' start additions (`lfoStart`, delay, fade and phase).
void VoiceMod::readNoteStart(const ControllerState& cc,
                             std::array<LfoBank::StartAdds, kMaxFlexLfos>& lfoStart) noexcept SPINDLE_REALTIME {
  sums_.fill(0.0f);
  // The flex EG points' controller additions go straight into the bank (zeroed only for
  // a region with EGs: the table is a few KiB).
  FlexEgBank::PointAdds* points = info_->egs > 0 ? &sources_.flexEgs().clearPointAdds() : nullptr;
  envelopeSlots_ = 0;
  const auto noteStart = plan_->noteStart(*info_);
  for (size_t i = 0; i < noteStart.size(); ++i) {
    const CcModulation& m = noteStart[i];
    noteStartSource_[i] = input(cc, m.cc);
    envelopeSlots_ += envelopeOf(m) != 0 ? 1 : 0;
    const float c = contribution(m, noteStartSource_[i]);
    if (m.eg > 0 && m.eg <= kMaxFlexEgs && m.sub < FlexEg::kMaxPoints) {  // a flex EG point
      if (points) (m.target == ModTarget::EgTime ? points->time : points->level)[m.eg - 1u][m.sub] += c;
    } else if (m.lfo == 0) {
      sums_[static_cast<size_t>(m.target)] += c;
    } else if (m.lfo <= kMaxFlexLfos) {
      lfoStart[m.lfo - 1u].add(m.target, c);
    }
  }
}

// Goals follow the controllers; a controller that has not moved costs one compare.
void VoiceMod::retarget(const ControllerState& cc) noexcept SPINDLE_REALTIME {
  const auto slots = plan_->continuous(*info_);
  for (size_t i = 0; i < slots.size(); ++i) {
    const float x = input(cc, slots[i].cc);
    if (x == values_[i].source) continue;
    values_[i].source = x;
    setGoal(values_[i], contribution(slots[i], x), smoothFrames_[i]);
  }
  const auto fades = plan_->fades(*info_);
  for (size_t i = 0; i < fades.size(); ++i) {
    const float x = input(cc, fades[i].cc);
    if (x == fades_[i].source) continue;
    fades_[i].source = x;
    setGoal(fades_[i], curves::ccCrossfadeGain(fades[i], x, info_->fadeCurve), fadeSmoothFrames_);
  }
}

int VoiceMod::stepFrames(const ControllerState& cc, int frames, int maxStep) noexcept SPINDLE_REALTIME {
  retarget(cc);
  int64_t n = std::min(frames, maxStep);
  bool moving = false;
  for (size_t i = 0; i < info_->continuous; ++i) {
    if (values_[i].remaining <= 0) continue;
    moving = true;
    n = std::min(n, values_[i].remaining);
  }
  for (size_t i = 0; i < info_->fades; ++i) {
    if (fades_[i].remaining <= 0) continue;
    moving = true;
    n = std::min(n, fades_[i].remaining);
  }
  if (sources_.flexLfos().moving() || sources_.flexEgs().moving()) moving = true;
  return moving ? static_cast<int>(n) : frames;
}

void VoiceMod::advance(const ControllerState& cc, int frames) noexcept SPINDLE_REALTIME {
  retarget(cc);
  moveAll(frames);
}

void VoiceMod::saveStep() noexcept SPINDLE_REALTIME {
  std::copy_n(values_.begin(), info_->continuous, saved_.values.begin());
  std::copy_n(fades_.begin(), info_->fades, saved_.fades.begin());
  saved_.lfoFreqMod = lfoFreqMod_;
  sources_.flexLfos().save(saved_.lfos);
  sources_.flexEgs().save(saved_.egs);
}

void VoiceMod::cutStep(int frames) noexcept SPINDLE_REALTIME {
  std::copy_n(saved_.values.begin(), info_->continuous, values_.begin());
  std::copy_n(saved_.fades.begin(), info_->fades, fades_.begin());
  lfoFreqMod_ = saved_.lfoFreqMod;
  sources_.flexLfos().restore(saved_.lfos);
  sources_.flexEgs().restore(saved_.egs);
  moveAll(frames);
}

// Every continuous value and control-rate source `frames` frames on, then the sums.
void VoiceMod::moveAll(int frames) noexcept SPINDLE_REALTIME {
  for (size_t i = 0; i < info_->continuous; ++i) move(values_[i], frames);
  for (size_t i = 0; i < info_->fades; ++i) move(fades_[i], frames);
  sumUp();
  if (info_->lfos + info_->egs == 0) return;
  std::array<float, kMaxFlexLfos> freq{};
  for (size_t k = 0; k < freq.size(); ++k) freq[k] = lfoFreqAdds_[k] + lfoFreqMod_[k];
  sources_.flexLfos().advance(frames, freq.data());
  sources_.flexEgs().advance(frames);
  addSources();
}

float VoiceMod::contribution(const CcModulation& m, float x) const noexcept SPINDLE_REALTIME {
  return controlValue(m.depth, plan_->curves().eval(m.curve, x), m.step);
}

// A new goal: the value covers the remaining distance linearly in smoothFrames (whole
// frames, at least 1).
void VoiceMod::setGoal(Smoothed& s, float goal, float smoothFrames) noexcept SPINDLE_REALTIME {
  if (goal == s.goal) return;
  s.goal = goal;
  s.remaining = std::max<int64_t>(1, std::llround(smoothFrames));
  s.rate = (goal - s.value) / static_cast<float>(s.remaining);
}

void VoiceMod::move(Smoothed& s, int frames) noexcept SPINDLE_REALTIME {
  if (s.remaining <= 0) return;
  s.remaining -= frames;
  s.value = s.remaining <= 0 ? s.goal : s.value + s.rate * static_cast<float>(frames);
}

void VoiceMod::sumUp() noexcept SPINDLE_REALTIME {
  std::fill_n(sums_.begin(), kContinuousTargets, 0.0f);
  sums_[static_cast<size_t>(ModTarget::OscillatorModDepth)] = 1.0f;  // a product, as amplitude_
  amplitude_ = 1.0f;
  for (size_t k = 0; k < info_->lfos; ++k) lfoDepthAdds_[k].fill(0.0f);
  for (size_t k = 0; k < info_->egs; ++k) egDepthAdds_[k].fill(0.0f);
  if (info_->links > 0)
    for (auto& adds : linkAdds_) adds.fill(0.0f);
  for (size_t k = 0; k < info_->lfos; ++k) stepAdds_[k].fill(0.0f);
  lfoFreqAdds_.fill(0.0f);
  VariableTotals vars;
  const auto slots = plan_->continuous(*info_);
  for (size_t i = 0; i < slots.size(); ++i) addSlot(slots[i], values_[i].value, vars);
  addVariables(vars);
  crossfade_ = 1.0f;
  for (size_t i = 0; i < info_->fades; ++i) crossfade_ *= fades_[i].value;
}

// One continuous slot's value, where its target and source say.
void VoiceMod::addSlot(const CcModulation& slot, float value, VariableTotals& vars) noexcept SPINDLE_REALTIME {
  const size_t t = static_cast<size_t>(slot.target);
  if (slot.target == ModTarget::LfoStep) {  // a step of an LFO's sequence
    if (slot.lfo > 0 && slot.lfo <= info_->lfos && slot.sub >= 1 && slot.sub <= FlexLfo::kMaxSteps)
      stepAdds_[slot.lfo - 1u][slot.sub - 1u] += value;
  } else if (slot.target == ModTarget::LfoFreqLfo) {  // a source on an LFO's frequency
    const size_t source = slot.lfo > 0 ? slot.lfo - 1u : kMaxFlexLfos + slot.eg - 1u;
    if ((slot.lfo > 0 || slot.eg > 0) && slot.sub > 0 && source < linkAdds_.size())
      linkAdds_[source][slot.sub - 1u] += value;
  } else if (slot.target == ModTarget::Variable) {  // a source of a variable
    if (slot.sub == 0 || slot.sub > info_->vars) return;
    const size_t k = slot.sub - 1u;
    const bool mult = plan_->variables(*info_)[k].params.mult >= 0.5f;
    vars.value[k] = !vars.given[k] ? value : mult ? vars.value[k] * value : vars.value[k] + value;
    vars.given[k] = true;
  } else if (slot.lfo > 0) {  // an LFO's depth or frequency
    const size_t k = slot.lfo - 1u;
    if (k >= info_->lfos) return;
    (slot.target == ModTarget::LfoFreq ? lfoFreqAdds_[k] : lfoDepthAdds_[k][t]) += value;
  } else if (slot.eg > 0) {  // a flex EG's depth
    if (slot.eg <= info_->egs && t < FlexLfo::kDepths) egDepthAdds_[slot.eg - 1u][t] += value;
  } else if (slot.target == ModTarget::Amplitude) {
    amplitude_ *= value * 0.01f;
  } else if (slot.target == ModTarget::OscillatorModDepth) {
    sums_[t] *= value * 0.01f;
  } else {
    sums_[t] += value;
  }
}

namespace {

// A source's value times its depth on each target its mask names.
template <class Params, class Adds>
void addSource(float v, uint64_t mask, const Params& p, const Adds& adds, std::span<float> sums,
               float& amplitude) noexcept SPINDLE_REALTIME {
  for (; mask != 0; mask &= mask - 1) {
    const auto t = static_cast<size_t>(std::countr_zero(mask));
    const float depth = p.depth[t] + adds[t];
    if (t == static_cast<size_t>(ModTarget::Amplitude))
      amplitude *= std::max(0.0f, 1.0f + 0.01f * depth * v);
    else
      sums[t] += depth * v;
  }
}

}  // namespace

// Each variable's value (0 with no source) times its depths.
void VoiceMod::addVariables(const VariableTotals& vars) noexcept SPINDLE_REALTIME {
  static constexpr std::array<float, kContinuousTargets> kNoAdds{};
  const auto list = plan_->variables(*info_);
  for (size_t k = 0; k < list.size(); ++k)
    addSource(vars.value[k], list[k].targets, list[k].params, kNoAdds, sums_, amplitude_);
}

// Each control-rate source's value times its depth on each target it moves; then the
// sources' moves of the LFO frequencies, for the next step.
void VoiceMod::addSources() noexcept SPINDLE_REALTIME {
  const LfoBank& lfos = sources_.flexLfos();
  const FlexEgBank& egs = sources_.flexEgs();
  const RegionSources& list = sources_.list();
  std::array<float, kMaxFlexLfos> scale;
  scale.fill(1.0f);
  if (info_->depthLinks) depthScales(scale);
  for (const ModSource& s : list.list) {
    if (s.kind == SourceKind::FlexLfo) {
      const float v = lfos.value(s.slot) * scale[s.slot];
      addSource(v, s.targets, list.flexLfos[s.params], lfoDepthAdds_[s.slot], sums_, amplitude_);
    } else if (s.kind == SourceKind::FlexEg) {
      addEg(s, egs.value(s.slot));
    }
  }
  lfoFreqMod_.fill(0.0f);
  for (const SourceLink& link : plan_->links(*info_)) {
    if (link.kind != LinkKind::Freq) continue;
    const float v = link.source < kMaxFlexLfos ? linkSource(link.source) * scale[link.source] : linkSource(link.source);
    lfoFreqMod_[link.target] += v * (link.depth + linkAdds_[link.source][link.target]);
  }
}

// A source of a link: an LFO entry's value, or (from kMaxFlexLfos) a flex EG's.
float VoiceMod::linkSource(size_t source) const noexcept SPINDLE_REALTIME {
  const LfoBank& lfos = sources_.flexLfos();
  const FlexEgBank& egs = sources_.flexEgs();
  const size_t eg = source - kMaxFlexLfos;
  return source < kMaxFlexLfos ? (source < lfos.size() ? lfos.value(source) : 0.0f)
                               : (eg < egs.size() ? egs.value(eg) : 0.0f);
}

// Each LFO's output scale from the sources holding its depth (ModPlan.h LinkKind).
void VoiceMod::depthScales(std::array<float, kMaxFlexLfos>& scale) const noexcept SPINDLE_REALTIME {
  std::array<float, kMaxFlexLfos> added{};
  for (const SourceLink& link : plan_->links(*info_)) {
    if (link.kind == LinkKind::Freq) continue;
    const float v = linkSource(link.source) * link.depth * 0.01f;
    if (link.kind == LinkKind::DepthAdd) {
      added[link.target] += v;
    } else {
      scale[link.target] *= v;
    }
  }
  for (size_t k = 0; k < scale.size(); ++k) scale[k] += added[k];
}

// A flex EG's value times its depths; its pan through egN_pan_curve when given; its
// level as the amplitude when it replaces ampeg.
void VoiceMod::addEg(const ModSource& s, float v) noexcept SPINDLE_REALTIME {
  const FlexEg& eg = sources_.list().flexEgs[s.params];
  constexpr auto kPan = static_cast<size_t>(ModTarget::Pan);
  uint64_t targets = s.targets;
  if (eg.panCurve >= 0.0f && (targets & (1ull << kPan))) {
    targets &= ~(1ull << kPan);
    const int curve = static_cast<int>(eg.panCurve);
    const float shaped = v >= 0.0f ? plan_->curves().eval(curve, v) : -plan_->curves().eval(curve, -v);
    sums_[kPan] += (eg.depth[kPan] + egDepthAdds_[s.slot][kPan]) * shaped;
  }
  addSource(v, targets, eg, egDepthAdds_[s.slot], sums_, amplitude_);
  if (s.slot + 1u == info_->ampegEg) amplitude_ *= std::max(0.0f, v);
}

}  // namespace spindle::engine::mod
