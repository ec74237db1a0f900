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

#include "core/Controllers.h"
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

void Plugin::collect() { library_.collect(engine_); }

// Loads `path` and plays it on every part, as spindle-render and the live sampler do.
// On failure every problem is logged and the parts keep what they play.
bool Plugin::loadInstrument(const std::string& path) {
  collect();
  session::Loader::Result loaded = library_.load(path);
  const session::LoadReport& report = loaded.report;
  for (const instrument::Diagnostic& d : report.diagnostics)
    logLine(d.severity == instrument::Diagnostic::Severity::Error, session::formatDiagnostic(d));
  for (const std::string& file : report.missingFiles) logLine(false, "missing sample: " + file);
  for (const session::SampleError& error : report.sampleErrors) logLine(false, error.message);
  if (!loaded.program) {
    logLine(true, "cannot load instrument " + path + " (still playing " +
                      (loadedPath_.empty() ? std::string("nothing") : loadedPath_) + ")");
    return false;
  }
  const engine::Program* program = library_.keep(std::move(loaded.program));
  loadedControls_ = controlMap(*program);
  if (const int refused = session::postToEveryPart(engine_, program); refused > 0)
    logLine(true, "the engine refused the program for " + std::to_string(refused) + " part(s)");
  loadedPath_ = path;
  return true;
}

void Plugin::postLevel(float db) {
  engine::Command command;
  command.type = engine::CommandType::SetPartVolume;
  command.part = 0;
  command.value = db;
  if (!engine_.postCommand(command)) logLine(true, "the engine refused part 0's level");
}

LV2_Worker_Status Plugin::work(LV2_Worker_Respond_Function respond, LV2_Worker_Respond_Handle handle, uint32_t size,
                               const void* data) {
  WorkHeader header;
  if (size < sizeof header) return LV2_WORKER_ERR_UNKNOWN;
  std::memcpy(&header, data, sizeof header);
  if (size < sizeof header + header.pathBytes) return LV2_WORKER_ERR_UNKNOWN;
  std::lock_guard lock(controlMutex_);
  if (header.kind == kWorkCollect) collect();
  if (header.kind == kWorkLevel) postLevel(header.value);
  if (header.kind != kWorkLoad || header.pathBytes == 0) return LV2_WORKER_SUCCESS;
  const std::string path(static_cast<const char*>(data) + sizeof header);
  if (!loadInstrument(path)) return LV2_WORKER_SUCCESS;
  std::vector<char> reply(sizeof header + path.size() + 1 + sizeof(ControlMap));
  const WorkHeader loaded{kWorkLoaded, 0.0f, static_cast<uint32_t>(path.size() + 1)};
  std::memcpy(reply.data(), &loaded, sizeof loaded);
  std::memcpy(reply.data() + sizeof loaded, path.c_str(), path.size() + 1);
  std::memcpy(reply.data() + sizeof loaded + path.size() + 1, &loadedControls_, sizeof loadedControls_);
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
    std::lock_guard lock(controlMutex_);
    path = loadedPath_;
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
  std::lock_guard lock(controlMutex_);
  const void* level = retrieve(handle, uris_.level, &size, &type, &flags);
  if (level && type == uris_.atomFloat && size == sizeof(float)) {
    float db = 0.0f;
    std::memcpy(&db, level, sizeof db);
    level_.store(db, std::memory_order_relaxed);
    postLevel(db);
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
  if (path.size() + 1 > kMaxPathBytes || !loadInstrument(path)) return LV2_STATE_ERR_UNKNOWN;
  std::memcpy(path_, path.c_str(), path.size() + 1);
  pathBytes_ = static_cast<uint32_t>(path.size() + 1);
  takeControlMap(loadedControls_);
  replyPending_ = true;
  collectRounds_ = 30;
  return LV2_STATE_SUCCESS;
}

// The instrument's labelled controls in its order, as the control ports map them: the
// first kControlPorts with a MIDI CC (label_cc above 127 names no MIDI controller).
ControlMap Plugin::controlMap(const engine::Program& program) const {
  ControlMap map;
  map.cc.fill(-1);
  for (const controllers::ControllerLabel& label : program.controllerLabels) {
    if (label.cc < 0 || label.cc > 127 || map.count == kControlPorts) continue;
    const std::size_t bytes = std::min<std::size_t>(label.label.size(), 63) + 1;
    if (map.labelBytes + bytes > kLabelBytes) break;
    std::memcpy(map.labels.data() + map.labelBytes, label.label.data(), bytes - 1);
    map.labelBytes += static_cast<uint32_t>(bytes);
    map.cc[map.count++] = static_cast<int16_t>(label.cc);
  }
  return map;
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
