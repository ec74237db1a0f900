#pragma once
// The context in which an opcode is audible, for the coverage test (PlayedCoverage.h).
// Most opcodes change the one region and script every opcode shares; some only sound
// when something else happens: a pedal held, a note struck twice, a keyswitch pressed,
// a program change, a second part, an effect bus to send to, a sample that ends. For
// those, a Scenario adds that to both renders (without and with the opcode), so the
// only difference between the two is still the opcode itself.
//
//   region  opcodes added to the region under test (after its usual context: the last
//           value of an opcode wins, so `loop_mode=no_loop` turns the loop off)
//   before  headers placed before it: effect buses, a second region
//   effect  opcodes added to the <effect> block of an effect opcode under test
//   values  values tried before the usual candidates (names the reference lists
//           without options: filter and EQ types)
//   events  the script played (PlayedCoverage.h's by default)
//   part    the part (and MIDI channel, 0-based) that plays it
//   partOutputs  the other parts have outputs of their own (--multi-out)
#include <string>
#include <vector>

#include "ModTestSupport.h"

namespace spindle::test::played {

inline constexpr int64_t kFrames = 43200;

inline std::vector<float> noiseSample(uint32_t seed = 7) {
  std::vector<float> x(14400);
  uint32_t state = seed;
  for (float& v : x) {
    state = state * 1664525u + 1013904223u;
    v = 0.5f * (static_cast<float>(state >> 8) / 8388608.0f - 1.0f);
  }
  return x;
}

// The script every opcode is heard with, unless its scenario says otherwise:
//
//   frame 0      CC1 = 64, note 60, velocity 100 (the other controllers at their defaults)
//   frame 9600   CC1 = 127, pitch bend +4096, channel and key pressure 100
//   frame 14400  note 62, velocity 40
//   frame 19200  note 60 off
//   frame 21600  note 60 again, velocity 80 (the first one still releasing)
//   frame 24000  pitch bend -4096
//   frame 26400  note 60 off
//   frame 28800  note 62 off; rendered to frame 43200 (0.9 s at 48 kHz)
inline std::vector<TimedEvent> script() {
  const TimedEvent channelPressure{9600, MidiEvent{0, midi::kChannelPressure, 100, 0}};
  const TimedEvent keyPressure{9600, MidiEvent{0, midi::kPolyPressure, 60, 100}};
  return {cc(0, 1, 64),          noteOn(0, 60, 100),    cc(9600, 1, 127),   bend(9600, 4096), channelPressure,
          keyPressure,           noteOn(14400, 62, 40), noteOff(19200, 60), noteOn(21600, 60, 80), bend(24000, -4096),
          noteOff(26400, 60),    noteOff(28800, 62)};
}

struct Scenario {
  std::string region, before, effect;
  std::vector<std::string> values;
  std::vector<TimedEvent> events = script();
  int part = 0;
  bool partOutputs = false;  // parts 1..15 have outputs of their own (the main pair is what is compared)
};

// The script with `first` played before its first events (at their own frames, ahead of
// the script's events at the same frame) and `more` after.
inline std::vector<TimedEvent> scriptWith(std::vector<TimedEvent> first, const std::vector<TimedEvent>& more = {}) {
  const std::vector<TimedEvent> base = script();
  first.insert(first.end(), base.begin(), base.end());
  first.insert(first.end(), more.begin(), more.end());
  return first;
}

// The script without its CC1 at frame 0: the controller starts where set_ccN puts it.
inline std::vector<TimedEvent> scriptWithoutFirstController() {
  std::vector<TimedEvent> out;
  for (const TimedEvent& e : script())
    if (!(e.frame == 0 && (e.event.status & 0xF0) == midi::kControlChange)) out.push_back(e);
  return out;
}

// Bus effects fx1..fx4 that each leave a mark of their own (the region's effect1..4
// send to them), placed before the region; an fx bus joins the output at fxNtomain
// (0 by default).
inline const char* kSendBuses =
    "<effect> bus=fx1 type=lofi bitred=30 fx1tomain=100\n<effect> bus=fx2 type=lofi decim=30 fx2tomain=100\n"
    "<effect> bus=fx3 type=filter filter_type=hpf_2p filter_cutoff=3000 fx3tomain=100\n"
    "<effect> bus=fx4 type=filter filter_type=lpf_2p filter_cutoff=300 fx4tomain=100\n";

// Pedals: sustain down through the notes; sostenuto (CC66 at 70, over ARIA's default
// threshold 0.5) taken while note 60 is held, so that note outlasts its note-off.
inline std::vector<TimedEvent> sustainScript() { return scriptWith({cc(0, 64, 127)}, {cc(36000, 64, 0)}); }
inline std::vector<TimedEvent> sostenutoScript() { return scriptWith({}, {cc(4800, 66, 70), cc(36000, 66, 0)}); }

// Note 60 struck again at `velocity` while its first strike (100) is held: note polyphony.
inline std::vector<TimedEvent> repeatedNoteScript(int velocity) { return scriptWith({}, {noteOn(12000, 60, velocity)}); }

// Key 36 pressed before the notes: a keyswitch (sw_last=36) or a held key (sw_up).
inline std::vector<TimedEvent> keyswitchScript() { return scriptWith({noteOn(0, 36, 100), noteOff(2400, 36)}); }
inline std::vector<TimedEvent> heldKeyScript() { return scriptWith({}, {noteOn(12000, 36, 100)}); }

// The scenario of the opcode `name` (placeholders filled: eg1_points, set_cc1...).
Scenario scenarioFor(const std::string& name);

// Both channels of `text` (read as the file `path`: an #include's folder) rendered with
// the scenario's script on its part. Its samples are what the loader would give: a
// generator (*sine...) its table, a file the 0.3 s stereo noise (s.wav; any other name a
// noise of its own), a reversed entry its file's frames backwards (PlayedProgram.cpp).
std::vector<float> render(const std::string& text, const std::string& path, const Scenario& scenario);

}  // namespace spindle::test::played
