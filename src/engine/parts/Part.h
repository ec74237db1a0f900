#pragma once
// Part: one MIDI channel's state: its Program, controllers, pedals, held keys,
// keyswitch and round-robin state, and the mixer settings of the part commands.
// Audio thread only (owned by the Engine).
#include <array>
#include <cstdint>

#include "core/Realtime.h"
#include "core/Tuning.h"
#include "engine/parts/Program.h"
#include "engine/mod/ControllerState.h"

namespace spindle::engine {

struct Part {
  const Program* program = nullptr;
  int slot = -1;  // instrument slot the program came from; -1 = set directly

  mod::ControllerState controllers;  // CCs 0..127 and the extended/hd slots, 0..1
  int bend = 0;  // -8192..8191
  bool sustain = false, sostenuto = false;

  // Per key: held now, the velocity and engine frame of its last note-on, whether its
  // release triggers wait for the sustain pedal, and its round-robin counter.
  std::array<bool, 128> keyDown{};
  std::array<uint8_t, 128> noteVelocity{};
  std::array<uint64_t, 128> noteOnFrame{};
  std::array<uint32_t, 128> noteSequence{};  // counter value the last note-on used
  std::array<bool, 128> releasePending{};
  std::array<bool, 128> noteStartedVoices{};  // the key's last note-on started a voice (rt_dead)
  std::array<uint32_t, 128> sequenceCounter{};
  int heldKeys = 0;
  int swLast = -1;        // last keyswitch pressed (sw_last)
  int previousNote = -1;  // note before the current note-on (sw_previous)
  int previousVelocity = 0;  // velocity of the note-on before the current one (sw_vel=previous)
  int lastVelocity = 0;      // velocity of the last note-on
  int programNumber = 0;     // the last MIDI program change (loprog/hiprog); 0 before any
  // SoundFont presets (Program::presets): the bank CC0 selected, the preset the last
  // program change (or program load) chose, and whether this is the GM percussion
  // channel (10), which plays bank 128.
  int bank = 0;
  int preset = -1;
  bool percussion = false;
  // MIDI RPN state: the parameter data entry writes (0x3FFF = none), and RPN 0, the
  // pitch bend range in cents, which SoundFont regions follow.
  int rpn = 0x3FFF;
  float bendRange = 200.0f;
  bool anyNoteOn = false;    // a note-on happened; lastNoteOnFrame is its engine frame
  uint64_t lastNoteOnFrame = 0;
  // Seconds from the part's last note-on to `frame` (lotimer/hitimer); huge before any.
  double secondsSinceNoteOn(uint64_t frame, double sampleRate) const noexcept SPINDLE_REALTIME {
    return anyNoteOn ? static_cast<double>(frame - lastNoteOnFrame) / sampleRate : 1e30;
  }
  // Polyphonic aftertouch per key, 0..127: controller 130 takes the started key's value.
  std::array<uint8_t, 128> polyAftertouch{};
  // 14-bit controllers (Program::highResolutionCc): the last MSB and LSB of CC n < 32.
  std::array<uint8_t, 32> msb{}, lsb{};

  // The program the part left, whose effect buses (Program::buses) fade out over
  // busFadeFrames more frames while the new program's fade in; null when not fading.
  const Program* busFadeFrom = nullptr;
  int busFadeFrames = 0;
  // The player's bypass of the program's bus effects (CommandType::SetPartEffectBypass),
  // bit i for effect i; a new program starts with none bypassed.
  uint64_t effectBypass = 0;

  // Each key's pitch (SetPartTuning, MIDI Tuning Standard messages); 12-TET by default.
  KeyTuning tuning = KeyTuning::equalTemperament();

  float volumeDb = 0.0f;  // part commands
  float pan = 0.0f;       // -1..1
  bool mute = false, solo = false;

  Part() noexcept { resetControllers(true); }

  // CC121 (all = false): bend, pedals, expression and other controllers back to their
  // defaults; volume and pan are kept (MIDI RP-015). all = true also resets those.
  void resetControllers(bool all) noexcept SPINDLE_REALTIME;
  // Switches instruments: keyswitch and round-robin state start over; the program's
  // set_cc defaults are applied.
  void setProgram(const Program* p, int fromSlot) noexcept SPINDLE_REALTIME;
  // The program's set_cc/set_hdcc/set_realcc values (keepMix: not CC7 and CC10, for
  // CC121 after the RP-015 reset, which keeps volume and pan).
  void applyDefaults(bool keepMix) noexcept SPINDLE_REALTIME;
  // The preset bank and programNumber select (Program::presetFor).
  void choosePreset() noexcept SPINDLE_REALTIME {
    preset = program ? program->presetFor(percussion ? 128 : bank, programNumber) : -1;
  }
  // MIDI CC cc (0..127) = value, as 14-bit MSB/LSB where the program asks for it; bank
  // select and registered parameters are kept too.
  void setMidiController(int cc, int value) noexcept SPINDLE_REALTIME;
  void parameter(int cc, int value) noexcept SPINDLE_REALTIME;
  // Whether r's own sustain / sostenuto pedal is down (sustain_cc, sustain_lo, sustain_sw).
  bool sustainDown(const Region& r) const noexcept SPINDLE_REALTIME {
    return r.sustainSw && controllers.value(r.sustainCc) >= r.sustainLo;
  }
  bool sostenutoDown(const Region& r) const noexcept SPINDLE_REALTIME {
    return r.sostenutoSw && controllers.value(r.sostenutoCc) >= r.sostenutoLo;
  }
  // Linear gain of CC7, CC11, the part volume, mute and solo (soloActive: some part is soloed).
  float mixGain(bool soloActive) const noexcept SPINDLE_REALTIME;
  // CC10 plus the part pan, -1..1 before clamping.
  float mixPan() const noexcept SPINDLE_REALTIME;
};

}  // namespace spindle::engine
