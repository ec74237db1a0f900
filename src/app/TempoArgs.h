#pragma once
// --tempo BPM, for spindle and spindle-render: the set tempo (engine/Tempo.h), which
// lobpm/hibpm, delay_beats, stop_beats and the bus delays' synced taps play at unless
// the transport or MIDI clocks give one.
#include <optional>
#include <string>

namespace spindle::app {

inline constexpr float kMinTempoArg = 1.0f, kMaxTempoArg = 999.0f;
inline constexpr const char* kTempoRange = "1 to 999 BPM";

// The tempo `text` writes (a decimal number of beats per minute), or nullopt when it is
// not one or is out of range.
std::optional<float> parseTempoArg(const std::string& text);

}  // namespace spindle::app
