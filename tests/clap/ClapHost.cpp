#include "ClapHost.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "RtGuard.h"

namespace spindle::test {

namespace {

constexpr std::size_t kMaxEvents = 4096;

// The module, opened once and never closed (as a host that keeps its plugins loaded):
// its entry's init() once, for the whole test run.
const clap_plugin_entry_t* pluginEntry(std::string& error) {
  static const clap_plugin_entry_t* entry = [&]() -> const clap_plugin_entry_t* {
    void* module = dlopen(SPINDLE_CLAP_FILE, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!module) return nullptr;
    auto* found = static_cast<const clap_plugin_entry_t*>(dlsym(module, "clap_entry"));
    return found && found->init(SPINDLE_CLAP_FILE) ? found : nullptr;
  }();
  if (!entry) error = std::string("cannot open clap_entry in ") + SPINDLE_CLAP_FILE;
  return entry;
}

ClapHost& hostOf(const clap_host_t* host) { return *static_cast<ClapHost*>(host->host_data); }

void hostLog(const clap_host_t* host, clap_log_severity severity, const char* message) {
  hostOf(host).addLog(severity, message);
}
bool isMainThread(const clap_host_t* host) { return !hostOf(host).inProcess(); }
bool isAudioThread(const clap_host_t* host) { return hostOf(host).inProcess(); }
void noteNamesChanged(const clap_host_t* host) { hostOf(host).countNoteNamesChanged(); }
const clap_host_log_t kLog{hostLog};
const clap_host_note_name_t kNoteName{noteNamesChanged};
const clap_host_thread_check_t kThreadCheck{isMainThread, isAudioThread};

const void* hostExtension(const clap_host_t*, const char* id) {
  if (std::strcmp(id, CLAP_EXT_LOG) == 0) return &kLog;
  if (std::strcmp(id, CLAP_EXT_THREAD_CHECK) == 0) return &kThreadCheck;
  if (std::strcmp(id, CLAP_EXT_NOTE_NAME) == 0) return &kNoteName;
  return nullptr;
}
void requestRestart(const clap_host_t*) {}
void requestProcess(const clap_host_t*) {}
void askCallback(const clap_host_t* host) { hostOf(host).requestCallback(); }
bool takeOutput(const clap_output_events_t* list, const clap_event_header_t* event) {
  static_cast<ClapHost*>(list->ctx)->receive(*event);
  return true;
}

}  // namespace

ClapHost::ClapHost(ClapHostOptions options)
    : options_(options), events_(kMaxEvents), left_(options.maxFrames), right_(options.maxFrames) {
  host_ = clap_host_t{CLAP_VERSION_INIT, this, "Spindle's test host", "Spindle", "", "1", hostExtension,
                      requestRestart, requestProcess, askCallback};
  inEvents_ = clap_input_events_t{this, eventCount, eventAt};
  outEvents_ = clap_output_events_t{this, takeOutput};
  channels_[0] = left_.data();
  channels_[1] = right_.data();
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    parts_[k].assign(options.maxFrames, 0.0f);
    channels_[2 + k] = parts_[k].data();
  }
  for (std::size_t port = 0; port < outputs_.size(); ++port) {
    outputs_[port].data32 = &channels_[2 * port];
    outputs_[port].channel_count = 2;
  }
  const clap_plugin_entry_t* entry = pluginEntry(error_);
  if (!entry) return;
  const auto* factory = static_cast<const clap_plugin_factory_t*>(entry->get_factory(CLAP_PLUGIN_FACTORY_ID));
  const clap_plugin_descriptor_t* descriptor = factory ? factory->get_plugin_descriptor(factory, 0) : nullptr;
  plugin_ = descriptor ? factory->create_plugin(factory, &host_, descriptor->id) : nullptr;
  if (!plugin_ || !plugin_->init(plugin_)) {
    error_ = "the factory made no plugin";
    if (plugin_) plugin_->destroy(plugin_);
    plugin_ = nullptr;
    return;
  }
  if (const auto* render = extension<clap_plugin_render_t>(CLAP_EXT_RENDER))
    render->set(plugin_, options_.offline ? CLAP_RENDER_OFFLINE : CLAP_RENDER_REALTIME);
  const auto* config = extension<clap_plugin_audio_ports_config_t>(CLAP_EXT_AUDIO_PORTS_CONFIG);
  if (options_.partOutputs && !(config && config->select(plugin_, 1))) error_ = "the part outputs' layout was refused";
}

