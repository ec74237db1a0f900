#pragma once
// Commands from the control side to the audio thread, and the stats it publishes.
#include <cstdint>
#include <type_traits>

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
};

struct Command {
  CommandType type = CommandType::Panic;
  int8_t part = 0;
  bool flag = false;
  int32_t count = 0;
  float value = 0.0f;
  const Program* program = nullptr;
};
static_assert(std::is_trivially_copyable_v<Command>);

struct EngineStats {
  uint32_t activeVoices = 0;
  uint32_t peakVoices = 0;
  uint64_t framesRendered = 0;
  uint64_t notesStarted = 0;   // voices started
  uint64_t voicesStolen = 0;
  uint64_t commandsDropped = 0;   // postCommand() refusals (FIFO full)
  uint64_t sourceUnderruns = 0;   // render chunks a SampleSource could not fully supply
};
static_assert(std::is_trivially_copyable_v<EngineStats>);

}  // namespace spindle::engine
