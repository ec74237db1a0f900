#pragma once
// Commands from the control side to the audio thread, and the stats it publishes.
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/Limits.h"
#include "core/Tuning.h"
#include "engine/Tempo.h"

namespace spindle::engine {

struct Program;

enum class CommandType : uint8_t {
  SetProgram,      // part, program (nullptr unloads); the old one goes to the trash FIFO
  SetPartVolume,   // part, value (dB)
  SetPartPan,      // part, value (-1..1)
  SetPartMute,     // part, flag
  SetPartSolo,     // part, flag
  SetPolyphony,    // count (<= config polyphony)
  SetQuality,      // count = Quality
  Panic,           // all sound off on every part, at once with a short fade
  SetSlotProgram,  // count = slot 0..127, program (nullptr empties it); parts playing the
                   // slot switch to the new program; the old one goes to the trash FIFO
  SelectSlot,      // part, count = slot: what a MIDI program change does
  SetTempo,        // value = beats per minute: the set tempo (engine/Tempo.h)
  SetEffect,       // count = EffectParam (core/EffectParams.h), value: the shared reverb's
                   // or chorus's setting, clamped to its range
  SetPartTuning,   // part, tuning (copied when taken; Engine::setPartTuning owns it)
  SetPartEffectBypass,  // part, count = the effect's index in its bus layout (file order,
                        // < kBypassableEffects), flag: the player's bypass (PartBuses.h)
  SetMpeZone,      // flag = upper zone (master channel 16) else lower (1), count = member
                   // channels 0..15 (0: off): as the MPE Configuration Message sets it
  PreviewNote,     // the preview part (limits::kPreviewPart): count = key 0..127, value =
                   // velocity 1..127 (0: note-off); count = -1: all its sound off
  SelectPreset,    // part (the preview part included), count = bank * 128 + program: the
                   // SoundFont preset it plays, as bank select and program change choose it
};

struct Command {
  CommandType type = CommandType::Panic;
  int8_t part = 0;
  bool flag = false;
  int32_t count = 0;
  float value = 0.0f;
  const Program* program = nullptr;
  const KeyTuning* tuning = nullptr;
};
static_assert(std::is_trivially_copyable_v<Command>);

// One part's state at the end of the last process() call.
//   voices: active voices of the part (sounding, releasing or fading out).
//   peak:   largest |frame value| of the part's own mix in that call, either channel,
//           after the part's gain and pan (what it adds to the output); linear, 1 = 0 dBFS.
//           Per call, no hold or decay: a meter's ballistics are the reader's business.
//   heldKeys: keys whose note-on the engine took and whose note-off it has not; key k is
//           bit k % 64 of word k / 64. Keys released under the sustain pedal are not held
//           (their voices still sound and count in `voices`); all-notes-off clears them.
struct PartStats {
  uint32_t voices = 0;
  float peak = 0.0f;
  std::array<uint64_t, 2> heldKeys{};
  // The Program the part played in that call (null: none). Compare only, never read
  // through it: it may already be handed back. Tells a reader when Engine::controllerValue
  // speaks for the program it loaded.
  const Program* program = nullptr;
  // The player's bypass flags of the program's bus effects, bit i for effect i
  // (core/PartEffects.h); cleared when the part switches programs.
  uint64_t effectBypass = 0;

  bool held(int key) const noexcept {
    return key >= 0 && key < 128 && ((heldKeys[static_cast<std::size_t>(key >> 6)] >> (key & 63)) & 1U) != 0;
  }
};
static_assert(std::is_trivially_copyable_v<PartStats>);

// One MPE member channel's note (parts/Expression.h) at the end of the last call: the
// lowest key held on the channel (-1: none held, or the channel is no zone's member),
// the note's own pitch bend in cents (the zone's per-note range; the master channel's
// bend is the zone's, not the note's), its channel pressure and CC74 (timbre), 0..1.
struct NoteExpressionStats {
  int key = -1;
  float bendCents = 0.0f, pressure = 0.0f, timbre = 0.0f;
};

struct EngineStats {
  uint32_t activeVoices = 0;
  uint32_t peakVoices = 0;
  uint64_t framesRendered = 0;
  uint64_t notesStarted = 0;   // voices started
  uint64_t voicesStolen = 0;
  uint64_t commandsDropped = 0;   // postCommand() refusals (FIFO full)
  uint64_t sourceUnderruns = 0;   // render chunks a SampleSource could not fully supply
  bool effectsSounding = false;   // the reverb or chorus tail has not died yet
  // The longest memory of the effects the parts play (their buses') and of the send
  // effects that run: frames the output may go on changing after the voices end.
  int tailFrames = 0;
  float tempo = Tempo::kDefaultBpm;  // beats per minute at the end of the last call
  TempoSource tempoSource = TempoSource::Default;
  // MPE zones in effect (parts/Expression.h): member channels of the lower zone (master
  // channel 1) and the upper (master 16), 0 when off; set by hand or by an MPE
  // Configuration Message in the MIDI.
  int mpeLower = 0, mpeUpper = 0;
  std::array<NoteExpressionStats, limits::kChannels> mpeNotes{};  // by MIDI channel
  std::array<PartStats, limits::kChannels> parts{};
  // The preview part (limits::kPreviewPart): its state as a part's, and the note-ons it
  // took (CommandType::PreviewNote), counted from the engine's start.
  PartStats preview{};
  uint64_t previewNotes = 0;
};
static_assert(std::is_trivially_copyable_v<EngineStats>);

}  // namespace spindle::engine