ClapHost::~ClapHost() {
  if (!plugin_) return;
  if (active_) {
    plugin_->stop_processing(plugin_);
    plugin_->deactivate(plugin_);
  }
  plugin_->destroy(plugin_);
}

bool ClapHost::activate() {
  active_ = plugin_->activate(plugin_, options_.sampleRate, 1, options_.maxFrames) && plugin_->start_processing(plugin_);
  return active_;
}

bool ClapHost::loadState(const std::string& bytes) {
  struct Reader {
    const std::string* bytes;
    std::size_t at = 0;
  } reader{&bytes};
  const clap_istream_t stream{&reader, [](const clap_istream_t* s, void* buffer, uint64_t size) -> int64_t {
                                auto& r = *static_cast<Reader*>(s->ctx);
                                const std::size_t n = std::min<std::size_t>(size, std::min<std::size_t>(r.bytes->size() - r.at, 100));
                                std::memcpy(buffer, r.bytes->data() + r.at, n);
                                r.at += n;
                                return static_cast<int64_t>(n);
                              }};
  const auto* state = extension<clap_plugin_state_t>(CLAP_EXT_STATE);
  return state && state->load(plugin_, &stream);
}

std::optional<std::string> ClapHost::saveState() {
  std::string bytes;
  const clap_ostream_t stream{&bytes, [](const clap_ostream_t* s, const void* buffer, uint64_t size) -> int64_t {
                                static_cast<std::string*>(s->ctx)->append(static_cast<const char*>(buffer), size);
                                return static_cast<int64_t>(size);
                              }};
  const auto* state = extension<clap_plugin_state_t>(CLAP_EXT_STATE);
  if (!state || !state->save(plugin_, &stream)) return std::nullopt;
  return bytes;
}

ClapHost::EventSlot& ClapHost::nextSlot(uint32_t frame) {
  EventSlot& slot = events_.at(eventsUsed_);
  if (eventsUsed_ > 0 && events_[eventsUsed_ - 1].header.time > frame) throw std::logic_error("events out of order");
  ++eventsUsed_;
  slot = EventSlot{};
  return slot;
}

void ClapHost::note(uint16_t type, uint32_t frame, int32_t noteId, int16_t channel, int16_t key, double velocity) {
  EventSlot& slot = nextSlot(frame);
  slot.note = clap_event_note_t{{sizeof(clap_event_note_t), frame, CLAP_CORE_EVENT_SPACE_ID, type, 0},
                                noteId, 0, channel, key, velocity};
}

void ClapHost::midi(uint32_t frame, const uint8_t* bytes, uint16_t port) {
  EventSlot& slot = nextSlot(frame);
  slot.midi = clap_event_midi_t{{sizeof(clap_event_midi_t), frame, CLAP_CORE_EVENT_SPACE_ID, CLAP_EVENT_MIDI, 0},
                                port, {bytes[0], bytes[1], bytes[2]}};
}

void ClapHost::param(uint32_t frame, clap_id id, double value) {
  EventSlot& slot = nextSlot(frame);
  slot.param = clap_event_param_value_t{
      {sizeof(clap_event_param_value_t), frame, CLAP_CORE_EVENT_SPACE_ID, CLAP_EVENT_PARAM_VALUE, 0},
      id, nullptr, -1, -1, -1, -1, value};
}

