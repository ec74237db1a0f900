#pragma once
// Part: one MIDI channel's state: its Program, controllers, pedals, held keys,
// keyswitch and round-robin state, and the mixer settings of the part commands.
// Audio thread only (owned by the Engine).
#include <array>
#include <cstdint>

#include "core/Realtime.h"
#include "engine/Program.h"

namespace spindle::engine {

struct Part {
  const Program* program = nullptr;
  int slot = -1;  // instrument slot the program came from; -1 = set directly

  std::array<uint8_t, 128> cc{};
  int bend = 0;  // -8192..8191
  bool sustain = false, sostenuto = false;

  // Per key: held now, the velocity and engine frame of its last note-on, whether its
  // release triggers wait for the sustain pedal, and its round-robin counter.
  std::array<bool, 128> keyDown{};
  std::array<uint8_t, 128> noteVelocity{};
  std::array<uint64_t, 128> noteOnFrame{};
  std::array<uint32_t, 128> noteSequence{};  // counter value the last note-on used
  std::array<bool, 128> releasePending{};
  std::array<uint32_t, 128> sequenceCounter{};
  int heldKeys = 0;
  int swLast = -1;        // last keyswitch pressed (sw_last)
  int previousNote = -1;  // note before the current note-on (sw_previous)

  float volumeDb = 0.0f;  // part commands
  float pan = 0.0f;       // -1..1
  bool mute = false, solo = false;

  Part() noexcept { resetControllers(true); }

  // CC121 (all = false): bend, pedals, expression and other controllers back to their
  // defaults; volume and pan are kept (MIDI RP-015). all = true also resets those.
  void resetControllers(bool all) noexcept SPINDLE_REALTIME;
  // Switches instruments: keyswitch and round-robin state start over.
  void setProgram(const Program* p, int fromSlot) noexcept SPINDLE_REALTIME;
  // Linear gain of CC7, CC11, the part volume, mute and solo (soloActive: some part is soloed).
  float mixGain(bool soloActive) const noexcept SPINDLE_REALTIME;
  // CC10 plus the part pan, -1..1 before clamping.
  float mixPan() const noexcept SPINDLE_REALTIME;
};

}  // namespace spindle::engine
