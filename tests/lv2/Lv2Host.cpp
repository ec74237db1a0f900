#include "Lv2Host.h"

#include <lv2/atom/util.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/midi/midi.h>
#include <lv2/patch/patch.h>
#include <lv2/state/state.h>

#include <dlfcn.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <optional>

#include "RtGuard.h"

namespace spindle::test {

namespace {

constexpr std::size_t kSequenceBytes = 1 << 16;

// Opens the plugin's shared object once more, never to be unmapped: lilv closes it with
// each instance, and a module unloaded before exit turns the memory its one-time tables
// hold (the SFZ opcode table, libxml2's ICU data through libarchive) into leaks in
// LeakSanitizer's report, hiding any an instance really loses. A host that keeps its
// plugins' modules loaded for its life sees the plugin the same way.
void keepModuleLoaded(const LilvPlugin* plugin) {
  char* path = lilv_file_uri_parse(lilv_node_as_uri(lilv_plugin_get_library_uri(plugin)), nullptr);
  if (path) dlopen(path, RTLD_NOW | RTLD_NODELETE);
  lilv_free(path);
}
constexpr std::size_t kMaxFrames = 8192;
constexpr uint32_t kControlPort = 0, kNotifyPort = 1, kLeftPort = 2, kRightPort = 3, kFreewheelPort = 4;
constexpr uint32_t kFirstControlPort = 5, kFirstHealthPort = 37, kFirstPartPort = 41;  // spindle.ttl

LV2_URID mapUri(LV2_URID_Map_Handle handle, const char* uri) { return static_cast<Lv2Host*>(handle)->map(uri); }
const char* unmapUrid(LV2_URID_Unmap_Handle handle, LV2_URID urid) { return static_cast<Lv2Host*>(handle)->unmap(urid); }

int logVprintf(LV2_Log_Handle handle, LV2_URID, const char* format, va_list args) {
  char line[2048];
  const int n = std::vsnprintf(line, sizeof line, format, args);
  auto& lines = *static_cast<std::vector<std::string>*>(handle);
  std::string text(line);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  lines.push_back(text);
  return n;
}

int logPrintf(LV2_Log_Handle handle, LV2_URID type, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = logVprintf(handle, type, format, args);
  va_end(args);
  return n;
}

}  // namespace

bool Lv2Host::Queue::push(uint32_t size, const void* data) {
  if (count == slots.size() || size > slots[count].bytes.size()) return false;
  slots[count].size = size;
  std::memcpy(slots[count].bytes.data(), data, size);
  ++count;
  return true;
}

Lv2Host::Lv2Host(HostOptions options)
    : options_(options), control_(kSequenceBytes / 8), notify_(kSequenceBytes / 8), left_(kMaxFrames),
      right_(kMaxFrames), freewheel_(options.freewheel ? 1.0f : 0.0f) {
  map_ = {this, mapUri};
  unmap_ = {this, unmapUrid};
  schedule_ = {this, schedule};
  log_ = {&logLines_, logPrintf, logVprintf};
  maxBlock_ = options.maxBlockFrames;
  const LV2_URID atomInt = map(LV2_ATOM__Int);
  optionList_[0] = {LV2_OPTIONS_INSTANCE, 0, map(LV2_BUF_SIZE__maxBlockLength), sizeof maxBlock_, atomInt, &maxBlock_};
  optionList_[1] = {LV2_OPTIONS_INSTANCE, 0, map(LV2_BUF_SIZE__nominalBlockLength), sizeof maxBlock_, atomInt, &maxBlock_};
  features_ = {LV2_Feature{LV2_URID__map, &map_}, LV2_Feature{LV2_URID__unmap, &unmap_},
               LV2_Feature{LV2_WORKER__schedule, &schedule_}, LV2_Feature{LV2_LOG__log, &log_},
               LV2_Feature{LV2_OPTIONS__options, optionList_.data()}};
  std::size_t n = 0;
  for (std::size_t i = 0; i < features_.size(); ++i)
    if (options.maxBlockFrames > 0 || i + 1 < features_.size()) featureList_[n++] = &features_[i];
  featureList_[n] = nullptr;
  lv2_atom_forge_init(&forge_, &map_);
  instantiate();
}

// Loads the build's bundle (and the system's LV2 specifications), instantiates the
// plugin and connects its ports.
void Lv2Host::instantiate() {
  world_ = lilv_world_new();
  lilv_world_load_specifications(world_);
  lilv_world_load_plugin_classes(world_);
  const std::string bundleUri = "file://" + std::string(SPINDLE_LV2_BUNDLE_DIR) + "/";
  LilvNode* bundle = lilv_new_uri(world_, bundleUri.c_str());
  lilv_world_load_bundle(world_, bundle);
  lilv_node_free(bundle);
  LilvNode* uri = lilv_new_uri(world_, "urn:spindle:lv2");
  plugin_ = lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world_), uri);
  lilv_node_free(uri);
  if (!plugin_) {
    error_ = "no plugin urn:spindle:lv2 in " + bundleUri;
    return;
  }
  keepModuleLoaded(plugin_);
  instance_ = lilv_plugin_instantiate(plugin_, options_.sampleRate, featureList_.data());
  if (!instance_) {
    error_ = "instantiate failed";
    return;
  }
  worker_ = static_cast<const LV2_Worker_Interface*>(lilv_instance_get_extension_data(instance_, LV2_WORKER__interface));
  lilv_instance_connect_port(instance_, kControlPort, control_.data());
  lilv_instance_connect_port(instance_, kNotifyPort, notify_.data());
  lilv_instance_connect_port(instance_, kLeftPort, left_.data());
  lilv_instance_connect_port(instance_, kRightPort, right_.data());
  lilv_instance_connect_port(instance_, kFreewheelPort, &freewheel_);
  controls_.fill(-1.0f);  // the ports' default: each control at the instrument's value
  for (uint32_t n = 0; n < kControls; ++n) lilv_instance_connect_port(instance_, kFirstControlPort + n, &controls_[n]);
  lilv_instance_connect_port(instance_, kFirstHealthPort, &health_.voices);
  lilv_instance_connect_port(instance_, kFirstHealthPort + 1, &health_.underruns);
  lilv_instance_connect_port(instance_, kFirstHealthPort + 2, &health_.latencyMs);
  lilv_instance_connect_port(instance_, kFirstHealthPort + 3, &health_.cacheFill);
  lilv_instance_activate(instance_);
  startSequence();
}