void ClapHost::paramMod(uint32_t frame, clap_id id, double amount, int32_t noteId, int16_t port, int16_t channel,
                        int16_t key) {
  EventSlot& slot = nextSlot(frame);
  slot.mod = clap_event_param_mod_t{
      {sizeof(clap_event_param_mod_t), frame, CLAP_CORE_EVENT_SPACE_ID, CLAP_EVENT_PARAM_MOD, 0},
      id, nullptr, noteId, port, channel, key, amount};
}

void ClapHost::expression(uint32_t frame, clap_note_expression id, int32_t noteId, int16_t port, int16_t channel,
                          int16_t key, double value) {
  EventSlot& slot = nextSlot(frame);
  slot.expression = clap_event_note_expression_t{
      {sizeof(clap_event_note_expression_t), frame, CLAP_CORE_EVENT_SPACE_ID, CLAP_EVENT_NOTE_EXPRESSION, 0},
      id, noteId, port, channel, key, value};
}

uint32_t ClapHost::eventCount(const clap_input_events_t* list) {
  return static_cast<uint32_t>(static_cast<const ClapHost*>(list->ctx)->eventsUsed_);
}

const clap_event_header_t* ClapHost::eventAt(const clap_input_events_t* list, uint32_t index) {
  const auto* host = static_cast<const ClapHost*>(list->ctx);
  return index < host->eventsUsed_ ? &host->events_[index].header : nullptr;
}

clap_process_status ClapHost::process(uint32_t frames, bool audioScope) {
  clap_process_t block{};
  block.steady_time = -1;
  block.frames_count = frames;
  block.audio_outputs = outputs_.data();
  block.audio_outputs_count = options_.partOutputs ? static_cast<uint32_t>(outputs_.size()) : 1;
  block.in_events = &inEvents_;
  block.out_events = &outEvents_;
  clap_process_status status = CLAP_PROCESS_ERROR;
  sentCount_ = 0;
  endCount_ = 0;
  {
    std::optional<AudioThreadScope> scope;
    if (audioScope) scope.emplace();
    inProcess_ = true;
    status = plugin_->process(plugin_, &block);
    inProcess_ = false;
  }
  eventsUsed_ = 0;
  if (callbackRequested_.exchange(false)) plugin_->on_main_thread(plugin_);
  return status;
}

void ClapHost::receive(const clap_event_header_t& event) {
  if (event.type == CLAP_EVENT_NOTE_END && endCount_ < ends_.size()) {
    const auto& note = reinterpret_cast<const clap_event_note_t&>(event);
    ends_[endCount_++] = {note.note_id, note.port_index, note.channel, note.key, event.time};
    return;
  }
  if (event.type != CLAP_EVENT_PARAM_VALUE || sentCount_ == sent_.size()) return;
  const auto& param = reinterpret_cast<const clap_event_param_value_t&>(event);
  sent_[sentCount_++] = {param.param_id, event.time, param.value};
}

bool ClapHost::paramValue(clap_id id, double& value) const {
  const auto* params = extension<clap_plugin_params_t>(CLAP_EXT_PARAMS);
  return params && params->get_value(plugin_, id, &value);
}

void ClapHost::addLog(int severity, const char* message) {
  std::string line(message);
  line.insert(0, std::to_string(severity) + ' ');
  std::lock_guard lock(logMutex_);
  log_.push_back(std::move(line));
}

std::vector<std::string> ClapHost::takeLog() {
  std::vector<std::string> lines;
  std::lock_guard lock(logMutex_);
  lines.swap(log_);
  return lines;
}

std::vector<FramedMidi> framedEvents(const io::MidiSong& song, double rate) {
  std::vector<FramedMidi> out;
  for (const io::TimedMidiEvent& e : song.events) {
    if (e.status >= 0xF0) continue;
    out.push_back({std::max<int64_t>(0, io::secondsToFrames(e.seconds, rate)), {e.status, e.data1, e.data2}});
  }
  return out;
}

}  // namespace spindle::test
