// The plugin's C entry points: the descriptor, and the worker and state interfaces the
// host finds through extension_data. Each forwards to lv2::Plugin.
#include <cstring>
#include <exception>
#include <string>

#include "lv2/Plugin.h"

namespace {

using spindle::lv2::Plugin;

LV2_Handle instantiate(const LV2_Descriptor*, double rate, const char*, const LV2_Feature* const* features) {
  std::string missing;
  const spindle::lv2::HostFeatures host = spindle::lv2::readFeatures(features, missing);
  if (!missing.empty()) {
    if (host.log)
      host.log->printf(host.log->handle, host.map->map(host.map->handle, LV2_LOG__Error),
                       "spindle.lv2: the host lacks the required feature %s\n", missing.c_str());
    return nullptr;
  }
  try {
    return new Plugin(rate, host);
  } catch (const std::exception&) {  // out of memory, or no disk thread could start
    return nullptr;
  }
}

void connectPort(LV2_Handle h, uint32_t port, void* data) { static_cast<Plugin*>(h)->connect(port, data); }
void activate(LV2_Handle) {}
void run(LV2_Handle h, uint32_t frames) { static_cast<Plugin*>(h)->run(frames); }
void deactivate(LV2_Handle) {}
void cleanup(LV2_Handle h) { delete static_cast<Plugin*>(h); }

LV2_Worker_Status work(LV2_Handle h, LV2_Worker_Respond_Function respond, LV2_Worker_Respond_Handle handle,
                       uint32_t size, const void* data) {
  return static_cast<Plugin*>(h)->work(respond, handle, size, data);
}
LV2_Worker_Status workResponse(LV2_Handle h, uint32_t size, const void* data) {
  return static_cast<Plugin*>(h)->workResponse(size, data);
}
LV2_State_Status save(LV2_Handle h, LV2_State_Store_Function store, LV2_State_Handle handle, uint32_t,
                      const LV2_Feature* const* features) {
  return static_cast<Plugin*>(h)->save(store, handle, features);
}
LV2_State_Status restore(LV2_Handle h, LV2_State_Retrieve_Function retrieve, LV2_State_Handle handle, uint32_t,
                         const LV2_Feature* const* features) {
  return static_cast<Plugin*>(h)->restore(retrieve, handle, features);
}

const void* extensionData(const char* uri) {
  static const LV2_Worker_Interface worker{work, workResponse, nullptr};
  static const LV2_State_Interface state{save, restore};
  if (std::strcmp(uri, LV2_WORKER__interface) == 0) return &worker;
  if (std::strcmp(uri, LV2_STATE__interface) == 0) return &state;
  return nullptr;
}

const LV2_Descriptor kDescriptor{spindle::lv2::kPluginUri, instantiate, connectPort, activate, run,
                                 deactivate, cleanup, extensionData};

}  // namespace

LV2_SYMBOL_EXPORT const LV2_Descriptor* lv2_descriptor(uint32_t index) {
  return index == 0 ? &kDescriptor : nullptr;
}
