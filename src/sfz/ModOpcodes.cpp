// The controller modulation opcodes and the SFZ v2 LFOs' (lfoN_*): for each target its X_onccN (and the v1 spelling
// X_ccN), X_curveccN, X_smoothccN, X_stepccN, the _chanaft/_polyaft forms, and the
// crossfades by controller. Generated once from a list of families; every name lives
// in a static store, so the OpcodeSpec string_views stay valid for the program's life.
#include <deque>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "core/Controllers.h"
#include "sfz/OpcodeTable.h"
#include "sfz/Text.h"

namespace spindle::sfz {

namespace {

using T = ModTarget;

// One target's opcode names. v1 is the SFZ v1 spelling of X_onccN ("" when none);
// alias is a second prefix accepted for every form (tune_ for pitch_).
struct Family {
  T target;
  std::string_view prefix, v1, alias;
  double lo, hi;  // depth range
  bool continuous = true;  // smoothcc/stepcc exist only for continuous targets
};

// Depth ranges: the reference's where it gives one, else what the engine can play.
const Family kFamilies[] = {
    {T::Amplitude, "amplitude", "amplitude_ccN", "", -100, 100},
    {T::Volume, "volume", "gain_ccN", "gain", -144, 48},
    {T::Pan, "pan", "pan_ccN", "", -200, 200},
    {T::Width, "width", "", "", -200, 200},
    {T::Position, "position", "", "", -200, 200},
    {T::Pitch, "pitch", "tune_ccN", "tune", -9600, 9600},
    {T::Cutoff, "cutoff", "cutoff_ccN", "", -9600, 9600},
    {T::Resonance, "resonance", "resonance_ccN", "", -40, 40},
    {T::Cutoff2, "cutoff2", "cutoff2_ccN", "", -9600, 9600},
    {T::Resonance2, "resonance2", "resonance2_ccN", "", -40, 40},
    {T::FilGain, "fil_gain", "", "", -96, 96},
    {T::Fil2Gain, "fil2_gain", "", "", -96, 96},
    {T::AmpVeltrack, "amp_veltrack", "amp_veltrack_ccN", "", -100, 100},
    {T::AmplfoDepth, "amplfo_depth", "amplfo_depthccN", "", -10, 10},
    {T::AmplfoFreq, "amplfo_freq", "amplfo_freqccN", "", -200, 200},
    {T::FillfoDepth, "fillfo_depth", "fillfo_depthccN", "", -1200, 1200},
    {T::FillfoFreq, "fillfo_freq", "fillfo_freqccN", "", -200, 200},
    {T::PitchlfoDepth, "pitchlfo_depth", "pitchlfo_depthccN", "", -1200, 1200},
    {T::PitchlfoFreq, "pitchlfo_freq", "pitchlfo_freqccN", "", -200, 200},
    {T::Eq1Freq, "eq1_freq", "eq1_freqccN", "", -30000, 30000},
    {T::Eq1Bw, "eq1_bw", "eq1_bwccN", "", -4, 4},
    {T::Eq1Gain, "eq1_gain", "eq1_gainccN", "", -96, 24},
    {T::Eq2Freq, "eq2_freq", "eq2_freqccN", "", -30000, 30000},
    {T::Eq2Bw, "eq2_bw", "eq2_bwccN", "", -4, 4},
    {T::Eq2Gain, "eq2_gain", "eq2_gainccN", "", -96, 24},
    {T::Eq3Freq, "eq3_freq", "eq3_freqccN", "", -30000, 30000},
    {T::Eq3Bw, "eq3_bw", "eq3_bwccN", "", -4, 4},
    {T::Eq3Gain, "eq3_gain", "eq3_gainccN", "", -96, 24},
    {T::OscillatorDetune, "oscillator_detune", "", "", -12000, 12000},
    {T::OscillatorModDepth, "oscillator_mod_depth", "", "", -10000, 10000},
    {T::Offset, "offset", "offset_ccN", "", -kMaxFrames, kMaxFrames, false},
    {T::Delay, "delay", "delay_ccN", "", -100, 100, false},
    {T::DelaySamples, "delay_samples", "", "", -kMaxFrames, kMaxFrames, false},
    {T::DelayBeats, "delay_beats", "", "", -1000, 1000, false},
    {T::LoopStart, "loop_start", "loop_startccN", "", -kMaxFrames, kMaxFrames, false},
    {T::LoopEnd, "loop_length", "loop_lengthccN", "", -kMaxFrames, kMaxFrames, false},
    {T::AmpegDelay, "ampeg_delay", "ampeg_delayccN", "", -100, 100, false},
    {T::AmpegStart, "ampeg_start", "ampeg_startccN", "", -100, 100, false},
    {T::AmpegAttack, "ampeg_attack", "ampeg_attackccN", "", -100, 100, false},
    {T::AmpegHold, "ampeg_hold", "ampeg_holdccN", "", -100, 100, false},
    {T::AmpegDecay, "ampeg_decay", "ampeg_decayccN", "", -100, 100, false},
    {T::AmpegSustain, "ampeg_sustain", "ampeg_sustainccN", "", -100, 100, false},
    {T::AmpegRelease, "ampeg_release", "ampeg_releaseccN", "", -100, 100, false},
    {T::FilegDelay, "fileg_delay", "fileg_delayccN", "", -100, 100, false},
    {T::FilegStart, "fileg_start", "fileg_startccN", "", -100, 100, false},
    {T::FilegAttack, "fileg_attack", "fileg_attackccN", "", -100, 100, false},
    {T::FilegHold, "fileg_hold", "fileg_holdccN", "", -100, 100, false},
    {T::FilegDecay, "fileg_decay", "fileg_decayccN", "", -100, 100, false},
    {T::FilegSustain, "fileg_sustain", "fileg_sustainccN", "", -100, 100, false},
    {T::FilegRelease, "fileg_release", "fileg_releaseccN", "", -100, 100, false},
    {T::FilegDepth, "fileg_depth", "fileg_depthccN", "", -12000, 12000, false},
    {T::PitchegDelay, "pitcheg_delay", "pitcheg_delayccN", "", -100, 100, false},
    {T::PitchegStart, "pitcheg_start", "pitcheg_startccN", "", -100, 100, false},
    {T::PitchegAttack, "pitcheg_attack", "pitcheg_attackccN", "", -100, 100, false},
    {T::PitchegHold, "pitcheg_hold", "pitcheg_holdccN", "", -100, 100, false},
    {T::PitchegDecay, "pitcheg_decay", "pitcheg_decayccN", "", -100, 100, false},
    {T::PitchegSustain, "pitcheg_sustain", "pitcheg_sustainccN", "", -100, 100, false},
    {T::PitchegRelease, "pitcheg_release", "pitcheg_releaseccN", "", -100, 100, false},
    {T::PitchegDepth, "pitcheg_depth", "pitcheg_depthccN", "", -12000, 12000, false},
};

// A target, the name it takes in a family of opcodes, and its depth range.
struct NamedTarget {
  T target;
  std::string_view name;
  double lo, hi;
};

// Aftertouch forms: X_chanaft / X_polyaft (v1 LFO spelling has no underscore).
const NamedTarget kAftertouch[] = {
    {T::Cutoff, "cutoff_", -9600, 9600},           {T::Cutoff2, "cutoff2_", -9600, 9600},
    {T::AmplfoDepth, "amplfo_depth", -10, 10},
    {T::AmplfoFreq, "amplfo_freq", -200, 200},     {T::FillfoDepth, "fillfo_depth", -1200, 1200},
    {T::FillfoFreq, "fillfo_freq", -200, 200},     {T::PitchlfoDepth, "pitchlfo_depth", -1200, 1200},
    {T::PitchlfoFreq, "pitchlfo_freq", -200, 200},
};

constexpr std::string_view kVariableModes[] = {"add", "mult"};  // ModVariable::mult

// lfoN_<name>: the LFO's depth on a continuous target (lfoN_pitch...), and its own
// parameters (lfoN_freq...), each with the controller forms where the reference has them.
const NamedTarget kLfoDepths[] = {
    {T::Pitch, "pitch", -9600, 9600},      {T::Volume, "volume", -144, 48},
    {T::Amplitude, "amplitude", -100, 100}, {T::Pan, "pan", -200, 200},
    {T::Width, "width", -200, 200},        {T::Cutoff, "cutoff", -9600, 9600},
    {T::Resonance, "resonance", -40, 40},  {T::Cutoff2, "cutoff2", -9600, 9600},
    {T::Resonance2, "resonance2", -40, 40}, {T::Eq1Freq, "eq1freq", -30000, 30000},
    {T::Eq1Bw, "eq1bw", -4, 4},            {T::Eq1Gain, "eq1gain", -96, 96},
    {T::Eq2Freq, "eq2freq", -30000, 30000}, {T::Eq2Bw, "eq2bw", -4, 4},
    {T::Eq2Gain, "eq2gain", -96, 96},      {T::Eq3Freq, "eq3freq", -30000, 30000},
    {T::Eq3Bw, "eq3bw", -4, 4},            {T::Eq3Gain, "eq3gain", -96, 96},
};
struct LfoParam {
  std::string_view name;
  float FlexLfo::*param;
  ValueKind kind;
  double lo, hi;
  T ccTarget;  // ModTarget::Count: no controller form
};
const LfoParam kLfoParams[] = {
    {"freq", &FlexLfo::freq, ValueKind::Float, 0, 100, T::LfoFreq},
    {"phase", &FlexLfo::phase, ValueKind::Float, 0, 1, T::LfoPhase},
    {"delay", &FlexLfo::delay, ValueKind::Float, 0, 100, T::LfoDelay},
    {"fade", &FlexLfo::fade, ValueKind::Float, 0, 100, T::LfoFade},
    {"count", &FlexLfo::count, ValueKind::Integer, 0, 1000000, T::Count},
    {"wave", &FlexLfo::wave, ValueKind::Integer, 0, 12, T::LfoWave},
    {"smooth", &FlexLfo::smooth, ValueKind::Float, 0, 10000, T::LfoSmooth},  // ms (no range in the reference)
    {"offset", &FlexLfo::offset, ValueKind::Float, -1, 1, T::Count},
    {"ratio", &FlexLfo::ratio, ValueKind::Float, 0, 100, T::Count},
    {"scale", &FlexLfo::scale, ValueKind::Float, 0, 1, T::Count},
    {"steps", &FlexLfo::steps, ValueKind::Integer, 0, FlexLfo::kMaxSteps, T::Count},
};

class Builder {
 public:
  std::vector<OpcodeSpec> specs;

