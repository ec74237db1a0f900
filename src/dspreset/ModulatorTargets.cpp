// Modulators::apply: each binding reaching a region's group, as the region modulation
// dspreset/Modulators.h describes.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>

#include "dspreset/ModulatorSpec.h"
#include "dspreset/Modulators.h"

namespace spindle::dspreset {

namespace {

using Kind = SourceSpec::Kind;

// "3dB" -> the factor of 3 dB; a plain number is the factor itself.
double factor(const pugi::xml_attribute& a) {
  if (!a) return 1.0;
  const std::string text = a.as_string();
  if (text.size() > 2 && (text.ends_with("dB") || text.ends_with("db") || text.ends_with("DB")))
    return std::pow(10.0, a.as_double(0.0) / 20.0);
  return a.as_double(1.0);
}

// DecentSampler's filter Q as the region's resonance: dB over Q 1/sqrt(2), as the
// group's filter effects set it (dspreset/GroupEffects.h).
double resonanceDb(double q) { return 20.0 * std::log10(std::max(q, 0.001) * std::numbers::sqrt2); }

// The region's filter `position` (0 first, 1 second) from the group's filter effect, when
// nothing has set it yet: type, frequency, and the resonance Q as dB over 0.7071.
void groupFilter(const pugi::xml_node& group, int position, Region& r) {
  const pugi::xml_node e = filterEffect(group, position);
  const std::string type = e.attribute("type").as_string();
  const FilterType t = type == "lowpass_1pl"   ? FilterType::Lpf1p
                       : type == "lowpass_4pl" ? FilterType::Lpf4p
                       : type == "highpass"    ? FilterType::Hpf2p
                       : type == "bandpass"    ? FilterType::Bpf2p
                       : type == "notch"       ? FilterType::Brf2p
                       : type == "peak"        ? FilterType::Peq
                                               : FilterType::Lpf2p;
  const float hz = std::clamp(e.attribute("frequency").as_float(22000.0f), 0.0f, 22000.0f);
  const float q = std::max(0.001f, e.attribute("resonance").as_float(e.attribute("q").as_float(0.7071f)));
  const auto db = static_cast<float>(resonanceDb(q));
  if (position == 0) r.filType = t, r.cutoff = hz, r.resonance = db;
  else r.fil2Type = t, r.cutoff2 = hz, r.resonance2 = db;
}

// The parameter's unmodulated value P0 in the preset's units.
double baseValue(const BindingSpec& b, const pugi::xml_node& group, const pugi::xml_node& groups, const Region& r) {
  const pugi::xml_node level = b.instrument ? groups : group;
  switch (b.param) {
    case Param::Volume: return factor(level.attribute("volume"));
    case Param::Tuning: return level.attribute(b.instrument ? "globalTuning" : "groupTuning").as_double(0.0);
    case Param::Pan: return level.attribute("pan").as_double(0.0);
    case Param::EnvAttack: return r.ampeg.attack;
    case Param::EnvDecay: return r.ampeg.decay;
    case Param::EnvSustain: return static_cast<double>(r.ampeg.sustain) * 0.01;
    case Param::EnvRelease: return r.ampeg.release;
    case Param::FilterFrequency:
      return filterEffect(group, filterPosition(group, b.effect)).attribute("frequency").as_double(22000.0);
    case Param::FilterResonance:
      return filterEffect(group, filterPosition(group, b.effect)).attribute("resonance").as_double(0.7);
  }
  return 0.0;
}

// P(x) = p0 + p1 x for the source value x in 0..1 (modAmount applied).
struct Affine {
  double p0 = 0.0, p1 = 0.0;
};

double combined(BindingSpec::Behavior how, double base, double t) {
  return how == BindingSpec::Behavior::Add ? base + t : how == BindingSpec::Behavior::Multiply ? base * t : t;
}

// The target a parameter moves and its units per preset unit (Volume: a gain factor).
std::pair<ModTarget, double> targetOf(Param p, int filter) {
  switch (p) {
    case Param::Volume: return {ModTarget::Amplitude, 100.0};
    case Param::Tuning: return {ModTarget::Pitch, 100.0};
    case Param::Pan: return {ModTarget::Pan, 1.0};
    case Param::EnvAttack: return {ModTarget::AmpegAttack, 1.0};
    case Param::EnvDecay: return {ModTarget::AmpegDecay, 1.0};
    case Param::EnvSustain: return {ModTarget::AmpegSustain, 100.0};
    case Param::EnvRelease: return {ModTarget::AmpegRelease, 1.0};
    case Param::FilterFrequency: break;
    case Param::FilterResonance: return {filter == 0 ? ModTarget::Resonance : ModTarget::Resonance2, 1.0};
  }
  return {filter == 0 ? ModTarget::CutoffHz : ModTarget::Cutoff2Hz, 1.0};
}

Affine modulated(const BindingSpec& b, double base, double amount) {
  const double t0 = b.t0, t1 = static_cast<double>(b.t1) * amount;
  switch (b.behavior) {
    case BindingSpec::Behavior::Add: return {base + t0, t1};
    case BindingSpec::Behavior::Multiply: return {base * t0, base * t1};
    case BindingSpec::Behavior::Set: break;
  }
  return {t0, t1};
}

class Emitter {
 public:
  Emitter(Modulators::Impl& impl, const SourceSpec& s, Region& r) : impl_(impl), s_(s), r_(r) {}

