#include "dspreset/ControlRegions.h"

#include <algorithm>
#include <cmath>

namespace spindle::dspreset {

namespace {

constexpr int kFirstCurve = 7;  // after the built-in curves 0..6; presets define none
constexpr int kLastCurve = 255;
constexpr size_t kMaxCopies = 64;  // region copies per sample, over all gating controls

// The settings a control moves through modulation, with the engine's target for each.
struct Field {
  ModTarget target;
  float (*get)(const Region&);
};
constexpr Field kFields[] = {
    {ModTarget::Volume, [](const Region& r) { return r.volume; }},
    {ModTarget::Pan, [](const Region& r) { return r.pan; }},
    {ModTarget::Pitch, [](const Region& r) { return r.tune; }},
    {ModTarget::AmpVeltrack, [](const Region& r) { return r.ampVeltrack; }},
    {ModTarget::AmpegAttack, [](const Region& r) { return r.ampeg.attack; }},
    {ModTarget::AmpegDecay, [](const Region& r) { return r.ampeg.decay; }},
    {ModTarget::AmpegSustain, [](const Region& r) { return r.ampeg.sustain; }},
    {ModTarget::AmpegRelease, [](const Region& r) { return r.ampeg.release; }},
    // A group's effects (GroupEffects.h): the filters' cutoffs in cents above 1 Hz.
    {ModTarget::Cutoff, [](const Region& r) { return r.cutoff > 0.0f ? 1200.0f * std::log2(r.cutoff) : 0.0f; }},
    {ModTarget::Resonance, [](const Region& r) { return r.resonance; }},
    {ModTarget::Cutoff2, [](const Region& r) { return r.cutoff2 > 0.0f ? 1200.0f * std::log2(r.cutoff2) : 0.0f; }},
    {ModTarget::Resonance2, [](const Region& r) { return r.resonance2; }},
    {ModTarget::Eq1Freq, [](const Region& r) { return r.eq[0].freq; }},
    {ModTarget::Eq1Bw, [](const Region& r) { return r.eq[0].bw; }},
    {ModTarget::Eq1Gain, [](const Region& r) { return r.eq[0].gain; }},
    {ModTarget::Eq2Freq, [](const Region& r) { return r.eq[1].freq; }},
    {ModTarget::Eq2Bw, [](const Region& r) { return r.eq[1].bw; }},
    {ModTarget::Eq2Gain, [](const Region& r) { return r.eq[1].gain; }},
    {ModTarget::Eq3Freq, [](const Region& r) { return r.eq[2].freq; }},
    {ModTarget::Eq3Bw, [](const Region& r) { return r.eq[2].bw; }},
    {ModTarget::Eq3Gain, [](const Region& r) { return r.eq[2].gain; }},
    // Its wave_folder and wave_shaper: the shaper stages' parameters.
    {ModTarget::Shaper1Drive, [](const Region& r) { return r.shapers[0].drive; }},
    {ModTarget::Shaper1Threshold, [](const Region& r) { return r.shapers[0].threshold; }},
    {ModTarget::Shaper1DriveBoost, [](const Region& r) { return r.shapers[0].driveBoost; }},
    {ModTarget::Shaper1OutputLevel, [](const Region& r) { return r.shapers[0].outputLevel; }},
    {ModTarget::Shaper2Drive, [](const Region& r) { return r.shapers[1].drive; }},
    {ModTarget::Shaper2Threshold, [](const Region& r) { return r.shapers[1].threshold; }},
    {ModTarget::Shaper2DriveBoost, [](const Region& r) { return r.shapers[1].driveBoost; }},
    {ModTarget::Shaper2OutputLevel, [](const Region& r) { return r.shapers[1].outputLevel; }},
};

bool sameGate(const Built& a, const Built& b) {
  return a.enabled == b.enabled && a.region.polyphony == b.region.polyphony && a.region.group == b.region.group;
}

}  // namespace

void ControlRegions::problem(std::string what) {
  if (std::find(problems.begin(), problems.end(), what) == problems.end()) problems.push_back(std::move(what));
}

int ControlRegions::curveFor(const std::vector<float>& points) {
  const auto it = std::find(curves_.begin(), curves_.end(), points);
  if (it != curves_.end()) return kFirstCurve + static_cast<int>(it - curves_.begin());
  if (kFirstCurve + static_cast<int>(curves_.size()) > kLastCurve) return -1;
  curves_.push_back(points);
  return kFirstCurve + static_cast<int>(curves_.size()) - 1;
}

void ControlRegions::modulate(Region& r, int control, int target, const std::vector<float>& delta) {
  const int curve = curveFor(delta);
  if (curve < 0) return problem("controls needing more than 249 distinct curves");
  if (r.ccModulationCount >= kMaxCcModulations) return problem("more control settings on one sample than it can take");
  CcModulation& m = r.ccModulations[r.ccModulationCount++];
  m = CcModulation{};
  m.cc = static_cast<uint16_t>(controls_[static_cast<size_t>(control)].cc);
  m.target = kFields[target].target;
  m.curve = static_cast<uint8_t>(curve);
  m.depth = 1.0f;
}

// What control c does to a sample: each moving field's difference from the base at every
// CC value, and the runs of CC values that agree on enabled and polyphony.
ControlRegions::Effect ControlRegions::effectOf(int c, const Built& base, const Build& build) const {
  const Control& control = controls_[static_cast<size_t>(c)];
  std::vector<Built> at;
  for (size_t p = 0; p < control.positions.size(); ++p) at.push_back(build(c, static_cast<int>(p)));
  const auto atValue = [&](int v) -> const Built& { return at[static_cast<size_t>(control.positionOf(v))]; };
  Effect e;
  for (int f = 0; f < static_cast<int>(std::size(kFields)); ++f) {
    std::vector<float> delta(128);
    bool moves = false;
    for (int v = 0; v < 128; ++v) {
      delta[static_cast<size_t>(v)] = kFields[f].get(atValue(v).region) - kFields[f].get(base.region);
      moves = moves || std::abs(delta[static_cast<size_t>(v)]) > 1e-6f;
    }
    if (moves) e.deltas.emplace_back(f, std::move(delta));
  }
  for (int v = 0; v < 128; ++v) {
    const Built& b = atValue(v);
    e.gating = e.gating || !sameGate(b, base);
    if (!e.runs.empty() && sameGate(b, atValue(e.runs.back().lo))) {
      e.runs.back().hi = v;
    } else {
      e.runs.push_back({c, v, v, b.enabled, b.region.polyphony, b.region.group});
    }
  }
  return e;
}

void ControlRegions::add(const Build& build, const Reaches& reaches, const Signature& signature) {
  Built base = build(-1, 0);
  std::vector<std::vector<Gate>> gates;  // per gating control, its runs
  cache_.resize(controls_.size());
  for (size_t c = 0; c < controls_.size(); ++c) {
    if (!reaches(static_cast<int>(c))) continue;
    const std::string key = signature(static_cast<int>(c));
    auto it = cache_[c].find(key);
    if (it == cache_[c].end()) it = cache_[c].emplace(key, effectOf(static_cast<int>(c), base, build)).first;
    const Effect& e = it->second;
    for (const auto& [field, delta] : e.deltas) modulate(base.region, static_cast<int>(c), field, delta);
    if (e.gating) gates.push_back(e.runs);
  }
  emit(base, gates);
}

// One copy per combination of the gating controls' runs that plays.
void ControlRegions::emit(const Built& base, const std::vector<std::vector<Gate>>& gates) {
  size_t combinations = 1;
  for (const auto& runs : gates) combinations *= runs.size();
  if (combinations > kMaxCopies) {
    problem("more than 64 combinations of control positions switching one sample (it follows the initial ones)");
    combinations = 1;
  }
  for (size_t k = 0; k < combinations; ++k) {
    Region r = base.region;
    bool flipped = false;
    size_t rest = k;
    if (combinations > 1) {
      for (const auto& runs : gates) {
        const Gate& g = runs[rest % runs.size()];
        rest /= runs.size();
        flipped = flipped || g.enabled != base.enabled;
        if (g.polyphony != base.region.polyphony || g.group != base.region.group)
          r.polyphony = g.polyphony, r.group = g.group;
        const float lo = std::max(0.0f, (static_cast<float>(g.lo) - 0.5f) / 127.0f);
        const float hi = std::min(1.0f, (static_cast<float>(g.hi) + 0.5f) / 127.0f);
        r.ccConditions.push_back({static_cast<uint16_t>(controls_[static_cast<size_t>(g.control)].cc), lo, hi});
      }
    }
    if (base.enabled == flipped) continue;  // enabled XOR flipped: plays
    out_.regions.push_back(std::move(r));
    out_.origins.push_back({out_.path.string(), 0});
  }
}

void ControlRegions::finish() {
  for (size_t i = 0; i < curves_.size(); ++i) {
    instrument::Curve c;
    c.index = kFirstCurve + static_cast<int>(i);
    std::copy(curves_[i].begin(), curves_[i].end(), c.points.begin());
    out_.curves.push_back(c);
  }
}

}  // namespace spindle::dspreset