  void family(const Family& f) {
    const std::string p(f.prefix), a(f.alias);
    const auto alias = [&](const std::string& suffix) { return a.empty() ? std::string_view{} : keep(a + suffix); };
    add(p + "_onccN", {f.v1, alias("_onccN")}, ValueKind::Float, f.lo, f.hi, {f.target, ModParam::Depth});
    add(p + "_curveccN", {alias("_curveccN"), {}}, ValueKind::Integer, 0, 255, {f.target, ModParam::Curve});
    if (!f.continuous) return;
    add(p + "_smoothccN", {alias("_smoothccN"), {}}, ValueKind::Float, 0, 100000, {f.target, ModParam::Smooth});
    add(p + "_stepccN", {alias("_stepccN"), {}}, ValueKind::Float, 0, f.hi > 0 ? f.hi : 1, {f.target, ModParam::Step});
  }

  // oscillator_mod_smoothccN: the reference's name for oscillator_mod_depth_smoothccN.
  void oscillatorSmoothing() {
    add("oscillator_mod_smoothccN", {}, ValueKind::Float, 0, 100000, {T::OscillatorModDepth, ModParam::Smooth});
  }

  void aftertouch(const NamedTarget& t) {
    const std::string p(t.name);
    add(p + "chanaft", {}, ValueKind::Float, t.lo, t.hi, {t.target, ModParam::Depth, controllers::kChannelAftertouch});
    add(p + "polyaft", {}, ValueKind::Float, t.lo, t.hi, {t.target, ModParam::Depth, controllers::kPolyAftertouch});
  }

