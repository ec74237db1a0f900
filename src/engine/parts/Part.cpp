#include "engine/parts/Part.h"

#include <algorithm>
#include <cmath>

#include "core/MidiEvent.h"
#include "engine/mod/Curves.h"

namespace spindle::engine {

void Part::resetControllers(bool all) noexcept SPINDLE_REALTIME {
  const float volume = controllers.value(midi::kCcVolume);
  const float panCc = controllers.value(midi::kCcPan);
  // The slots that describe notes (velocity, note number, gate, random, alternate, key
  // delta) are not controllers RP-015 resets: kept unless everything starts over.
  constexpr int kNoteFirst = controllers::kNoteOnVelocity, kNoteLast = controllers::kKeyDeltaAbsolute;
  std::array<float, kNoteLast - kNoteFirst + 1> noteSlots{};
  for (int n = kNoteFirst; n <= kNoteLast; ++n) noteSlots[static_cast<size_t>(n - kNoteFirst)] = controllers.value(n);
  controllers.fill(0.0f);
  rpn = 0x3FFF;  // RP-015: the parameter number is reset, the bend range is kept
  if (!all) {
    for (int n = kNoteFirst; n <= kNoteLast; ++n) controllers.set(n, noteSlots[static_cast<size_t>(n - kNoteFirst)]);
  }
  controllers.set(midi::kCcVolume, all ? 100.0f / 127.0f : volume);
  controllers.set(midi::kCcPan, all ? 64.0f / 127.0f : panCc);
  controllers.set(midi::kCcExpression, 1.0f);
  controllers.set(controllers::kPitchBend, 0.5f);
  if (all) {
    controllers.set(controllers::kRandomBipolar, 0.5f);
    controllers.set(controllers::kKeyDelta, 0.5f);
  }
  polyAftertouch.fill(0);
  msb.fill(0);
  lsb.fill(0);
  bend = 0;
  sustain = false;
  sostenuto = false;
}

void Part::setProgram(const Program* p, int fromSlot) noexcept SPINDLE_REALTIME {
  program = p;
  slot = fromSlot;
  choosePreset();
  swLast = p ? p->defaultKeyswitch : -1;
  previousNote = -1;
  sequenceCounter.fill(0);
  applyDefaults(false);
}

void Part::applyDefaults(bool keepMix) noexcept SPINDLE_REALTIME {
  if (!program) return;
  for (const controllers::ControllerDefault& d : program->controllerDefaults) {
    if (keepMix && (d.cc == midi::kCcVolume || d.cc == midi::kCcPan)) continue;
    controllers.set(d.cc, d.value);
    if (d.cc >= 0 && d.cc < 32) {
      const int v14 = static_cast<int>(std::lround(std::clamp(d.value, 0.0f, 1.0f) * 16383.0f));
      msb[static_cast<size_t>(d.cc)] = static_cast<uint8_t>(v14 >> 7);
      lsb[static_cast<size_t>(d.cc)] = static_cast<uint8_t>(v14 & 0x7F);
    }
  }
}

// A 14-bit pair: the MSB resets the LSB (MIDI 1.0: a new MSB starts a new value);
// the controller is (msb * 128 + lsb) / 16383. CC n + 32 itself keeps its 7-bit value too.
void Part::setMidiController(int cc, int value) noexcept SPINDLE_REALTIME {
  controllers.setMidi7(cc, value);
  parameter(cc, value);
  if (!program) return;
  const bool isMsb = cc < 32 && program->highResolutionCc[static_cast<size_t>(cc)];
  const bool isLsb = cc >= 32 && cc < 64 && program->highResolutionCc[static_cast<size_t>(cc - 32)];
  if (!isMsb && !isLsb) return;
  const auto n = static_cast<size_t>(isMsb ? cc : cc - 32);
  if (isMsb) {
    msb[n] = static_cast<uint8_t>(value);
    lsb[n] = 0;
  } else {
    lsb[n] = static_cast<uint8_t>(value);
  }
  controllers.set(static_cast<int>(n), static_cast<float>(msb[n] * 128 + lsb[n]) / 16383.0f);
}

// Bank select, and RPN 0 (pitch bend range: data entry MSB semitones, LSB cents).
// An NRPN deselects the RPN, so its data entry changes nothing here.
void Part::parameter(int cc, int value) noexcept SPINDLE_REALTIME {
  switch (cc) {
    case midi::kCcBankSelect: bank = value; break;
    case midi::kCcRpnMsb: rpn = (rpn & 0x7F) | (value << 7); break;
    case midi::kCcRpnLsb: rpn = (rpn & ~0x7F) | value; break;
    case midi::kCcNrpnMsb:
    case midi::kCcNrpnLsb: rpn = 0x3FFF; break;
    case midi::kCcDataEntry:
      if (rpn == 0) bendRange = static_cast<float>(value) * 100.0f;
      break;
    case midi::kCcDataEntryLsb:
      if (rpn == 0) bendRange = std::floor(bendRange / 100.0f) * 100.0f + static_cast<float>(std::min(value, 99));
      break;
    default: break;
  }
}

float Part::mixGain(bool soloActive) const noexcept SPINDLE_REALTIME {
  if (mute || (soloActive && !solo)) return 0.0f;
  return curves::controllerGain(controllers.midi7(midi::kCcVolume)) *
         curves::controllerGain(controllers.midi7(midi::kCcExpression)) *
         std::pow(10.0f, volumeDb * 0.05f);
}

float Part::mixPan() const noexcept SPINDLE_REALTIME {
  const int panCc = controllers.midi7(midi::kCcPan);
  const float ccPan = (static_cast<float>(panCc) - 64.0f) / (panCc < 64 ? 64.0f : 63.0f);
  return ccPan + pan;
}

}  // namespace spindle::engine
