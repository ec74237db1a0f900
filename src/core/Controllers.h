#pragma once
// Controller numbers shared by the formats and the engine: MIDI CCs 0..127, the SFZ
// reference's extended CCs 128..141, and the rest of the 512 "hdcc" slots that
// libraries use as their own controls (drum kits' mixer CCs above 127).
//
// Every controller holds a float 0..1 (hdcc). A MIDI CC n sets slot n to value/127;
// the extended ones are written by the engine from the events they name.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace spindle::controllers {

inline constexpr int kCount = 512;

// MIDI's effect sends (GM): a part's reverb and chorus send levels.
inline constexpr int kReverbSend = 91;
inline constexpr int kChorusSend = 93;

inline constexpr int kPitchBend = 128;         // bipolar: 0.5 = centre (value stored 0..1)
inline constexpr int kChannelAftertouch = 129;
inline constexpr int kPolyAftertouch = 130;    // of the note being started or modulated
inline constexpr int kNoteOnVelocity = 131;
inline constexpr int kNoteOffVelocity = 132;
inline constexpr int kNoteNumber = 133;
inline constexpr int kNoteGate = 134;          // 1 while any key is held
inline constexpr int kRandomUnipolar = 135;    // new draw per note: 0..1
inline constexpr int kRandomBipolar = 136;     // new draw per note: -1..1 stored as 0..1
inline constexpr int kAlternate = 137;         // flips 0/1 on every note-on
inline constexpr int kKeyDelta = 140;          // bipolar: 0.5 + (key - previous key) / 254
inline constexpr int kKeyDeltaAbsolute = 141;  // |key - previous key| / 127

// First slot the engine writes itself: a library may set_cc these but MIDI CCs never
// reach them (MIDI has 0..127 only).
inline constexpr int kFirstExtended = 128;

// set_cc / set_hdcc / set_realcc: a controller's value before any MIDI moves it, and
// after reset-all-controllers (CC121). value is 0..1.
struct ControllerDefault {
  int cc = 0;
  float value = 0.0f;
  // set_realcc: MIDI CC cc (< 32) and cc + 32 form one 14-bit controller (MSB, LSB).
  bool highResolution = false;
};

// What the instrument calls its controls and keys, for the player (GUI, OSC).
struct ControllerLabel {  // label_cc
  int cc = 0;
  std::string label;
  // A control with named steps (a DecentSampler button or menu): step k of n holds the
  // MIDI values stepOf() maps to k; the player shows the names instead of a number.
  std::vector<std::string> steps;
};

// The step a MIDI value (0..127) selects among n: 128 values split into n equal runs.
inline int stepOf(int midiValue, int n) noexcept {
  return n <= 1 ? 0 : std::clamp(midiValue, 0, 127) * n / 128;
}
// The MIDI value to send for step k of n: the middle of its run.
inline int stepValue(int k, int n) noexcept {
  if (n <= 1) return 0;
  k = std::clamp(k, 0, n - 1);
  const int lo = (k * 128 + n - 1) / n, hi = ((k + 1) * 128 + n - 1) / n - 1;
  return (lo + hi) / 2;
}
struct KeyLabel {  // label_key, sw_label (keyswitch names)
  int key = 0;
  std::string label;
  bool keyswitch = false;  // from sw_label (a keyswitch), not label_key
};

}  // namespace spindle::controllers