  void lfoDepth(const NamedTarget& d) {
    const std::string p = "lfoN_" + std::string(d.name);
    specs.push_back(OpcodeSpec{keep(p), {}, ValueKind::Float, d.lo, d.hi,
                               FlexLfoField{nullptr, static_cast<int>(d.target)}});
    family(Family{d.target, keep(p), "", "", d.lo, d.hi});
  }

  // egN_<target> and its controller forms; the points and the EG's own parameters.
  void egDepth(const NamedTarget& d) {
    const std::string p = "egN_" + std::string(d.name);
    specs.push_back(OpcodeSpec{keep(p), {}, ValueKind::Float, d.lo, d.hi,
                               FlexEgField{nullptr, nullptr, static_cast<int>(d.target)}});
    family(Family{d.target, keep(p), "", "", d.lo, d.hi});
  }

  void egParams() {
    const auto point = [&](const char* name, float FlexEgPoint::*field, double lo, double hi) {
      OpcodeSpec s{keep(name), {}, ValueKind::Float, lo, hi, FlexEgField{field}};
      s.maxIndex = FlexEg::kMaxPoints - 1;
      specs.push_back(s);
    };
    point("egN_timeN", &FlexEgPoint::time, 0, 100);
    point("egN_levelN", &FlexEgPoint::level, -1, 1);
    point("egN_shapeN", &FlexEgPoint::shape, -100, 100);
    point("egN_curveN", &FlexEgPoint::curve, 0, 255);
    specs.push_back(OpcodeSpec{keep("egN_sustain"), {}, ValueKind::Integer, 0, FlexEg::kMaxPoints - 1,
                               FlexEgField{nullptr, &FlexEg::sustain}});
    specs.push_back(OpcodeSpec{keep("egN_ampeg"), {}, ValueKind::Integer, 0, 1, FlexEgField{nullptr, &FlexEg::ampeg}});
    // egN_dynamic; egN_loop, _loop_count, _points (the reference gives no type or range).
    const auto integer = [&](const char* name, double hi, float FlexEg::*field) {
      specs.push_back(OpcodeSpec{keep(name), {}, ValueKind::Integer, 0, hi, FlexEgField{nullptr, field}});
    };
    integer("egN_dynamic", 1, &FlexEg::dynamic);
    integer("egN_loop", FlexEg::kMaxPoints - 1, &FlexEg::loop);
    integer("egN_loop_count", 1e6, &FlexEg::loopCount);
    integer("egN_points", FlexEg::kMaxPoints, &FlexEg::pointCount);
    integer("egN_pan_curve", 255, &FlexEg::panCurve);
  }

