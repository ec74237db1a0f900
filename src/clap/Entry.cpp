// The plugin's C entry points: clap_entry, its factory and descriptor, the clap_plugin
// callbacks and the extensions the host finds through get_extension. Each forwards to
// clap::Plugin; none does work of its own.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "clap/Plugin.h"
#include "clap/Ports.h"

namespace {

using spindle::clap::Plugin;
using spindle::clap::kAudioPorts;
using spindle::clap::kAudioPortsConfig;
using spindle::clap::kNotePorts;
using spindle::clap::kTail;
using spindle::clap::kVoiceInfo;
using spindle::clap::self;

// ---- the plugin ----
bool init(const clap_plugin_t* p) { return self(p).init(); }
void destroy(const clap_plugin_t* p) { delete &self(p); }
bool activate(const clap_plugin_t* p, double rate, uint32_t, uint32_t maxFrames) {
  return self(p).activate(rate, maxFrames);
}
void deactivate(const clap_plugin_t* p) { self(p).deactivate(); }
bool startProcessing(const clap_plugin_t*) { return true; }
void stopProcessing(const clap_plugin_t*) {}
void reset(const clap_plugin_t*) {}
clap_process_status process(const clap_plugin_t* p, const clap_process_t* block) { return self(p).process(*block); }
void onMainThread(const clap_plugin_t* p) { self(p).onMainThread(); }

// ---- params ----
uint32_t paramCount(const clap_plugin_t*) { return spindle::clap::kParamCount; }
bool paramInfo(const clap_plugin_t* p, uint32_t index, clap_param_info_t* info) { return self(p).paramInfo(index, *info); }
bool paramValue(const clap_plugin_t* p, clap_id id, double* value) { return self(p).paramValue(id, *value); }
bool paramText(const clap_plugin_t*, clap_id id, double value, char* text, uint32_t capacity) {
  if (id >= spindle::clap::kParamCount || capacity == 0) return false;
  const bool whole = id == spindle::clap::kVoicesParam || id == spindle::clap::kUnderrunsParam ||
                     id >= spindle::clap::kFirstControlParam;  // voices, underruns, MIDI values
  std::snprintf(text, capacity, whole ? "%.0f" : "%.1f", value);
  return true;
}
bool paramFromText(const clap_plugin_t*, clap_id id, const char* text, double* value) {
  if (id >= spindle::clap::kParamCount || !text) return false;
  char* end = nullptr;
  *value = std::strtod(text, &end);
  return end != text;
}
void paramFlush(const clap_plugin_t* p, const clap_input_events_t* in, const clap_output_events_t*) {
  if (in) self(p).flushParams(*in);
}
const clap_plugin_params_t kParams{paramCount, paramInfo, paramValue, paramText, paramFromText, paramFlush};

// ---- state, latency, render, note names ----
bool saveState(const clap_plugin_t* p, const clap_ostream_t* stream) { return self(p).saveState(*stream); }
bool loadState(const clap_plugin_t* p, const clap_istream_t* stream) { return self(p).loadState(*stream); }
const clap_plugin_state_t kState{saveState, loadState};
uint32_t latency(const clap_plugin_t*) { return 0; }  // events play at their frame
const clap_plugin_latency_t kLatency{latency};
bool hardRealtime(const clap_plugin_t*) { return false; }
bool setRender(const clap_plugin_t* p, clap_plugin_render_mode mode) {
  self(p).setOffline(mode == CLAP_RENDER_OFFLINE);
  return true;
}
const clap_plugin_render_t kRender{hardRealtime, setRender};

uint32_t noteNameCount(const clap_plugin_t* p) { return self(p).noteNameCount(); }
bool noteName(const clap_plugin_t* p, uint32_t index, clap_note_name_t* name) { return self(p).noteName(index, *name); }
const clap_plugin_note_name_t kNoteName{noteNameCount, noteName};

const void* extension(const clap_plugin_t*, const char* id) {
  if (std::strcmp(id, CLAP_EXT_AUDIO_PORTS) == 0) return &kAudioPorts;
  if (std::strcmp(id, CLAP_EXT_AUDIO_PORTS_CONFIG) == 0) return &kAudioPortsConfig;
  if (std::strcmp(id, CLAP_EXT_NOTE_PORTS) == 0) return &kNotePorts;
  if (std::strcmp(id, CLAP_EXT_PARAMS) == 0) return &kParams;
  if (std::strcmp(id, CLAP_EXT_STATE) == 0) return &kState;
  if (std::strcmp(id, CLAP_EXT_LATENCY) == 0) return &kLatency;
  if (std::strcmp(id, CLAP_EXT_RENDER) == 0) return &kRender;
  if (std::strcmp(id, CLAP_EXT_NOTE_NAME) == 0) return &kNoteName;
  if (std::strcmp(id, CLAP_EXT_VOICE_INFO) == 0) return &kVoiceInfo;
  if (std::strcmp(id, CLAP_EXT_TAIL) == 0) return &kTail;
  return nullptr;
}

// ---- the factory ----
const char* const kFeatures[] = {CLAP_PLUGIN_FEATURE_INSTRUMENT, CLAP_PLUGIN_FEATURE_SAMPLER,
                                 CLAP_PLUGIN_FEATURE_STEREO, nullptr};
const clap_plugin_descriptor_t kDescriptor{CLAP_VERSION_INIT, spindle::clap::kPluginId, "Spindle", "Spindle",
                                           "", "", "", SPINDLE_CLAP_VERSION,
                                           "A disk-streaming sampler: SFZ, SoundFont, DecentSampler, Hydrogen",
                                           kFeatures};

uint32_t pluginCount(const clap_plugin_factory_t*) { return 1; }
const clap_plugin_descriptor_t* descriptor(const clap_plugin_factory_t*, uint32_t index) {
  return index == 0 ? &kDescriptor : nullptr;
}
const clap_plugin_t* create(const clap_plugin_factory_t*, const clap_host_t* host, const char* id) {
  if (!host || !id || std::strcmp(id, kDescriptor.id) != 0 || !clap_version_is_compatible(host->clap_version))
    return nullptr;
  auto* plugin = new (std::nothrow) Plugin(host);
  if (!plugin) return nullptr;
  *plugin->clapPlugin() = clap_plugin_t{&kDescriptor, plugin, init, destroy, activate, deactivate, startProcessing,
                                        stopProcessing, reset, process, extension, onMainThread};
  return plugin->clapPlugin();
}
const clap_plugin_factory_t kFactory{pluginCount, descriptor, create};

bool entryInit(const char*) { return true; }
void entryDeinit() {}
const void* factory(const char* id) { return std::strcmp(id, CLAP_PLUGIN_FACTORY_ID) == 0 ? &kFactory : nullptr; }

}  // namespace

extern "C" CLAP_EXPORT const clap_plugin_entry_t clap_entry{CLAP_VERSION_INIT, entryInit, entryDeinit, factory};
