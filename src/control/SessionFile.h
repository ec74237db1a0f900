#pragma once
// Session files: instruments per part and the engine settings, as readable text.
//
//   # Spindle session
//   [settings]
//   polyphony = 256
//   preload = 4096
//   quality = 1
//   tempo = 96           (optional: the set tempo, BPM; without it the tempo is left as it is)
//
//   [part 1]
//   instrument = /home/me/piano/piano.sfz
//   volume = -3
//   pan = 0
//   mute = 0
//   solo = 0
//   scale = /home/me/tunings/19edo.scl     (optional: Scala scale and keyboard map)
//   keymap = /home/me/tunings/19edo.kbm
//   reverb-send = 40                       (CC91 and CC93, 0..127: 0 when left out)
//   chorus-send = 0
//   bypass = 1 3                           (optional: instrument effects bypassed,
//                                           control/SessionPartEffects.h)
//
//   [effects]
//   reverb = on
//   reverb-room-size = 0.2
//   (every setting of the shared reverb and chorus, control/SessionEffects.h)
//
//   [connections]
//   out_L = system:playback_1
//   out_R = system:playback_2
//   midi_in = a2j:Keystation [20] (capture): Keystation MIDI 1
//
// Parts are 1..16; a part without a section keeps the defaults (no instrument, 0 dB,
// centre, unmuted, 12-TET, no sends, no effect bypassed). [connections] holds one link per line (Spindle's port = the other
// port's full name); when present, a load restores exactly these links instead of the
// automatic connections. A relative instrument, scale or keymap path is relative to the session file's
// folder. Writing is atomic: a temporary file in the same folder, then rename().
//
// Thread: any (the control thread in Spindle).
#include <filesystem>
#include <optional>
#include <string>

#include "control/ControlTarget.h"

namespace spindle::control {

std::string formatSession(const SessionState& state);
// Parses `text`; on failure nullopt with `error` = "file:line: message".
std::optional<SessionState> parseSession(const std::string& text, const std::filesystem::path& file,
                                         std::string& error);

bool writeSessionFile(const std::filesystem::path& file, const SessionState& state, std::string& error);
std::optional<SessionState> readSessionFile(const std::filesystem::path& file, std::string& error);

}  // namespace spindle::control