  // The second filter's own opcodes (its modulation is in kFamilies).
  void secondFilter() {
    OpcodeSpec type{keep("fil2_type"), {}, ValueKind::Option, 0, 0, Special::Fil2Type};
    type.options = filterTypeNames();
    specs.push_back(type);
    const auto number = [&](const char* name, ValueKind kind, double lo, double hi, float Region::*field) {
      specs.push_back(OpcodeSpec{keep(name), {}, kind, lo, hi, field});
    };
    number("cutoff2", ValueKind::Float, 0, 96000, &Region::cutoff2);
    number("resonance2", ValueKind::Float, 0, 40, &Region::resonance2);
    number("resonance2_random", ValueKind::Float, 0, 40, &Region::resonance2Random);
    number("fil2_gain", ValueKind::Float, -96, 24, &Region::fil2Gain);
    number("fil2_keytrack", ValueKind::Integer, 0, 1200, &Region::fil2Keytrack);
    number("fil2_veltrack", ValueKind::Integer, -9600, 9600, &Region::fil2Veltrack);
    number("cutoff2_random", ValueKind::Integer, 0, 9600, &Region::cutoff2Random);
    specs.push_back(OpcodeSpec{keep("fil2_keycenter"), {}, ValueKind::Note, 0, 127, &Region::fil2Keycenter});
  }

  // ampeg_/fileg_/pitcheg_ attack/decay/release_shape, decay/release_zero and dynamic (ARIA).
  void envelopeShapes() {
    using E = EnvelopeParams;
    for (const auto& [name, env] : {std::pair{"ampeg", &Region::ampeg}, std::pair{"fileg", &Region::fileg},
                                    std::pair{"pitcheg", &Region::pitcheg}}) {
      const std::string p(name);
      for (const auto& [stage, field] : {std::pair{"_attack_shape", &E::attackShape},
                                         std::pair{"_decay_shape", &E::decayShape},
                                         std::pair{"_release_shape", &E::releaseShape}})
        specs.push_back(OpcodeSpec{keep(p + stage), {}, ValueKind::Float, -100, 100, EnvField{env, field}});
      for (const auto& [stage, field] : {std::pair{"_decay_zero", &E::decayZero}, std::pair{"_release_zero", &E::releaseZero},
                                         std::pair{"_dynamic", &E::dynamic}})
        specs.push_back(OpcodeSpec{keep(p + stage), {}, ValueKind::Integer, 0, 1, EnvField{env, field}});
    }
  }

