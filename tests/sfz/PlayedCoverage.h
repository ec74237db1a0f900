#pragma once
// Whether an opcode of the SFZ reference is played: the coverage test renders one small
// instrument without it and with it, and the opcode counts as played when some value
// changes what comes out. The instrument is a 0.3 s noise sample (so loops, filters and
// effects all leave their mark), played by a script (PlayedScenarios.h) that moves every
// source an opcode with the placeholders filled (N, X, Y = 1) can read: overlapping
// notes, one key struck again while it releases, CC1, pitch bend up and down and both
// pressures. An opcode that needs more to be heard has a scenario there.
//
// Values tried, in order, until one changes the render: the scenario's (filter and EQ
// type names, which the reference does not list), the reference's first option and
// every other option, its default's neighbours, its min and max, then a list of
// plain numbers; a placeholder curve index (1) refers to a curve the instrument defines.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "ModTestSupport.h"
#include "PlayedScenarios.h"
#include "SyntaxReference.h"

namespace spindle::test::played {

// What a region sets around the opcode under test so that it has something to act on:
// its envelopes and LFOs running with depths, filters and EQ bands engaged, a loop; and
// for an opcode of the v2 LFOs, the flex EGs or a controller's curve, smoothing or step,
// that LFO, EG or controller connection. The same context is in both renders; only the
// opcode differs. (Few controller connections: a region keeps 32.)
inline const char* kRegionBase =
    "loop_mode=loop_continuous loop_start=100 loop_end=14000 cutoff=3000 resonance=3 fil_veltrack=1200 cutoff2=200 fil2_type=hpf_2p "
    "ampeg_attack=0.02 ampeg_hold=0.02 ampeg_decay=0.1 ampeg_sustain=60 ampeg_release=0.1 "
    "fileg_depth=1200 fileg_attack=0.05 fileg_decay=0.1 fileg_sustain=40 fileg_release=0.1 "
    "pitcheg_depth=300 pitcheg_attack=0.05 pitcheg_decay=0.1 pitcheg_sustain=40 pitcheg_release=0.1 "
    "amplfo_freq=5 amplfo_depth=3 fillfo_freq=4 fillfo_depth=600 pitchlfo_freq=6 pitchlfo_depth=30 "
    "eq1_gain=6 eq2_gain=-6 eq3_gain=6 eq1_freq=500 eq2_freq=2000 eq3_freq=6000 amp_velcurve_1=0.2";

inline std::string regionContext(const std::string& name) {
  std::string context = kRegionBase;
  if (name.starts_with("lfo"))
    context += " lfo1_freq=3 lfo1_volume=2 lfo1_pitch=40 lfo1_cutoff=600 lfo1_cutoff2=600 lfo1_resonance=3"
               " lfo1_pan=30 lfo1_eq1gain=3 lfo1_eq1freq=300 lfo1_amplitude=20 lfo2_freq=5 lfo2_pitch=20";
  if (name.starts_with("eg"))
    context += " eg1_time1=0.05 eg1_level1=1 eg1_time2=0.1 eg1_level2=0.3 eg1_time3=0.1 eg1_level3=0 eg1_sustain=2"
               " eg1_pitch=50 eg1_cutoff=600 eg1_pan=30 eg1_eq1gain=3 eg1_eq1freq=300 eg1_resonance=3";
  if (name.starts_with("xf_"))
    context += " xfin_lokey=50 xfin_hikey=70 xfin_lovel=60 xfin_hivel=120 xfin_locc1=0 xfin_hicc1=100";
  for (const auto& [prefix, other] : {std::pair{"xfin_lo", "xfin_hi"}, std::pair{"xfin_hi", "xfin_lo"},
                                      std::pair{"xfout_lo", "xfout_hi"}, std::pair{"xfout_hi", "xfout_lo"}}) {
    if (!name.starts_with(prefix)) continue;
    const std::string rest = name.substr(std::string(prefix).size());  // key, vel, cc1
    const bool low = std::string(other).ends_with("lo");
    context += " " + std::string(other) + rest + "=" + (rest == "key" ? (low ? "40" : "80") : (low ? "20" : "110"));
  }
  for (const auto& [opcode, needs] : {std::pair{"amp_keycenter", " amp_keytrack=3"}, std::pair{"fil_keycenter", " fil_keytrack=100"},
                                      std::pair{"pan_keycenter", " pan_keytrack=10"},
                                      std::pair{"position_keycenter", " position_keytrack=10"},
                                      std::pair{"rt_decay", " trigger=release"}, std::pair{"rt_dead", " trigger=release"}})
    if (name == opcode) context += needs;
  if (name.starts_with("sw_")) context += " sw_lokey=30 sw_hikey=40 sw_last=36 sw_default=36";
  if (name.starts_with("var")) context += " var11_oncc1=1 var11_oncc2=1 var11_pitch=200 var11_cutoff=-600";
  if (name == "seq_position") context += " seq_length=2";
  if (name == "seq_length") context += " seq_position=2";
  if (name == "group" || name == "off_by" || name.starts_with("off_")) context += " group=1 off_by=1";
  for (const char* form : {"_curvecc1", "_smoothcc1", "_stepcc1"}) {
    const size_t at = name.find(form);
    if (at != std::string::npos) context += " " + name.substr(0, at) + "_oncc1=30";
  }
  return context;
}

// Each <effect> type set so that it is heard, its opcodes then change it.
inline std::string effectContext(const std::string& type) {
  if (type == "fverb") return " reverb_wet=50 reverb_size=50 reverb_input=100 reverb_dry=100";
  if (type == "delay")
    return " delay_timel=0.05 delay_timer=0.07 delay_timec=0.09 delay_wet=50 delay_feedback=30 delay_levell=100"
           " delay_levelr=100 delay_levelc=50 delay_dry=100 delay_cutoff=2000 delay_filter=lpf_2p";
  if (type == "phaser") return " phaser_depth=50 phaser_freq=2 phaser_wet=50 phaser_feedback=30";
  if (type == "apan") return " apan_depth=50 apan_freq=3 apan_dry=50 apan_wet=50";
  // disto_dry is the level into the distortion (engine/dsp/Disto.h): at 0 the bus passes.
  if (type == "disto") return " disto_depth=50 disto_wet=100 disto_dry=100 disto_tone=50";
  if (type == "eq") return " eq_gain=12 eq_freq=1000 eq_bw=1";
  if (type == "comp") return " comp_threshold=-30 comp_ratio=4 comp_attack=0.01 comp_release=0.05 comp_gain=0";
  if (type == "gate") return " gate_threshold=-10 gate_attack=0.01 gate_release=0.05";
  if (type == "filter") return " filter_cutoff=1000 filter_type=lpf_2p filter_resonance=3";
  if (type == "lofi") return " bitred=50 decim=50 bitred_oncc1=30 decim_oncc1=30";
  return "";
}

// The effect type an <effect> opcode belongs to, by its prefix ("" for the block's own
// opcodes: type, bus...); decim and bitred are lofi's.
inline std::string effectType(const std::string& name) {
  for (const char* t : {"delay", "reverb", "phaser", "apan", "disto", "eq", "comp", "gate", "filter", "static",
                        "tdfir", "strings", "limiter", "width", "gain", "rectify"})
    if (name.starts_with(std::string(t) + "_") || name == t) return std::string(t) == "reverb" ? "fverb" : t;
  if (name.starts_with("decim") || name.starts_with("bitred")) return "lofi";
  return "";
}

// The instrument without the opcode and with `line` (opcode=value) at its place, in
// the opcode's scenario (PlayedScenarios.h).
struct Texts {
  std::string without, with;
};

inline Texts texts(const std::string& place, const std::string& name, const std::string& line,
                   const Scenario& scenario = {}) {
  const std::string region = scenario.before + "<region> sample=s.wav" + scenario.region + "\n";
  const std::string curve = "<curve> curve_index=1\n";
  if (place == "control")  // read by a region using CC1 through curve 1
    return {"<control>\n" + region + "amplitude_oncc1=100\n", "<control>\n" + line + "\n" + region + "amplitude_oncc1=100\n"};
  if (place == "curve")
    return {curve + region + "amplitude_oncc1=100 amplitude_curvecc1=1\n",
            curve + line + "\n" + region + "amplitude_oncc1=100 amplitude_curvecc1=1\n"};
  if (place == "effect") {  // the region sends to fx1..fx4 too, each a bus of its own
    std::string type = effectType(name);
    if (type.empty()) type = "lofi";
    const std::string sends = region + "effect1=50 effect2=50 effect3=50 effect4=50\n";
    std::string buses;
    for (const char* bus : {"fx1", "fx2", "fx3", "fx4"}) buses += std::string("<effect> bus=") + bus + " type=lofi bitred=30\n";
    const std::string head = "<effect> type=" + type + effectContext(type) + scenario.effect + "\n";
    return {sends + buses + head, sends + buses + head + line + "\n"};
  }
  const std::string points = "<curve> curve_index=1 v000=1 v127=0\n";  // a placeholder curve 1 that shows
  const std::string context = scenario.before + points + "<region> sample=s.wav\n" + regionContext(name) + scenario.region + "\n";
  return {context, context + line + "\n"};
}

// Both channels of a render of `text` (read as the file `path`: an #include's folder)
// with the usual script.
inline std::vector<float> render(const std::string& text, const std::string& path = "/virtual/mod-test.sfz") {
  return render(text, path, Scenario{});
}

inline bool differ(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return true;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::fabs(a[i] - b[i]) > 1e-5f) return true;
  return false;
}

inline bool isNumber(const std::string& s) {
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size();
}

// The values to try for `op`, none equal to its default.
inline std::vector<std::string> candidates(const SyntaxOpcode& op, const Scenario& scenario = {}) {
  std::vector<std::string> out = scenario.values;
  out.insert(out.end(), op.options.begin(), op.options.end());
  if (isNumber(op.defaultValue)) {
    const double d = std::strtod(op.defaultValue.c_str(), nullptr);
    for (double step : {1.0, -1.0, 0.5}) out.push_back(std::to_string(d + step));
  }
  for (const std::string& v : {op.min, op.max}) out.push_back(v);
  if (op.name == "sample") out.insert(out.end(), {"*silence", "*saw"});
  for (const char* v : {"1", "0", "3", "50", "-50", "100", "127", "0.5", "-1", "1200", "-1200", "10", "2", "64", "1000"})
    out.push_back(v);
  std::vector<std::string> unique;
  for (const std::string& v : out)
    if (!v.empty() && v != op.defaultValue && std::find(unique.begin(), unique.end(), v) == unique.end()) unique.push_back(v);
  return unique;
}

}  // namespace spindle::test::played
