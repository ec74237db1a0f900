#include "lv2/Plugin.h"

#include <algorithm>
#include <cstring>

#include <lv2/atom/util.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/options/options.h>

#include "lv2/WorkMessage.h"

namespace spindle::lv2 {

namespace {

int optionBlockFrames(const LV2_Options_Option* options, LV2_URID_Map& map) {
  const LV2_URID maxLength = map.map(map.handle, LV2_BUF_SIZE__maxBlockLength);
  const LV2_URID nominal = map.map(map.handle, LV2_BUF_SIZE__nominalBlockLength);
  const LV2_URID atomInt = map.map(map.handle, LV2_ATOM__Int);
  int maxFrames = 0, nominalFrames = 0;
  for (const LV2_Options_Option* o = options; o && o->key; ++o) {
    if (o->type != atomInt || !o->value) continue;
    if (o->key == maxLength) maxFrames = *static_cast<const int32_t*>(o->value);
    if (o->key == nominal) nominalFrames = *static_cast<const int32_t*>(o->value);
  }
  return maxFrames > 0 ? maxFrames : nominalFrames;
}

}  // namespace

HostFeatures readFeatures(const LV2_Feature* const* features, std::string& missing) {
  HostFeatures host;
  const LV2_Options_Option* options = nullptr;
  for (const LV2_Feature* const* f = features; f && *f; ++f) {
    const std::string uri = (*f)->URI;
    if (uri == LV2_URID__map) host.map = static_cast<LV2_URID_Map*>((*f)->data);
    if (uri == LV2_WORKER__schedule) host.schedule = static_cast<LV2_Worker_Schedule*>((*f)->data);
    if (uri == LV2_LOG__log) host.log = static_cast<LV2_Log_Log*>((*f)->data);
    if (uri == LV2_OPTIONS__options) options = static_cast<const LV2_Options_Option*>((*f)->data);
  }
  if (!host.map) missing = LV2_URID__map;
  else if (!host.schedule) missing = LV2_WORKER__schedule;
  if (host.map) host.maxBlockFrames = optionBlockFrames(options, *host.map);
  return host;
}

Plugin::Plugin(double sampleRate, const HostFeatures& host)
    : host_(host), core_(sampleRate, host.maxBlockFrames, [this](bool error, const std::string& text) {
        logLine(error, text);
      }) {
  uris_.map(*host_.map);
  lv2_atom_forge_init(&forge_, host_.map);
  for (std::atomic<float>& value : controlValues_) value.store(kControlUnset, std::memory_order_relaxed);
  portSeen_.fill(kControlUnset);
  controlMap_.cc.fill(-1);
}

void Plugin::connect(uint32_t port, void* data) noexcept {
  switch (port) {
    case kControlPort: control_ = static_cast<const LV2_Atom_Sequence*>(data); break;
    case kNotifyPort: notify_ = static_cast<LV2_Atom_Sequence*>(data); break;
    case kLeftPort: left_ = static_cast<float*>(data); break;
    case kRightPort: right_ = static_cast<float*>(data); break;
    case kFreewheelPort: freewheel_ = static_cast<const float*>(data); break;
    case kVoicesPort: voicesOut_ = static_cast<float*>(data); break;
    case kUnderrunsPort: underrunsOut_ = static_cast<float*>(data); break;
    case kLatencyPort: latencyOut_ = static_cast<float*>(data); break;
    case kCacheFillPort: cacheFillOut_ = static_cast<float*>(data); break;
    default:
      if (port >= kFirstControlPort && port < kFirstControlPort + kControlPorts)
        controlPorts_[port - kFirstControlPort] = static_cast<const float*>(data);
      if (port >= kFirstPartPort && port < kPortCount) {
        engine::StereoOut& part = partPorts_[(port - kFirstPartPort) / 2];
        ((port - kFirstPartPort) % 2 == 0 ? part.left : part.right) = static_cast<float*>(data);
      }
      break;
  }
}

// A freewheeling cycle (the host's export) is not real-time: it may wait for the disk,
// so the export equals spindle-render's output.
void Plugin::run(uint32_t frames) noexcept {
  const bool freewheeling = freewheel_ && *freewheel_ > 0.5f;
  core_.setFreewheeling(freewheeling);
  if (freewheeling)
    process<false>(frames);
  else
    process<true>(frames);
}

// LV2's atom and forge utilities are inline header functions that walk or write the
// host's buffers: real-time safe though not annotated; so is the host's schedule_work.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
// The host's block is cut into chunks of at most the engine's block; each event plays
// at its own frame in its chunk.
template <bool Live>
void Plugin::process(uint32_t frames) noexcept SPINDLE_REALTIME_IF(Live) {
  if (notify_) {
    lv2_atom_forge_set_buffer(&forge_, reinterpret_cast<uint8_t*>(notify_), notify_->atom.size);
    lv2_atom_forge_sequence_head(&forge_, &notifyFrame_, 0);
  }
  retryRefused();
  const LV2_Atom_Event* event = control_ ? lv2_atom_sequence_begin(&control_->body) : nullptr;
  const auto atEnd = [&] { return !event || lv2_atom_sequence_is_end(&control_->body, control_->atom.size, event); };
  for (; frames == 0 && !atEnd(); event = lv2_atom_sequence_next(event))
    if (event->body.type != uris_.midiEvent) handleEvent(*event, 0);
  for (uint32_t done = 0; done < frames;) {
    const uint32_t end = done + std::min<uint32_t>(frames - done, static_cast<uint32_t>(core_.maxBlockFrames()));
    core_.beginChunk(end - done);
    if (done == 0) sendControls();
    for (; !atEnd() && (end == frames || event->time.frames < end); event = lv2_atom_sequence_next(event))
      handleEvent(*event, done);
    core_.endChunk<Live>(left_ + done, right_ + done, core_.partOutputs(partPorts_, left_, right_, done));
    done = end;
  }
  writeReplies();
  writeHealth();
  if (notify_) lv2_atom_forge_pop(&forge_, &notifyFrame_);
  scheduleCollect(frames);
}

void Plugin::handleEvent(const LV2_Atom_Event& event, uint32_t chunkStart) noexcept SPINDLE_REALTIME {
  if (event.body.type == uris_.midiEvent) {
    const auto at = static_cast<uint32_t>(std::max<int64_t>(event.time.frames, chunkStart));
    core_.addMidi(at - chunkStart, reinterpret_cast<const uint8_t*>(&event.body + 1), event.body.size);
  } else if (lv2_atom_forge_is_object_type(&forge_, event.body.type)) {
    handlePatch(*reinterpret_cast<const LV2_Atom_Object*>(&event.body));
  }
}

void Plugin::handlePatch(const LV2_Atom_Object& object) noexcept SPINDLE_REALTIME {
  if (object.body.otype == uris_.patchGet) {
    replyPending_ = true;
    return;
  }
  if (object.body.otype != uris_.patchSet) return;
  const LV2_Atom* property = nullptr;
  const LV2_Atom* value = nullptr;
  lv2_atom_object_get(&object, uris_.patchProperty, &property, uris_.patchValue, &value, 0);
  if (!property || property->type != uris_.atomUrid || !value) return;
  const LV2_URID key = reinterpret_cast<const LV2_Atom_URID*>(property)->body;
  if (key == uris_.instrument && value->type == uris_.atomPath && value->size > 1 && value->size <= kMaxPathBytes) {
    const char* path = static_cast<const char*>(LV2_ATOM_BODY_CONST(value));
    pendingPathBytes_ = 0;
    if (!schedule(kWorkLoad, 0.0f, path, value->size)) {  // the host's queue is full: next cycle
      std::memcpy(pendingPath_, path, value->size);
      pendingPathBytes_ = value->size;
    }
  } else if (key == uris_.level && value->type == uris_.atomFloat) {
    const float db = std::clamp(reinterpret_cast<const LV2_Atom_Float*>(value)->body, kMinLevelDb, kMaxLevelDb);
    level_.store(db, std::memory_order_relaxed);
    levelPending_ = !schedule(kWorkLevel, db, nullptr, 0);
  }
}

bool Plugin::schedule(uint32_t kind, float value, const char* path, uint32_t pathBytes) noexcept SPINDLE_REALTIME {
  alignas(WorkHeader) char message[sizeof(WorkHeader) + kMaxPathBytes];
  const WorkHeader header{kind, value, pathBytes};
  std::memcpy(message, &header, sizeof header);
  if (pathBytes > 0) std::memcpy(message + sizeof header, path, pathBytes);
  message[sizeof header + (pathBytes > 0 ? pathBytes - 1 : 0)] = '\0';
  return host_.schedule->schedule_work(host_.schedule->handle, static_cast<uint32_t>(sizeof header + pathBytes),
                                      message) == LV2_WORKER_SUCCESS;
}

// Requests the host's worker queue refused, asked again (the latest of each kind).
void Plugin::retryRefused() noexcept SPINDLE_REALTIME {
  if (pendingPathBytes_ > 0 && schedule(kWorkLoad, 0.0f, pendingPath_, pendingPathBytes_)) pendingPathBytes_ = 0;
  if (levelPending_) levelPending_ = !schedule(kWorkLevel, level_.load(std::memory_order_relaxed), nullptr, 0);
}

// patch:Set of each parameter, for a patch:Get or when the instrument changed.
void Plugin::writeReplies() noexcept SPINDLE_REALTIME {
  if (!replyPending_ || !notify_) return;
  replyPending_ = false;
  LV2_Atom_Forge_Frame frame;
  if (pathBytes_ > 0) {
    lv2_atom_forge_frame_time(&forge_, 0);
    lv2_atom_forge_object(&forge_, &frame, 0, uris_.patchSet);
    lv2_atom_forge_key(&forge_, uris_.patchProperty);
    lv2_atom_forge_urid(&forge_, uris_.instrument);
    lv2_atom_forge_key(&forge_, uris_.patchValue);
    lv2_atom_forge_path(&forge_, path_, pathBytes_ - 1);
    lv2_atom_forge_pop(&forge_, &frame);
  }
  lv2_atom_forge_frame_time(&forge_, 0);
  lv2_atom_forge_object(&forge_, &frame, 0, uris_.patchSet);
  lv2_atom_forge_key(&forge_, uris_.patchProperty);
  lv2_atom_forge_urid(&forge_, uris_.level);
  lv2_atom_forge_key(&forge_, uris_.patchValue);
  lv2_atom_forge_float(&forge_, level_.load(std::memory_order_relaxed));
  lv2_atom_forge_pop(&forge_, &frame);
  writeControlLabels();
}

// For a while after a program swap, once a second: the worker frees what the engine
// handed back (the old program, once its last voice ended).
void Plugin::scheduleCollect(uint32_t frames) noexcept SPINDLE_REALTIME {
  framesSinceCollect_ += frames;
  if (collectRounds_ <= 0 || static_cast<double>(framesSinceCollect_) < core_.sampleRate()) return;
  framesSinceCollect_ = 0;
  if (schedule(kWorkCollect, 0.0f, nullptr, 0)) --collectRounds_;
}

LV2_Worker_Status Plugin::workResponse(uint32_t size, const void* data) noexcept SPINDLE_REALTIME {
  WorkHeader header;
  if (size < sizeof header) return LV2_WORKER_ERR_UNKNOWN;
  std::memcpy(&header, data, sizeof header);
  if (header.kind != kWorkLoaded || header.pathBytes == 0 || header.pathBytes > kMaxPathBytes ||
      size < sizeof header + header.pathBytes + sizeof(ControlMap))
    return LV2_WORKER_ERR_UNKNOWN;
  std::memcpy(path_, static_cast<const char*>(data) + sizeof header, header.pathBytes);
  path_[header.pathBytes - 1] = '\0';
  pathBytes_ = header.pathBytes;
  ControlMap map;
  std::memcpy(&map, static_cast<const char*>(data) + sizeof header + header.pathBytes, sizeof map);
  takeControlMap(map);
  replyPending_ = true;
  collectRounds_ = 30;
  return LV2_WORKER_SUCCESS;
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

}  // namespace spindle::lv2