  // lfoN_waveX, _offsetX, _ratioX, _scaleX; X = 1 is the main wave's field (param).
  void lfoSubWaves() {
    using W = FlexLfo::SubWave;
    for (const auto& [name, sub, main, kind, lo, hi] :
         {std::tuple{"lfoN_waveN", &W::wave, &FlexLfo::wave, ValueKind::Integer, 0.0, 12.0},
          std::tuple{"lfoN_offsetN", &W::offset, &FlexLfo::offset, ValueKind::Float, -1.0, 1.0},
          std::tuple{"lfoN_ratioN", &W::ratio, &FlexLfo::ratio, ValueKind::Float, 0.0, 100.0},
          std::tuple{"lfoN_scaleN", &W::scale, &FlexLfo::scale, ValueKind::Float, 0.0, 1.0}}) {
      OpcodeSpec s{keep(name), {}, kind, lo, hi, FlexLfoField{main, -1, false, sub}};
      s.maxIndex = FlexLfo::kMaxWaves;
      specs.push_back(s);
    }
  }

  // One source moving another: lfoN_freq_lfoX, egN_freq_lfoX (X = the index) and the
  // controller forms of lfoN_freq_lfoX and of the flex EG points' time and level.
  void sourceLinks() {
    OpcodeSpec lfo{keep("lfoN_freq_lfoN"), {}, ValueKind::Float, -100, 100, FlexLfoField{nullptr, -1, false, nullptr, true}};
    lfo.maxIndex = 8;
    specs.push_back(lfo);
    OpcodeSpec eg{keep("egN_freq_lfoN"), {}, ValueKind::Float, -100, 100, FlexEgField{nullptr, nullptr, -1, true}};
    eg.maxIndex = 8;
    specs.push_back(eg);
    family(Family{T::LfoFreqLfo, keep("lfoN_freq_lfoX"), "", "", -100, 100});
    // lfoN_/egN_depth_lfoX and _depthadd_lfoX: percent of LFO X's output (no range in the reference).
    for (const bool add : {false, true}) {
      const std::string name = add ? "_depthadd_lfoN" : "_depth_lfoN";
      OpcodeSpec l{keep("lfoN" + name), {}, ValueKind::Float, -1000, 1000,
                   FlexLfoField{nullptr, -1, false, nullptr, false, add ? LinkKind::DepthAdd : LinkKind::Depth}};
      l.maxIndex = 8;
      specs.push_back(l);
      OpcodeSpec e{keep("egN" + name), {}, ValueKind::Float, -1000, 1000,
                   FlexEgField{nullptr, nullptr, -1, false, add ? LinkKind::DepthAdd : LinkKind::Depth}};
      e.maxIndex = 8;
      specs.push_back(e);
    }
    family(Family{T::EgTime, keep("egN_timeX"), "", "", -100, 100, false});
    family(Family{T::LfoStep, keep("lfoN_stepX"), "", "", -200, 200});
    family(Family{T::EgLevel, keep("egN_levelX"), "", "", -2, 2, false});
  }

  // varNN_mod, varNN_<target> (the LFO depths' targets) and the variable's sources,
  // varNN_onccX and varNN_curveccX (syntax.yml: a source's depth 0..1).
  void variables() {
    OpcodeSpec mod{keep("varN_mod"), {}, ValueKind::Option, 0, 0, VariableField{}};
    mod.options = kVariableModes;
    specs.push_back(mod);
    for (const NamedTarget& d : kLfoDepths)
      specs.push_back(OpcodeSpec{keep("varN_" + std::string(d.name)), {}, ValueKind::Float, d.lo, d.hi,
                                 VariableField{static_cast<int>(d.target)}});
    family(Family{T::Variable, "varN", "", "", 0, 1, false});
  }

