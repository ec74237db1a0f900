#include "PlayedScenarios.h"

#include <functional>
#include <map>

namespace spindle::test::played {

namespace {

// Opcodes heard with more region opcodes only. Keys are the concrete names.
const std::map<std::string, std::string>& regionScenarios() {
  // The flex EG's loop: its last point no longer silent (level3), never held (sustain
  // past its points), looped from stage 1 twice; short stages, so the loops end while
  // the note is held.
  static const std::string egLoop =
      " eg1_time2=0.02 eg1_time3=0.02 eg1_level3=0.5 eg1_sustain=9 eg1_loop=1 eg1_loop_count=2";
  static const std::map<std::string, std::string> table = {
      {"sample_fadeout", " loop_mode=no_loop"},  // the sample's end is reached while held
      {"offset_mode", " offset=10"},  // 10 frames, or in percent 10 % of the sample
      {"off_time", " off_mode=time"},
      {"fil_gain", " fil_type=peq"},
      {"fil_gain_oncc1", " fil_type=peq"},
      {"fil2_gain_oncc1", " fil2_type=peq"},
      // A stage a controller moves while the note is in it: dynamic envelopes follow.
      {"ampeg_dynamic", " ampeg_sustain_oncc1=-40"},
      {"fileg_dynamic", " fileg_sustain_oncc1=-40"},
      {"pitcheg_dynamic", " pitcheg_sustain_oncc1=-40"},
      {"eg1_dynamic", " eg1_level2_oncc1=0.5"},
      {"eg1_points", egLoop},
      {"eg1_loop", egLoop},
      {"eg1_loop_count", egLoop},
      {"eg1_freq_lfo1", " lfo1_freq=3 lfo1_pitch=100"},  // the EG moves LFO 1's frequency
      // width_oncc1 turning the width down (the usual +30 stays clamped at 100 %).
      {"width_smoothcc1", " width_oncc1=-60"},
      {"width_stepcc1", " width_oncc1=-60"},
      // ARIA's default release shape is an exponential, which ends the same from any
      // level: the linear one shows where release_zero enters it.
      {"ampeg_release_zero", " ampeg_release_shape=0"},
      {"lfo1_step1", " lfo1_steps=4"},
      {"note_selfmask", " note_polyphony=1"},
      // An EG holding the depth of an LFO the region has.
      {"eg1_depth_lfo1", " lfo1_freq=3 lfo1_pitch=100"},
      {"eg1_depthadd_lfo1", " lfo1_freq=3 lfo1_pitch=100"},
      {"pan_law", " pan=50"},  // the laws differ off centre
      {"rt_decay1", " trigger=release"},
      {"rt_decay1_time", " trigger=release rt_decay1=20"},
      {"off_curve", " off_mode=time off_time=0.1"},
      {"off_shape", " off_mode=time off_time=0.1"},
      {"sync_offset", " sync_beats=1"},  // a grid of one beat, moved by the offset
  };
  return table;
}

// The oscillator opcodes need a region played as an oscillator: a sine, three detuned
// copies (unison); the modulation opcodes that sine frequency-modulated.
std::string oscillatorScenario(const std::string& name) {
  const std::string unison = " sample=*sine oscillator=on oscillator_multi=3 oscillator_detune=20";
  if (!name.starts_with("oscillator_mod")) return unison;
  const std::string fm = unison + " oscillator_mode=2 oscillator_mod_depth=50";
  return name == "oscillator_mod_smoothcc1" ? fm + " oscillator_mod_depth_oncc1=30" : fm;
}

// Opcodes heard with another script (and what that script needs).
const std::map<std::string, std::function<void(Scenario&)>>& scriptScenarios() {
  static const std::map<std::string, std::function<void(Scenario&)>> table = {
      // CC1 unset until frame 9600: set_ccN decides where it starts.
      {"set_cc1", [](Scenario& s) { s.events = scriptWithoutFirstController(); }},
      {"set_hdcc1", [](Scenario& s) { s.events = scriptWithoutFirstController(); }},
      {"sustain_sw", [](Scenario& s) { s.events = sustainScript(); }},
      {"sostenuto_sw", [](Scenario& s) { s.events = sostenutoScript(); }},
      {"sostenuto_cc", [](Scenario& s) { s.events = sostenutoScript(); }},
      {"sostenuto_lo", [](Scenario& s) { s.events = sostenutoScript(); }},
      // A louder strike stops the first under note_polyphony=1; a softer one only when
      // note_selfmask is off.
      {"note_polyphony", [](Scenario& s) { s.events = repeatedNoteScript(110); }},
      {"note_selfmask", [](Scenario& s) { s.events = repeatedNoteScript(90); }},
      {"hiprog", [](Scenario& s) { s.events = scriptWith({programChange(0, 5)}); }},
      {"hichan", [](Scenario& s) { s.part = 1; }},  // a program loaded in part 2 (channel 2)
      {"sw_up", [](Scenario& s) { s.events = heldKeyScript(); s.values = {"36"}; }},
      // Key 25 a note, or a keyswitch (one that deselects the region) once the range reaches it.
      {"sw_lokey", [](Scenario& s) { s.events = scriptWith({}, {noteOn(4800, 25, 100), noteOff(7200, 25)}); }},
      // The offsets move the keys the file writes, not the keys played.
      {"note_offset", [](Scenario& s) { s.region = " key=60"; }},
      {"octave_offset", [](Scenario& s) { s.region = " key=60"; }},
      {"sw_note_offset", [](Scenario& s) { s.region = " sw_last=36 sw_lokey=30 sw_hikey=40"; s.events = keyswitchScript(); }},
      {"sw_octave_offset", [](Scenario& s) { s.region = " sw_last=36 sw_lokey=30 sw_hikey=40"; s.events = keyswitchScript(); }},
      // A release trigger after an attack region that has ended (rt_dead plays it anyway).
      {"rt_decay1_time", [](Scenario& s) { s.values = {"0.1"}; }},  // shorter than the notes are held
      {"rt_dead", [](Scenario& s) { s.before = "<region> sample=s.wav loop_mode=no_loop\n"; }},
      // Parts 1.. have outputs of their own: output=N moves the region to part N's.
      {"output", [](Scenario& s) { s.partOutputs = true; }},
  };
  return table;
}

// <effect> opcodes heard with more of their effect set, or with values by name.
const std::map<std::string, std::function<void(Scenario&)>>& effectScenarios() {
  static const std::vector<std::string> filterTypes = {"hpf_2p", "bpf_2p", "lpf_1p"};
  static const std::map<std::string, std::function<void(Scenario&)>> table = {
      {"delay_filter", [](Scenario& s) { s.values = filterTypes; }},
      {"filter_type", [](Scenario& s) { s.values = filterTypes; }},
      {"eq_type", [](Scenario& s) { s.values = {"lshelf", "hshelf"}; }},
      // The delay's LFO moves the taps only with a depth, and a depth only with a rate.
      {"delay_lfofreq", [](Scenario& s) { s.effect = " delay_moddepth=20"; }},
      {"delay_lfofreq_oncc1", [](Scenario& s) { s.effect = " delay_moddepth=20"; }},
      {"delay_moddepth", [](Scenario& s) { s.effect = " delay_lfofreq=2"; }},
      {"delay_moddepth_oncc1", [](Scenario& s) { s.effect = " delay_lfofreq=2"; }},
      // The gate open (its level over the threshold), for its manual control to close it.
      {"gate_oncc1", [](Scenario& s) { s.effect = " gate_threshold=-40"; }},
      // Left and right at different levels, so a linked gate opens where the left alone would not.
      {"gate_stlink", [](Scenario& s) { s.effect = " gate_threshold=-30"; s.region = " pan=90"; }},
  };
  return table;
}

}  // namespace

Scenario scenarioFor(const std::string& name) {
  Scenario s;
  if (const auto it = regionScenarios().find(name); it != regionScenarios().end()) s.region = it->second;
  if (name.starts_with("oscillator_")) s.region = oscillatorScenario(name);
  if (const auto it = scriptScenarios().find(name); it != scriptScenarios().end()) it->second(s);
  if (const auto it = effectScenarios().find(name); it != effectScenarios().end()) it->second(s);
  if (name == "effect1" || name == "effect2" || name == "effect3" || name == "effect4") s.before = kSendBuses;
  return s;
}

}  // namespace spindle::test::played