  // The source at depth `depth` on target t: t moves by depth x.
  void add(ModTarget t, float depth) {
    if (s_.kind == Kind::Velocity || s_.kind == Kind::Cc) return slot(t, depth, 0);
    if (static_cast<int>(t) >= FlexLfo::kDepths) return;  // note-start targets: read() keeps them from these
    if (s_.kind == Kind::Envelope) return eg(t, depth);
    lfo(t, depth, 0.0f);
  }

  // A controller source through a curve of the target's values at the 128 controller values.
  void curveSlot(ModTarget t, float depth, const std::array<float, 128>& points) { slot(t, depth, curve(points)); }

  // The amplitude by the factor f0 + f1 x.
  void amplitude(double f0, double f1) {
    if (s_.kind == Kind::Velocity || s_.kind == Kind::Cc) return slot(ModTarget::Amplitude, 100.0f, curve(f0, f1));
    if (f0 > 1e-6) {  // f0 into the volume; the source scales it by 1 + (f1 / f0) x
      r_.volume += static_cast<float>(20.0 * std::log10(f0));
      if (s_.kind == Kind::Envelope) return eg(ModTarget::Amplitude, static_cast<float>(100.0 * f1 / f0));
      return lfo(ModTarget::Amplitude, static_cast<float>(100.0 * f1 / f0), 0.0f);
    }
    if (s_.kind == Kind::Envelope || s_.delay > 0.0f)
      return problem("AMP_VOLUME bindings whose gain is 0 at the modulator's 0, from an envelope or a delayed LFO",
                     "the voice's gain can only be scaled around a level above 0");
    lfo(ModTarget::Amplitude, static_cast<float>(100.0 * f1), static_cast<float>(100.0 * (f0 - 1.0)));
  }

 private:
  // A flex LFO whose wave reads 0..1: value = depth x (+ offset, in target units / depth).
  void lfo(ModTarget t, float depth, float offset) {
    if (r_.lfos.size() >= static_cast<size_t>(kMaxFlexLfos)) return problem("more than 8 LFO or random bindings on a sample");
    FlexLfo l;
    l.number = static_cast<int>(r_.lfos.size()) + 1;
    l.freq = s_.freq, l.delay = s_.delay, l.wave = s_.wave, l.seed = s_.seed, l.clock = s_.clock;
    l.scale = s_.unipolar ? 1.0f : 0.5f;
    l.offset = (s_.unipolar ? 0.0f : 0.5f) + (depth != 0.0f ? offset / depth : 0.0f);
    l.depth[static_cast<size_t>(t)] = depth;
    r_.lfos.push_back(l);
  }

  void eg(ModTarget t, float depth) {
    if (r_.egs.size() >= static_cast<size_t>(kMaxFlexEgs)) return problem("more than 4 envelope bindings on a sample");
    FlexEg e;
    e.number = static_cast<int>(r_.egs.size()) + 1;
    e.points = 3, e.sustain = 1.0f;
    e.point[0] = {s_.attack, 1.0f, s_.attackShape};
    e.point[1] = {s_.decay, s_.sustain, s_.decayShape};
    e.point[2] = {s_.release, 0.0f, s_.releaseShape};
    e.depth[static_cast<size_t>(t)] = depth;
    r_.egs.push_back(e);
  }

  void slot(ModTarget t, float depth, int curveIndex) {
    if (curveIndex < 0) return;
    if (r_.ccModulationCount >= kMaxCcModulations) return problem("more than 32 controller modulations on a sample");
    CcModulation m;
    m.cc = static_cast<uint16_t>(s_.kind == Kind::Velocity ? 131 : s_.cc);
    m.target = t, m.depth = depth, m.curve = static_cast<uint8_t>(curveIndex);
    r_.ccModulations[r_.ccModulationCount++] = m;
  }

  // A generated curve of f0 + f1 x.
  int curve(double f0, double f1) {
    std::array<float, 128> points{};
    for (size_t i = 0; i < points.size(); ++i) points[i] = static_cast<float>(f0 + f1 * static_cast<double>(i) / 127.0);
    return curve(points);
  }