void Lv2Host::connectPart(int p) {
  const auto k = static_cast<std::size_t>(p);
  partLeft_.at(k).assign(left_.size(), 0.0f);
  partRight_.at(k).assign(right_.size(), 0.0f);
  lilv_instance_connect_port(instance_, kFirstPartPort + 2 * static_cast<uint32_t>(p), partLeft_[k].data());
  lilv_instance_connect_port(instance_, kFirstPartPort + 2 * static_cast<uint32_t>(p) + 1, partRight_[k].data());
}

void Lv2Host::connectPartsToScratch() {
  scratch_.assign(left_.size(), 0.0f);
  for (uint32_t port = kFirstPartPort; port < kFirstPartPort + 32; ++port)
    lilv_instance_connect_port(instance_, port, scratch_.data());
}

Lv2Host::~Lv2Host() {
  if (instance_) {
    lilv_instance_deactivate(instance_);
    lilv_instance_free(instance_);
  }
  lilv_world_free(world_);
}

LV2_URID Lv2Host::map(const char* uri) {
  std::lock_guard lock(mapMutex_);
  const auto [it, added] = ids_.emplace(uri, static_cast<LV2_URID>(uris_.size() + 1));
  if (added) uris_.push_back(uri);
  return it->second;
}

const char* Lv2Host::unmap(LV2_URID urid) {
  std::lock_guard lock(mapMutex_);
  return urid >= 1 && urid <= uris_.size() ? uris_[urid - 1].c_str() : nullptr;
}

LV2_Worker_Status Lv2Host::schedule(LV2_Worker_Schedule_Handle handle, uint32_t size, const void* data) {
  auto* host = static_cast<Lv2Host*>(handle);
  return !host->refuseWork_ && host->requests_.push(size, data) ? LV2_WORKER_SUCCESS : LV2_WORKER_ERR_NO_SPACE;
}

LV2_Worker_Status Lv2Host::respond(LV2_Worker_Respond_Handle handle, uint32_t size, const void* data) {
  return static_cast<Lv2Host*>(handle)->responses_.push(size, data) ? LV2_WORKER_SUCCESS : LV2_WORKER_ERR_NO_SPACE;
}

void Lv2Host::startSequence() {
  lv2_atom_forge_set_buffer(&forge_, reinterpret_cast<uint8_t*>(control_.data()), kSequenceBytes);
  lv2_atom_forge_sequence_head(&forge_, &sequenceFrame_, 0);
}

void Lv2Host::setInstrument(const std::string& path) {
  LV2_Atom_Forge_Frame frame;
  lv2_atom_forge_frame_time(&forge_, 0);
  lv2_atom_forge_object(&forge_, &frame, 0, map(LV2_PATCH__Set));
  lv2_atom_forge_key(&forge_, map(LV2_PATCH__property));
  lv2_atom_forge_urid(&forge_, map("urn:spindle:lv2#instrument"));
  lv2_atom_forge_key(&forge_, map(LV2_PATCH__value));
  lv2_atom_forge_path(&forge_, path.c_str(), static_cast<uint32_t>(path.size()));
  lv2_atom_forge_pop(&forge_, &frame);
}

void Lv2Host::setLevel(float db) {
  LV2_Atom_Forge_Frame frame;
  lv2_atom_forge_frame_time(&forge_, 0);
  lv2_atom_forge_object(&forge_, &frame, 0, map(LV2_PATCH__Set));
  lv2_atom_forge_key(&forge_, map(LV2_PATCH__property));
  lv2_atom_forge_urid(&forge_, map("urn:spindle:lv2#level"));
  lv2_atom_forge_key(&forge_, map(LV2_PATCH__value));
  lv2_atom_forge_float(&forge_, db);
  lv2_atom_forge_pop(&forge_, &frame);
}

