// voice-info and tail: what the host asks of the plugin's voices and of its sound after
// the notes end.
#include "clap/Plugin.h"
#include "clap/Ports.h"

namespace spindle::clap {

namespace {

// Main thread, active: the engine's voices, all of them usable; a key may sound twice
// (two note ids, or a note and its release) at once.
bool voiceInfo(const clap_plugin_t* p, clap_voice_info_t* info) {
  const int voices = self(p).polyphony();
  if (voices < 1) return false;
  info->voice_count = info->voice_capacity = static_cast<uint32_t>(voices);
  info->flags = CLAP_VOICE_INFO_SUPPORTS_OVERLAPPING_NOTES;
  return true;
}

// Main or audio thread: frames the output may still change after the last voice ends.
uint32_t tail(const clap_plugin_t* p) { return self(p).tailFrames(); }

}  // namespace

const clap_plugin_voice_info_t kVoiceInfo{voiceInfo};
const clap_plugin_tail_t kTail{tail};

}  // namespace spindle::clap
