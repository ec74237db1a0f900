#pragma once
// Every fixed limit of Spindle in one place.
#include <cstdint>

namespace spindle::limits {

inline constexpr int kChannels = 16;              // MIDI channels, one part each
// The preview part: the engine's one part beyond the MIDI parts, which no MIDI channel
// addresses. The window's library browser auditions an instrument there (its own load
// and notes: CommandType::PreviewNote), mixed into the main output, never a part's own.
inline constexpr int kPreviewPart = kChannels;
inline constexpr int kEngineParts = kChannels + 1;  // the MIDI parts and the preview part
// The General MIDI percussion channel (10), 0-based: it plays SoundFont bank 128.
inline constexpr int kPercussionPart = 9;
inline constexpr int kMaxVoices = 4096;           // hard ceiling for --polyphony
inline constexpr int kDefaultPolyphony = 256;
inline constexpr int kMaxBlockFrames = 8192;      // largest process() block
inline constexpr int kDefaultBlockFrames = 256;
inline constexpr int kMaxEventsPerBlock = 4096;   // MIDI events one process() takes
inline constexpr int kGuardFrames = 32;           // readable frames past any span end (sinc taps)
inline constexpr int kProgramSlots = 128;         // instrument slots selectable by program change
inline constexpr double kDefaultSampleRate = 48000.0;
inline constexpr int kMaxRoutedHosts = 16;       // hosts a NetJACK2 master feeds MIDI (to_NAME ports)
inline constexpr int kMaxStreams = 4096;          // ceiling for --streams (disk stream slots)
inline constexpr float kStealFadeSeconds = 0.005f; // fade of a stolen or choked voice

}  // namespace spindle::limits
