// Plugin, its control side: loads and levels on the host's worker thread, and the
// state the host saves and restores. Never the audio thread.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/Limits.h"
#include "lv2/Plugin.h"
#include "lv2/WorkMessage.h"

namespace spindle::lv2 {

void Plugin::logLine(bool error, const std::string& text) {
  if (host_.log) {
    const LV2_URID type = host_.map->map(host_.map->handle, error ? LV2_LOG__Error : LV2_LOG__Warning);
    host_.log->printf(host_.log->handle, type, "spindle.lv2: %s\n", text.c_str());
  } else {
    std::fprintf(stderr, "spindle.lv2: %s\n", text.c_str());
  }
}

LV2_Worker_Status Plugin::work(LV2_Worker_Respond_Function respond, LV2_Worker_Respond_Handle handle, uint32_t size,
                               const void* data) {
  WorkHeader header;
  if (size < sizeof header) return LV2_WORKER_ERR_UNKNOWN;
  std::memcpy(&header, data, sizeof header);
  if (size < sizeof header + header.pathBytes) return LV2_WORKER_ERR_UNKNOWN;
  std::lock_guard lock(core_.controlMutex());
  if (header.kind == kWorkCollect) core_.collect();
  if (header.kind == kWorkLevel) core_.postLevel(header.value);
  if (header.kind != kWorkLoad || header.pathBytes == 0) return LV2_WORKER_SUCCESS;
  const std::string path(static_cast<const char*>(data) + sizeof header);
  if (!core_.loadInstrument(path)) return LV2_WORKER_SUCCESS;
  std::vector<char> reply(sizeof header + path.size() + 1 + sizeof(ControlMap));
  const WorkHeader loaded{kWorkLoaded, 0.0f, static_cast<uint32_t>(path.size() + 1)};
  std::memcpy(reply.data(), &loaded, sizeof loaded);
  std::memcpy(reply.data() + sizeof loaded, path.c_str(), path.size() + 1);
  const ControlMap& controls = core_.loadedControls();
  std::memcpy(reply.data() + sizeof loaded + path.size() + 1, &controls, sizeof controls);
  respond(handle, static_cast<uint32_t>(reply.size()), reply.data());
  return LV2_WORKER_SUCCESS;
}

namespace {

template <typename T>
T* findFeature(const LV2_Feature* const* features, const char* uri) {
  for (const LV2_Feature* const* f = features; f && *f; ++f)
    if (std::strcmp((*f)->URI, uri) == 0) return static_cast<T*>((*f)->data);
  return nullptr;
}

}  // namespace

// The instrument's path goes through the host's map_path (abstract: portable with the
// session), part 0's level as a float, the control ports' values as a vector of floats.
LV2_State_Status Plugin::save(LV2_State_Store_Function store, LV2_State_Handle handle,
                              const LV2_Feature* const* features) {
  const float level = level_.load(std::memory_order_relaxed);
  store(handle, uris_.level, &level, sizeof level, uris_.atomFloat, LV2_STATE_IS_POD | LV2_STATE_IS_PORTABLE);
  saveControls(store, handle);
  std::string path;
  {
    std::lock_guard lock(core_.controlMutex());
    path = core_.loadedPath();
  }
  if (path.empty()) return LV2_STATE_SUCCESS;
  auto* mapPath = findFeature<LV2_State_Map_Path>(features, LV2_STATE__mapPath);
  char* abstract = mapPath ? mapPath->abstract_path(mapPath->handle, path.c_str()) : nullptr;
  const std::string saved = abstract ? abstract : path;
  std::free(abstract);
  store(handle, uris_.instrument, saved.c_str(), saved.size() + 1, uris_.atomPath,
        LV2_STATE_IS_POD | LV2_STATE_IS_PORTABLE);
  return LV2_STATE_SUCCESS;
}

// Loads the saved instrument here, off the audio thread (the host never runs restore()
// and run() at once), and hands its path to run() for the next reply.
LV2_State_Status Plugin::restore(LV2_State_Retrieve_Function retrieve, LV2_State_Handle handle,
                                 const LV2_Feature* const* features) {
  std::size_t size = 0;
  uint32_t type = 0, flags = 0;
  std::lock_guard lock(core_.controlMutex());
  const void* level = retrieve(handle, uris_.level, &size, &type, &flags);
  if (level && type == uris_.atomFloat && size == sizeof(float)) {
    float db = 0.0f;
    std::memcpy(&db, level, sizeof db);
    level_.store(db, std::memory_order_relaxed);
    core_.postLevel(db);
  }
  restoreControls(retrieve, handle);
  const void* value = retrieve(handle, uris_.instrument, &size, &type, &flags);
  if (!value || type != uris_.atomPath || size == 0) return LV2_STATE_SUCCESS;
  const std::string saved(static_cast<const char*>(value), strnlen(static_cast<const char*>(value), size));
  auto* mapPath = findFeature<LV2_State_Map_Path>(features, LV2_STATE__mapPath);
  char* absolute = mapPath ? mapPath->absolute_path(mapPath->handle, saved.c_str()) : nullptr;
  std::error_code error;  // a link the host made to the file: its samples lie beside the real one
  const std::filesystem::path real = std::filesystem::weakly_canonical(absolute ? absolute : saved, error);
  std::free(absolute);
  const std::string path = error ? saved : real.string();
  if (path.size() + 1 > kMaxPathBytes || !core_.loadInstrument(path)) return LV2_STATE_ERR_UNKNOWN;
  std::memcpy(path_, path.c_str(), path.size() + 1);
  pathBytes_ = static_cast<uint32_t>(path.size() + 1);
  takeControlMap(core_.loadedControls());
  replyPending_ = true;
  collectRounds_ = 30;
  return LV2_STATE_SUCCESS;
}

void Plugin::saveControls(LV2_State_Store_Function store, LV2_State_Handle handle) {
  struct {
    LV2_Atom_Vector_Body head;
    std::array<float, kControlPorts> values;
  } vector{{sizeof(float), uris_.atomFloat}, {}};
  for (int n = 0; n < kControlPorts; ++n) vector.values[n] = controlValues_[n].load(std::memory_order_relaxed);
  store(handle, uris_.controls, &vector, sizeof vector, uris_.atomVector, LV2_STATE_IS_POD | LV2_STATE_IS_PORTABLE);
}

// The saved values play from the next cycle on (every one is sent again after a load);
// a port the host then moves plays its own.
void Plugin::restoreControls(LV2_State_Retrieve_Function retrieve, LV2_State_Handle handle) {
  std::size_t size = 0;
  uint32_t type = 0, flags = 0;
  const void* value = retrieve(handle, uris_.controls, &size, &type, &flags);
  if (!value || type != uris_.atomVector || size < sizeof(LV2_Atom_Vector_Body)) return;
  LV2_Atom_Vector_Body head;
  std::memcpy(&head, value, sizeof head);
  if (head.child_type != uris_.atomFloat || head.child_size != sizeof(float)) return;
  const std::size_t count = std::min<std::size_t>((size - sizeof head) / sizeof(float), kControlPorts);
  for (std::size_t n = 0; n < count; ++n) {
    float v = kControlUnset;
    std::memcpy(&v, static_cast<const char*>(value) + sizeof head + n * sizeof(float), sizeof v);
    controlValues_[n].store(std::isfinite(v) ? std::clamp(v, kControlUnset, 127.0f) : kControlUnset,
                            std::memory_order_relaxed);
  }
  resendControls_ = true;
}

}  // namespace spindle::lv2