void Lv2Host::getParameters() {
  LV2_Atom_Forge_Frame frame;
  lv2_atom_forge_frame_time(&forge_, 0);
  lv2_atom_forge_object(&forge_, &frame, 0, map(LV2_PATCH__Get));
  lv2_atom_forge_pop(&forge_, &frame);
}

void Lv2Host::midi(uint32_t frame, const uint8_t* bytes, uint32_t size) {
  lv2_atom_forge_frame_time(&forge_, frame);
  lv2_atom_forge_atom(&forge_, size, map(LV2_MIDI__MidiEvent));
  lv2_atom_forge_write(&forge_, bytes, size);
}

void Lv2Host::run(uint32_t frames, bool audioScope) {
  lv2_atom_forge_pop(&forge_, &sequenceFrame_);
  auto* notify = reinterpret_cast<LV2_Atom*>(notify_.data());
  notify->type = 0;
  notify->size = static_cast<uint32_t>(kSequenceBytes - sizeof(LV2_Atom));
  {
    std::optional<AudioThreadScope> scope;
    if (audioScope) scope.emplace();
    for (std::size_t i = 0; i < responses_.count; ++i)
      worker_->work_response(lilv_instance_get_handle(instance_), responses_.slots[i].size,
                             responses_.slots[i].bytes.data());
    responses_.count = 0;
    lilv_instance_run(instance_, frames);
  }
  readReplies();
  runWork();
  startSequence();
}

void Lv2Host::runWork() {
  for (std::size_t i = 0; i < requests_.count; ++i)
    worker_->work(lilv_instance_get_handle(instance_), respond, this, requests_.slots[i].size,
                  requests_.slots[i].bytes.data());
  requests_.count = 0;
}

void Lv2Host::readReplies() {
  replies_.clear();
  const auto* sequence = reinterpret_cast<const LV2_Atom_Sequence*>(notify_.data());
  const LV2_URID set = map(LV2_PATCH__Set), path = map(LV2_ATOM__Path), real = map(LV2_ATOM__Float);
  const LV2_URID tuple = map(LV2_ATOM__Tuple), text = map(LV2_ATOM__String);
  LV2_ATOM_SEQUENCE_FOREACH(sequence, event) {
    const auto* object = reinterpret_cast<const LV2_Atom_Object*>(&event->body);
    if (!lv2_atom_forge_is_object_type(&forge_, event->body.type) || object->body.otype != set) continue;
    const LV2_Atom* property = nullptr;
    const LV2_Atom* value = nullptr;
    lv2_atom_object_get(object, map(LV2_PATCH__property), &property, map(LV2_PATCH__value), &value, 0);
    if (!property || !value) continue;
    const char* key = unmap(reinterpret_cast<const LV2_Atom_URID*>(property)->body);
    if (value->type == path) replies_[key] = static_cast<const char*>(LV2_ATOM_BODY_CONST(value));
    if (value->type == real) replies_[key] = std::to_string(reinterpret_cast<const LV2_Atom_Float*>(value)->body);
    if (value->type == tuple) {
      std::string& joined = replies_[key];
      LV2_ATOM_TUPLE_FOREACH(reinterpret_cast<const LV2_Atom_Tuple*>(value), item)
        if (item->type == text) joined += std::string(static_cast<const char*>(LV2_ATOM_BODY_CONST(item))) + "\n";
    }
  }
}

std::vector<std::string> Lv2Host::takeLog() {
  std::vector<std::string> lines;
  lines.swap(logLines_);
  return lines;
}

bool Lv2Host::saveState(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  // As jalv does: files the plugin names are linked from the state's directory.
  LilvState* state = lilv_state_new_from_instance(plugin_, instance_, &map_, nullptr, dir.c_str(), dir.c_str(),
                                                  dir.c_str(), nullptr, nullptr,
                                                  LV2_STATE_IS_POD | LV2_STATE_IS_PORTABLE, featureList_.data());
  if (!state) return false;
  const int saved = lilv_state_save(world_, &map_, &unmap_, state, nullptr, dir.c_str(), "state.ttl");
  lilv_state_free(state);
  return saved == 0;
}

bool Lv2Host::restoreState(const std::filesystem::path& dir) {
  LilvState* state = lilv_state_new_from_file(world_, &map_, nullptr, (dir / "state.ttl").c_str());
  if (!state) return false;
  lilv_state_restore(state, instance_, nullptr, nullptr, 0, featureList_.data());
  lilv_state_free(state);
  return true;
}

std::vector<FramedMidi> framedEvents(const io::MidiSong& song, double rate) {
  std::vector<FramedMidi> out;
  for (const io::TimedMidiEvent& e : song.events) {
    if (e.status >= 0xF0) continue;
    const int type = e.status & 0xF0;
    FramedMidi m;
    m.frame = std::max<int64_t>(0, io::secondsToFrames(e.seconds, rate));
    m.bytes = {e.status, e.data1, e.data2};
    m.size = type == 0xC0 || type == 0xD0 ? 2 : 3;
    out.push_back(m);
  }
  return out;
}

}  // namespace spindle::test