  // A generated curve (index from the top of the table down), or -1.
  int curve(const std::array<float, 128>& points) {
    for (const instrument::Curve& c : impl_.out->curves)
      if (c.index > impl_.nextCurve && c.points == points) return c.index;
    if (impl_.nextCurve < 7) return problem("more controller bindings with curves than free curves"), -1;
    impl_.out->curves.push_back({impl_.nextCurve, points});
    return impl_.nextCurve--;
  }

  void problem(const std::string& what, const std::string& why = "the region has no room for more") {
    if (impl_.report->firstTime("modulators: " + what))
      impl_.report->warning(impl_.out->path.string(), 0, what + " not played (" + why + ")");
  }

  Modulators::Impl& impl_;
  const SourceSpec& s_;
  Region& r_;
};

// A table binding, or any on a resonance (velocity, CC): the change from P0 at each
// controller value as a curve (Volume: the gain factor P / P0, on the amplitude in
// percent; a resonance: its dB less P0's).
void addTableBinding(Modulators::Impl& impl, const BindingSpec& b, const pugi::xml_node& group, Region& r) {
  const SourceSpec& s = impl.sources[b.source];
  const double base = baseValue(b, group, impl.groups, r);
  const bool onFilter = b.param == Param::FilterFrequency || b.param == Param::FilterResonance;
  const int filter = onFilter ? filterPosition(group, b.effect) : 0;
  if (onFilter && (filter == 0 ? r.cutoff : r.cutoff2) < 0.0f) groupFilter(group, filter, r);
  if (b.param == Param::Volume && base <= 0.0) return;
  const auto [target, unit] = targetOf(b.param, filter);
  std::array<float, 128> points{};
  for (size_t i = 0; i < points.size(); ++i) {
    const double p = combined(b.behavior, base, b.translate(s.amount * static_cast<float>(i) / 127.0f));
    points[i] = static_cast<float>(b.param == Param::Volume            ? p / base
                                   : b.param == Param::FilterResonance ? resonanceDb(p) - resonanceDb(base)
                                                                       : (p - base) * unit);
  }
  Emitter(impl, s, r).curveSlot(target, b.param == Param::Volume ? 100.0f : 1.0f, points);
}

void addBinding(Modulators::Impl& impl, const BindingSpec& b, const pugi::xml_node& group, Region& r) {
  if (!b.table.empty() || b.param == Param::FilterResonance) return addTableBinding(impl, b, group, r);
  const SourceSpec& s = impl.sources[b.source];
  const double base = baseValue(b, group, impl.groups, r);
  const Affine p = modulated(b, base, s.amount);
  Emitter emit(impl, s, r);
  const auto d1 = static_cast<float>(p.p1);
  const auto d0 = static_cast<float>(p.p0 - base);
  switch (b.param) {
    case Param::Volume:
      if (base > 0.0) emit.amplitude(p.p0 / base, p.p1 / base);
      return;
    case Param::Tuning: return r.tune += 100.0f * d0, emit.add(ModTarget::Pitch, 100.0f * d1);
    case Param::Pan: return r.pan = std::clamp(r.pan + d0, -100.0f, 100.0f), emit.add(ModTarget::Pan, d1);
    case Param::EnvAttack: return r.ampeg.attack = std::max(0.0f, r.ampeg.attack + d0), emit.add(ModTarget::AmpegAttack, d1);
    case Param::EnvDecay: return r.ampeg.decay = std::max(0.0f, r.ampeg.decay + d0), emit.add(ModTarget::AmpegDecay, d1);
    case Param::EnvSustain:
      return r.ampeg.sustain = std::clamp(r.ampeg.sustain + 100.0f * d0, 0.0f, 100.0f),
             emit.add(ModTarget::AmpegSustain, 100.0f * d1);
    case Param::EnvRelease:
      return r.ampeg.release = std::max(0.001f, r.ampeg.release + d0), emit.add(ModTarget::AmpegRelease, d1);
    case Param::FilterFrequency:
    case Param::FilterResonance: break;
  }
  const int position = filterPosition(group, b.effect);
  if ((position == 0 ? r.cutoff : r.cutoff2) < 0.0f) groupFilter(group, position, r);
  float& cutoff = position == 0 ? r.cutoff : r.cutoff2;
  cutoff = std::max(0.0f, cutoff + d0);
  emit.add(position == 0 ? ModTarget::CutoffHz : ModTarget::Cutoff2Hz, d1);
}

}  // namespace

void Modulators::apply(int groupIndex, Region& r) const {
  pugi::xml_node group;
  int index = 0;
  for (const pugi::xml_node& g : impl_->groups.children("group"))
    if (index++ == groupIndex) group = g;
  for (const BindingSpec& b : impl_->bindings) {
    if (!b.instrument && std::find(b.groups.begin(), b.groups.end(), groupIndex) == b.groups.end()) continue;
    if ((b.param == Param::FilterFrequency || b.param == Param::FilterResonance) && !group) continue;
    addBinding(*impl_, b, group, r);
  }
}

}  // namespace spindle::dspreset
