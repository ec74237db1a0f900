#pragma once
// Ports: the plugin's audio and note ports as the host reads them (audio-ports,
// audio-ports-config, note-ports). Two layouts, chosen by the host while the plugin is
// inactive: the stereo main output alone (the default), or the main output and the 16
// parts' own stereo outputs (each part alone there, the main pair still the whole mix,
// as `spindle --multi-out` plays). Main thread.
#include <clap/clap.h>

namespace spindle::clap {

inline constexpr clap_id kMainOnlyConfig = 0, kPartOutputsConfig = 1;
// The note inputs: port 0 takes CLAP notes and MIDI, port 1 MIDI in the MIDI-MPE dialect
// (its first message is preceded by an MPE Configuration Message for a lower zone of 15
// members, which the stream's own RPN 6 may change; Plugin::handleEvent).
inline constexpr uint32_t kNotesPort = 0, kMpePort = 1;

extern const clap_plugin_audio_ports_t kAudioPorts;
extern const clap_plugin_audio_ports_config_t kAudioPortsConfig;
extern const clap_plugin_note_ports_t kNotePorts;
// Voices.cpp: voice-info (the engine's polyphony; notes of one key may overlap) and tail
// (the longest memory of the effects playing, Plugin::tailFrames).
extern const clap_plugin_voice_info_t kVoiceInfo;
extern const clap_plugin_tail_t kTail;

}  // namespace spindle::clap