  void lfoSteps() {
    OpcodeSpec s{keep("lfoN_stepN"), {}, ValueKind::Float, -100, 100, FlexLfoField{nullptr, -1, true}};
    s.maxIndex = FlexLfo::kMaxSteps;
    specs.push_back(s);
  }

  void lfoParam(const LfoParam& l) {
    const std::string p = "lfoN_" + std::string(l.name);
    specs.push_back(OpcodeSpec{keep(p), {}, l.kind, l.lo, l.hi, FlexLfoField{l.param}});
    if (l.ccTarget != T::Count)
      family(Family{l.ccTarget, keep(p), "", "", -l.hi, l.hi, !isNoteStartTarget(l.ccTarget)});
  }

  void crossfades() {
    for (const bool out : {false, true}) {
      const std::string p = out ? "xfout_" : "xfin_";
      add(p + "loccN", {}, ValueKind::Integer, 0, 127, {T::Amplitude, ModParam::CrossfadeLo, -1, out});
      add(p + "hiccN", {}, ValueKind::Integer, 0, 127, {T::Amplitude, ModParam::CrossfadeHi, -1, out});
    }
    OpcodeSpec curve{keep("xf_cccurve"), {}, ValueKind::Option, 0, 0, ModField{T::Amplitude, ModParam::CrossfadeCurve}};
    curve.options = kCrossfadeCurves;
    specs.push_back(curve);
  }

 private:
  std::string_view keep(std::string s) { return names_.emplace_back(std::move(s)); }
  void add(const std::string& name, std::array<std::string_view, 2> aliases, ValueKind kind, double lo, double hi,
           ModField field) {
    OpcodeSpec s{keep(name), aliases, kind, lo, hi, field};
    s.maxIndex = controllers::kCount - 1;
    specs.push_back(s);
  }

  std::deque<std::string> names_;  // deque: growing it never moves the strings
};

const std::vector<OpcodeSpec>& table() {
  static Builder* const builder = [] {
    auto* b = new Builder;  // never freed: the specs are referenced for the program's life
    for (const Family& f : kFamilies) b->family(f);
    b->oscillatorSmoothing();
    for (const NamedTarget& t : kAftertouch) b->aftertouch(t);
    b->crossfades();
    for (const NamedTarget& d : kLfoDepths) b->lfoDepth(d);
    for (const LfoParam& l : kLfoParams) b->lfoParam(l);
    b->lfoSteps();
    b->lfoSubWaves();
    b->sourceLinks();
    for (const NamedTarget& d : kLfoDepths) b->egDepth(d);
    b->egParams();
    b->variables();
    b->envelopeShapes();
    b->secondFilter();
    return b;
  }();
  return builder->specs;
}

}  // namespace

std::span<const OpcodeSpec> modOpcodeTable() { return table(); }

// lfo12_pitch_oncc3: LFO 12, then "lfoN_pitch_oncc3" as any other name (egN_, varN_ too); a
// number inside the rest is X: egN_time2_oncc7 is egN_timeX_onccN with X = 2.
bool findSourceOpcode(std::string_view name, std::optional<OpcodeMatch>& match) {
  for (const std::string_view prefix : {std::string_view("lfo"), std::string_view("eg"), std::string_view("var")}) {
    const size_t at = prefix.size();
    if (!name.starts_with(prefix) || name.size() <= at + 1 || !text::isDigit(name[at])) continue;
    size_t end = at;
    int number = 0;
    while (end < name.size() && text::isDigit(name[end]) && number < 100000) number = number * 10 + (name[end++] - '0');
    match.reset();
    if (end >= name.size() || name[end] != '_' || number < 1) return true;
    const std::string rest(name.substr(end)), head = std::string(prefix) + "N";
    match = findOpcode(head + rest);
    if (!match) {
      const size_t digit = rest.find_first_of("0123456789"), after = rest.find_first_not_of("0123456789", digit);
      if (digit == std::string::npos || after == std::string::npos || after - digit > 3) return true;
      match = findOpcode(head + rest.substr(0, digit) + "X" + rest.substr(after));
      if (match) match->sub = std::stoi(rest.substr(digit, after - digit));
    }
    if (match) (prefix == "lfo" ? match->lfo : prefix == "eg" ? match->eg : match->var) = number;
    return true;
  }
  return false;
}

}  // namespace spindle::sfz
