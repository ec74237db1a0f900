#include "clap/Ports.h"

#include <cstdio>
#include <cstring>

#include "clap/Plugin.h"
#include "core/Limits.h"

namespace spindle::clap {

namespace {

uint32_t outputCount(bool partOutputs) { return partOutputs ? 1 + limits::kChannels : 1; }

// ---- audio-ports: the main pair (id 0), then "Part N" (id N) when the layout has them ----
uint32_t audioPortCount(const clap_plugin_t* p, bool isInput) {
  return isInput ? 0 : outputCount(self(p).partOutputs());
}
bool audioPortInfo(const clap_plugin_t* p, uint32_t index, bool isInput, clap_audio_port_info_t* info) {
  if (isInput || index >= outputCount(self(p).partOutputs())) return false;
  *info = clap_audio_port_info_t{};
  info->id = index;
  if (index == 0) std::snprintf(info->name, sizeof info->name, "Main");
  else std::snprintf(info->name, sizeof info->name, "Part %u", index);
  info->flags = index == 0 ? CLAP_AUDIO_PORT_IS_MAIN : 0;
  info->channel_count = 2;
  info->port_type = CLAP_PORT_STEREO;
  info->in_place_pair = CLAP_INVALID_ID;
  return true;
}

// ---- audio-ports-config: the two layouts ----
uint32_t configCount(const clap_plugin_t*) { return 2; }
bool configInfo(const clap_plugin_t*, uint32_t index, clap_audio_ports_config_t* config) {
  if (index > kPartOutputsConfig) return false;
  *config = clap_audio_ports_config_t{};
  config->id = index;
  std::snprintf(config->name, sizeof config->name, "%s",
                index == kPartOutputsConfig ? "Stereo + 16 part outputs" : "Stereo");
  config->output_port_count = outputCount(index == kPartOutputsConfig);
  config->has_main_output = true;
  config->main_output_channel_count = 2;
  config->main_output_port_type = CLAP_PORT_STEREO;
  return true;
}
bool selectConfig(const clap_plugin_t* p, clap_id id) {
  return id <= kPartOutputsConfig && self(p).selectPartOutputs(id == kPartOutputsConfig);
}

// ---- note-ports: "Notes" (CLAP notes preferred, MIDI taken) and "MPE" (MIDI as MPE) ----
uint32_t notePortCount(const clap_plugin_t*, bool isInput) { return isInput ? 2 : 0; }
bool notePortInfo(const clap_plugin_t*, uint32_t index, bool isInput, clap_note_port_info_t* info) {
  if (!isInput || index > kMpePort) return false;
  *info = clap_note_port_info_t{};
  info->id = index;
  const bool mpe = index == kMpePort;
  info->supported_dialects = mpe ? CLAP_NOTE_DIALECT_MIDI_MPE : CLAP_NOTE_DIALECT_CLAP | CLAP_NOTE_DIALECT_MIDI;
  info->preferred_dialect = mpe ? CLAP_NOTE_DIALECT_MIDI_MPE : CLAP_NOTE_DIALECT_CLAP;
  std::snprintf(info->name, sizeof info->name, mpe ? "MPE" : "Notes");
  return true;
}

}  // namespace

const clap_plugin_audio_ports_t kAudioPorts{audioPortCount, audioPortInfo};
const clap_plugin_audio_ports_config_t kAudioPortsConfig{configCount, configInfo, selectConfig};
const clap_plugin_note_ports_t kNotePorts{notePortCount, notePortInfo};

}  // namespace spindle::clap
