// Plugin, its life and its audio thread: activate() builds the core; process() plays the
// host's events at their frames through it, chunk by chunk.
#include "clap/Plugin.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>

#include "clap/Events.h"
#include "clap/Ports.h"

namespace spindle::clap {

namespace {

// What a block of no frames, or a flush, takes: parameter values and modulations.
bool isParamEvent(const clap_event_header_t& event) noexcept SPINDLE_REALTIME {
  return event.space_id == CLAP_CORE_EVENT_SPACE_ID &&
         (event.type == CLAP_EVENT_PARAM_VALUE || event.type == CLAP_EVENT_PARAM_MOD);
}

}  // namespace

Plugin::Plugin(const clap_host_t* host) : host_(host) {
  for (std::atomic<int16_t>& cc : controlCc_) cc.store(-1, std::memory_order_relaxed);
  for (std::atomic<float>& value : controlValues_) value.store(kControlUnset, std::memory_order_relaxed);
  notes_.bindControls(playing_, kFirstControlParam);
}

bool Plugin::init() {
  hostLog_ = static_cast<const clap_host_log_t*>(host_->get_extension(host_, CLAP_EXT_LOG));
  threadCheck_ = static_cast<const clap_host_thread_check_t*>(host_->get_extension(host_, CLAP_EXT_THREAD_CHECK));
  hostParams_ = static_cast<const clap_host_params_t*>(host_->get_extension(host_, CLAP_EXT_PARAMS));
  hostNoteName_ = static_cast<const clap_host_note_name_t*>(host_->get_extension(host_, CLAP_EXT_NOTE_NAME));
  hostTail_ = static_cast<const clap_host_tail_t*>(host_->get_extension(host_, CLAP_EXT_TAIL));
  if (const char* path = std::getenv(kInstrumentVariable); path && *path) instrument_ = path;
  try {
    worker_ = std::make_unique<LoadWorker>([this](plugin::Core& core, bool loaded) {
      if (loaded) {
        newInstrument_.store(true, std::memory_order_release);
        publishControls(core.loadedControls());
      }
      loadEnded_.store(true, std::memory_order_release);
      host_->request_callback(host_);
    });
  } catch (const std::exception& error) {  // no thread could start
    log(CLAP_LOG_ERROR, std::string("cannot start the loader thread: ") + error.what());
    return false;
  }
  return true;
}

// A core for the host's rate and longest block (kept while they stay the same: a
// deactivate and activate with the same settings plays on without reloading), then the
// instrument and the level the state or the environment named.
bool Plugin::activate(double sampleRate, uint32_t maxFrames) {
  if (core_ && activeRate_ == sampleRate && activeMaxFrames_ == maxFrames) return active_ = true;
  worker_->waitIdle();  // its job may hold the core about to go
  core_.reset();
  notes_.clear();
  mpeZoneSent_ = false;
  try {
    core_ = std::make_unique<plugin::Core>(sampleRate, static_cast<int>(std::min<uint32_t>(maxFrames, 1u << 30)),
                                           [this](bool error, const std::string& text) {
                                             log(error ? CLAP_LOG_ERROR : CLAP_LOG_WARNING, text);
                                           });
  } catch (const std::exception& error) {  // out of memory, or no disk thread could start
    log(CLAP_LOG_ERROR, std::string("cannot start the engine: ") + error.what());
    return false;
  }
  activeRate_ = sampleRate;
  activeMaxFrames_ = maxFrames;
  active_ = true;
  std::lock_guard lock(core_->controlMutex());
  if (levelSet_.load(std::memory_order_relaxed)) core_->postLevel(level_.load(std::memory_order_relaxed));
  levelPending_.store(false, std::memory_order_relaxed);
  if (!instrument_.empty()) playInstrument(instrument_);
  return true;
}

bool Plugin::selectPartOutputs(bool on) {
  if (active_) return false;
  partOutputs_ = on;
  return true;
}

// The host's event list and its request_callback are real-time safe by CLAP's contract
// (process() calls them on the audio thread), though their pointers carry no effect.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
clap_process_status Plugin::process(const clap_process_t& block) noexcept {
  if (!core_ || block.audio_outputs_count < 1 || block.audio_outputs[0].channel_count < 2 ||
      !block.audio_outputs[0].data32)
    return CLAP_PROCESS_ERROR;
  clap_audio_buffer_t& out = block.audio_outputs[0];
  out.constant_mask = 0;
  const bool offline = offline_.load(std::memory_order_relaxed);
  if (offline) worker_->waitIdle();  // not real-time: the render plays the library it was given
  core_->setFreewheeling(offline);
  if (newInstrument_.exchange(false, std::memory_order_acquire)) core_->underrunsFromHere();
  const engine::PartOutputs* parts = partPorts(block);
  if (offline)
    render<false>(block, out.data32[0], out.data32[1], parts);
  else
    render<true>(block, out.data32[0], out.data32[1], parts);
  publishHealth(block.out_events, block.frames_count);
  const auto tail = static_cast<uint32_t>(std::max(0, core_->tailFrames()));
  if (tail_.exchange(tail, std::memory_order_relaxed) != tail && hostTail_ && hostTail_->changed) hostTail_->changed(host_);
  if (levelPending_.load(std::memory_order_relaxed)) host_->request_callback(host_);
  return CLAP_PROCESS_CONTINUE;
}

// The host's block is cut into chunks of at most the engine's block; each event plays
// at its own frame in its chunk (the engine renders sample-accurately inside a chunk).
// A block of no frames takes its parameter changes only.
template <bool Live>
void Plugin::render(const clap_process_t& block, float* left, float* right,
                    const engine::PartOutputs* parts) noexcept SPINDLE_REALTIME_IF(Live) {
  const clap_input_events_t* in = block.in_events;
  const uint32_t count = in ? in->size(in) : 0;
  const uint32_t frames = block.frames_count;
  uint32_t next = 0;
  for (; frames == 0 && next < count; ++next)
    if (const clap_event_header_t* event = in->get(in, next); event && isParamEvent(*event)) handleEvent(*event, 0);
  const auto chunk = static_cast<uint32_t>(core_->maxBlockFrames());
  for (uint32_t done = 0; done < frames;) {
    const uint32_t end = done + std::min(frames - done, chunk);
    core_->beginChunk(end - done);
    inChunk_ = true;
    if (done == 0) takeControls();
    for (; next < count; ++next) {
      const clap_event_header_t* event = in->get(in, next);
      if (!event) continue;
      if (end != frames && event->time >= end) break;
      handleEvent(*event, done, in, next);
    }
    inChunk_ = false;
    core_->endChunk<Live>(left + done, right + done, parts ? core_->partOutputs(*parts, left, right, done) : nullptr);
    notes_.chunkEnded(*core_, block.out_events, end);
    done = end;
  }
}

const engine::PartOutputs* Plugin::partPorts(const clap_process_t& block) noexcept SPINDLE_REALTIME {
  if (!partOutputs_ || block.audio_outputs_count < 1 + partPorts_.size()) return nullptr;
  for (std::size_t p = 0; p < partPorts_.size(); ++p) {
    clap_audio_buffer_t& port = block.audio_outputs[1 + p];
    const bool stereo = port.channel_count >= 2 && port.data32;
    partPorts_[p] = stereo ? engine::StereoOut{port.data32[0], port.data32[1]} : engine::StereoOut{};
    port.constant_mask = 0;
  }
  return &partPorts_;
}

void Plugin::flushParams(const clap_input_events_t& events) noexcept SPINDLE_REALTIME {
  const uint32_t count = events.size(&events);
  for (uint32_t n = 0; n < count; ++n)
    if (const clap_event_header_t* event = events.get(&events, n); event && isParamEvent(*event))
      handleEvent(*event, 0);
  if (levelPending_.load(std::memory_order_relaxed)) host_->request_callback(host_);
}
void Plugin::publishHealth(const clap_output_events_t* out, uint32_t frames) noexcept SPINDLE_REALTIME {
  const plugin::Health health = core_->health();
  const std::array<float, kFirstControlParam> values{0.0f, health.voices, health.underruns, health.latencyMs,
                                                     health.cacheFill};
  for (clap_id id = kVoicesParam; id < kFirstControlParam; ++id) {
    health_[id].store(values[id], std::memory_order_relaxed);
    if (!out || values[id] == healthSent_[id]) continue;
    clap_event_param_value_t event{};
    event.header = {sizeof event, frames > 0 ? frames - 1 : 0, CLAP_CORE_EVENT_SPACE_ID, CLAP_EVENT_PARAM_VALUE, 0};
    event.param_id = id;
    event.note_id = -1;
    event.port_index = event.channel = event.key = -1;
    event.value = values[id];
    if (out->try_push(out, &event.header)) healthSent_[id] = values[id];
  }
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

void Plugin::handleEvent(const clap_event_header_t& event, uint32_t chunkStart, const clap_input_events_t* list,
                         uint32_t index) noexcept SPINDLE_REALTIME {
  if (event.space_id != CLAP_CORE_EVENT_SPACE_ID) return;
  const uint32_t offset = std::max(event.time, chunkStart) - chunkStart;
  switch (event.type) {
    case CLAP_EVENT_NOTE_ON:
    case CLAP_EVENT_NOTE_OFF:
    case CLAP_EVENT_NOTE_CHOKE:
      if (event.size >= sizeof(clap_event_note_t))
        noteEvent(reinterpret_cast<const clap_event_note_t&>(event), offset, list, index);
      break;
    case CLAP_EVENT_NOTE_EXPRESSION:
      if (event.size >= sizeof(clap_event_note_expression_t))
        notes_.expression(*core_, reinterpret_cast<const clap_event_note_expression_t&>(event), offset);
      break;
    case CLAP_EVENT_MIDI:
      if (event.size >= sizeof(clap_event_midi_t)) midiEvent(reinterpret_cast<const clap_event_midi_t&>(event), offset);
      break;
    case CLAP_EVENT_MIDI_SYSEX:  // a MIDI Tuning Standard message retunes at its frame
      if (event.size >= sizeof(clap_event_midi_sysex_t)) {
        const auto& sysex = reinterpret_cast<const clap_event_midi_sysex_t&>(event);
        if (sysex.buffer && sysex.size > 0) core_->addMidi(offset, sysex.buffer, sysex.size);
      }
      break;
    case CLAP_EVENT_PARAM_VALUE:
      if (event.size >= sizeof(clap_event_param_value_t))
        setParam(reinterpret_cast<const clap_event_param_value_t&>(event), offset);
      break;
    case CLAP_EVENT_PARAM_MOD:
      if (event.size >= sizeof(clap_event_param_mod_t))
        modulateParam(reinterpret_cast<const clap_event_param_mod_t&>(event), offset);
      break;
    default:
      break;
  }
}

// A MIDI message; the first on the MIDI-MPE port sets up the lower zone of 15 first.
void Plugin::midiEvent(const clap_event_midi_t& midi, uint32_t offset) noexcept SPINDLE_REALTIME {
  if (midi.port_index == kMpePort && !mpeZoneSent_) {
    for (const auto& message : kLowerZoneOf15) core_->addMidi(offset, message.data(), message.size());
    mpeZoneSent_ = true;
  }
  if (const uint32_t size = midiMessageSize(midi.data[0]); size > 0) core_->addMidi(offset, midi.data, size);
}

// A note's MIDI bytes (Events.h), and what Notes keeps of it: the note-on, or the
// note-off of a note's slot; a note-on with expressions at its frame starts in a slot.
void Plugin::noteEvent(const clap_event_note_t& note, uint32_t offset, const clap_input_events_t* list,
                       uint32_t index) noexcept SPINDLE_REALTIME {
  if (note.header.type == CLAP_EVENT_NOTE_ON && list && notes_.startExpressive(*core_, note, offset, *list, index))
    return;
  const MidiBytes message = noteMessage(note.header.type, note);
  if (message.size > 0) core_->addMidi(offset, message.bytes.data(), message.size);
  if (note.header.type == CLAP_EVENT_NOTE_ON) notes_.noteOn(note);
  else if (note.key >= 0) notes_.noteOff(*core_, note, offset);
}

// Part 0's level: the engine takes it as a command, which only the control side posts;
// the main thread does it on the callback process() asks for. The health is read-only.
void Plugin::setParam(const clap_event_param_value_t& event, uint32_t offset) noexcept SPINDLE_REALTIME {
  if (event.param_id >= kFirstControlParam && event.param_id < kParamCount)
    return setControl(event.param_id - kFirstControlParam, event.value, offset);
  if (event.param_id != kLevelParam || !std::isfinite(event.value)) return;
  const auto db = static_cast<float>(std::clamp(event.value, double{plugin::kMinLevelDb}, double{plugin::kMaxLevelDb}));
  level_.store(db, std::memory_order_relaxed);
  levelSet_.store(true, std::memory_order_relaxed);
  levelPending_.store(true, std::memory_order_release);
}

// A level the audio thread took is posted, and the path a load ended with read, unless
// a load holds the core (the loader thread asks for another callback when it ends).
void Plugin::onMainThread() {
  if (!core_) return;
  std::unique_lock lock(core_->controlMutex(), std::try_to_lock);
  if (!lock) return;
  if (levelPending_.exchange(false, std::memory_order_acquire)) core_->postLevel(level_.load(std::memory_order_relaxed));
  if (!loadEnded_.exchange(false, std::memory_order_acquire)) return;
  instrument_ = core_->loadedPath();
  takeLibraryNames();
}

}  // namespace spindle::clap
