#include "io/PipeWireBackend.h"

#include <pipewire/filter.h>
#include <pipewire/data-loop.h>
#include <pipewire/pipewire.h>
#include <spa/control/control.h>
#include <spa/param/latency-utils.h>
#include <spa/pod/iter.h>

#include <cerrno>
#include <vector>

// PipeWire's C macros (pod builders, listener hooks) use compound literals and statement
// expressions; its data-thread API (dequeue/queue buffers, dsp buffers) is real-time
// safe by contract, though not annotated.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wc99-extensions"
#pragma clang diagnostic ignored "-Wgnu-statement-expression-from-macro-expansion"
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif

#include "core/Limits.h"
#include "io/RealtimeSetup.h"

namespace spindle::io {

std::unique_ptr<AudioBackend> makePipeWireBackend(const BackendOptions& options) {
  return std::make_unique<PipeWireBackend>(options);
}

struct PipeWireBackend::Impl {
  PipeWireBackend* owner = nullptr;
  pw_thread_loop* loop = nullptr;
  pw_context* context = nullptr;
  pw_core* core = nullptr;
  pw_filter* filter = nullptr;
  spa_hook coreListener{}, filterListener{};
  void* outL = nullptr;
  void* outR = nullptr;
  void* midiIn = nullptr;
  LiveProcessor* live = nullptr;
  std::vector<float> scratchL, scratchR;  // when an output port has no buffer
  uint32_t clockId = SPA_ID_INVALID;       // data thread: the driver whose clock the last cycle ran on
  // Playback latency of the outputs, from their Latency params (pw-loop thread).
  std::atomic<float> latencyQuanta{0.0f};
  std::atomic<uint32_t> latencyFrames{0};
  std::atomic<uint64_t> latencyNs{0};

  void process(spa_io_position* position) noexcept SPINDLE_REALTIME;
  void readMidi() noexcept SPINDLE_REALTIME;
  void portLatency(void* port, const spa_pod* param) noexcept;
};

namespace {

void onProcess(void* data, spa_io_position* position) { static_cast<PipeWireBackend::Impl*>(data)->process(position); }

void onParamChanged(void* data, void* port, uint32_t id, const spa_pod* param) {
  if (id == SPA_PARAM_Latency && port && param) static_cast<PipeWireBackend::Impl*>(data)->portLatency(port, param);
}

void onFilterState(void* data, pw_filter_state, pw_filter_state state, const char*);
void onCoreError(void* data, uint32_t id, int, int res, const char*);

pw_filter_events filterEvents() {
  pw_filter_events events{};
  events.version = PW_VERSION_FILTER_EVENTS;
  events.process = onProcess;
  events.param_changed = onParamChanged;
  events.state_changed = onFilterState;
  return events;
}
pw_core_events coreEvents() {
  pw_core_events events{};
  events.version = PW_VERSION_CORE_EVENTS;
  events.error = onCoreError;
  return events;
}
const pw_filter_events kFilterEvents = filterEvents();
const pw_core_events kCoreEvents = coreEvents();

void* addPort(pw_filter* filter, pw_direction direction, const char* name, const char* format) {
  return pw_filter_add_port(filter, direction, PW_FILTER_PORT_FLAG_MAP_BUFFERS, 8,
                            pw_properties_new(PW_KEY_FORMAT_DSP, format, PW_KEY_PORT_NAME, name, nullptr), nullptr, 0);
}

}  // namespace

// ---- data thread ------------------------------------------------------------

void PipeWireBackend::Impl::process(spa_io_position* position) noexcept SPINDLE_REALTIME {
  if (!position || !live) return;
  const auto frames = static_cast<uint32_t>(position->clock.duration);
  if (frames == 0 || frames > scratchL.size()) return;
  CycleStart cycle;
  cycle.frameTime = position->clock.position;
  cycle.frames = static_cast<int>(frames);
  cycle.startNs = static_cast<int64_t>(position->clock.nsec);
  cycle.newClock = position->clock.id != clockId;
  clockId = position->clock.id;
  cycle.sampleRate = position->clock.rate.num > 0
                         ? static_cast<double>(position->clock.rate.denom) / position->clock.rate.num
                         : owner->rate_.load(std::memory_order_relaxed);
  owner->rate_.store(cycle.sampleRate, std::memory_order_relaxed);
  owner->period_.store(cycle.frames, std::memory_order_relaxed);
  const double playback = static_cast<double>(latencyQuanta.load(std::memory_order_relaxed)) * frames +
                          latencyFrames.load(std::memory_order_relaxed) +
                          static_cast<double>(latencyNs.load(std::memory_order_relaxed)) * cycle.sampleRate / 1e9;
  live->setPlaybackLatency(static_cast<uint32_t>(playback + 0.5));
  live->beginCycle(cycle);
  readMidi();
  auto* left = static_cast<float*>(pw_filter_get_dsp_buffer(outL, frames));
  auto* right = static_cast<float*>(pw_filter_get_dsp_buffer(outR, frames));
  live->endCycle(left ? left : scratchL.data(), right ? right : scratchR.data());
}

// The MIDI port's buffer holds one spa_pod_sequence; each SPA_CONTROL_Midi control is
// one message at its frame offset in the cycle.
void PipeWireBackend::Impl::readMidi() noexcept SPINDLE_REALTIME {
  pw_buffer* buffer = pw_filter_dequeue_buffer(midiIn);
  if (!buffer) return;
  spa_data& d = buffer->buffer->datas[0];
  auto* pod = d.data && d.chunk ? static_cast<spa_pod*>(spa_pod_from_data(d.data, d.maxsize, d.chunk->offset,
                                                                         d.chunk->size))
                                : nullptr;
  if (pod && spa_pod_is_sequence(pod)) {
    auto* sequence = reinterpret_cast<spa_pod_sequence*>(pod);
    spa_pod_control* control = nullptr;
    SPA_POD_SEQUENCE_FOREACH(sequence, control) {
      if (control->type != SPA_CONTROL_Midi) continue;
      live->addPortEvent(control->offset, static_cast<const uint8_t*>(SPA_POD_BODY(&control->value)),
                         SPA_POD_BODY_SIZE(&control->value));
    }
  }
  pw_filter_queue_buffer(midiIn, buffer);
}

// ---- pw-loop thread ---------------------------------------------------------

// With PW_FILTER_FLAG_CUSTOM_LATENCY the filter hands us its ports' Latency params and
// leaves propagation to us, as JACK does: playback latency (direction INPUT, from
// downstream) flows outputs -> midi_in, capture latency (OUTPUT) midi_in -> outputs.
void PipeWireBackend::Impl::portLatency(void* port, const spa_pod* param) noexcept {
  spa_latency_info info{};
  if (spa_latency_parse(param, &info) < 0) return;
  const bool playback = info.direction == SPA_DIRECTION_INPUT && (port == outL || port == outR);
  const bool capture = info.direction == SPA_DIRECTION_OUTPUT && port == midiIn;
  if (!playback && !capture) return;
  if (playback) {
    latencyQuanta.store(info.max_quantum, std::memory_order_relaxed);
    latencyFrames.store(info.max_rate, std::memory_order_relaxed);
    latencyNs.store(info.max_ns, std::memory_order_relaxed);
  }
  uint8_t buffer[256];
  spa_pod_builder builder = SPA_POD_BUILDER_INIT(buffer, sizeof buffer);
  const spa_pod* params[1] = {spa_latency_build(&builder, SPA_PARAM_Latency, &info)};
  if (playback) {
    pw_filter_update_params(filter, midiIn, params, 1);
  } else {
    pw_filter_update_params(filter, outL, params, 1);
    pw_filter_update_params(filter, outR, params, 1);
  }
}

namespace {

void onFilterState(void* data, pw_filter_state, pw_filter_state state, const char*) {
  auto* impl = static_cast<PipeWireBackend::Impl*>(data);
  if (state == PW_FILTER_STATE_ERROR || state == PW_FILTER_STATE_UNCONNECTED) impl->owner->markLost();
}

void onCoreError(void* data, uint32_t id, int, int res, const char*) {
  if (id == PW_ID_CORE && res == -EPIPE) static_cast<PipeWireBackend::Impl*>(data)->owner->markLost();
}

}  // namespace

// ---- main thread ------------------------------------------------------------

PipeWireBackend::PipeWireBackend(BackendOptions options) : options_(std::move(options)) {
  static const bool initialised = [] {
    pw_init(nullptr, nullptr);
    return true;
  }();
  (void)initialised;
}

PipeWireBackend::~PipeWireBackend() { disconnect(); }

bool PipeWireBackend::connect(std::string& error) {
  impl_ = std::make_unique<Impl>();
  Impl& p = *impl_;
  p.owner = this;
  p.scratchL.assign(static_cast<std::size_t>(limits::kMaxBlockFrames), 0.0f);
  p.scratchR.assign(static_cast<std::size_t>(limits::kMaxBlockFrames), 0.0f);
  p.loop = pw_thread_loop_new("pw-loop", nullptr);
  p.context = p.loop ? pw_context_new(pw_thread_loop_get_loop(p.loop), nullptr, 0) : nullptr;
  if (!p.context || pw_thread_loop_start(p.loop) != 0) {
    error = "cannot start a PipeWire loop";
    disconnect();
    return false;
  }
  pw_thread_loop_lock(p.loop);
  p.core = pw_context_connect(p.context, nullptr, 0);
  if (p.core) {
    pw_core_add_listener(p.core, &p.coreListener, &kCoreEvents, &p);
    // node.always-process: scheduled from the start, linked or not (like a JACK client),
    // so the engine runs and MIDI is read before any link is made.
    p.filter = pw_filter_new(p.core, options_.clientName.c_str(),
                             pw_properties_new(PW_KEY_MEDIA_TYPE, "Audio", PW_KEY_MEDIA_CATEGORY, "Filter",
                                               PW_KEY_MEDIA_ROLE, "DSP", PW_KEY_NODE_NAME,
                                               options_.clientName.c_str(), PW_KEY_NODE_ALWAYS_PROCESS, "true",
                                               nullptr));
  }
  if (p.filter) {
    pw_filter_add_listener(p.filter, &p.filterListener, &kFilterEvents, &p);
    p.outL = addPort(p.filter, PW_DIRECTION_OUTPUT, "out_L", "32 bit float mono audio");
    p.outR = addPort(p.filter, PW_DIRECTION_OUTPUT, "out_R", "32 bit float mono audio");
    p.midiIn = addPort(p.filter, PW_DIRECTION_INPUT, "midi_in", "8 bit raw midi");
  }
  pw_thread_loop_unlock(p.loop);
  if (!p.core || !p.filter || !p.outL || !p.outR || !p.midiIn) {
    error = p.core ? "cannot create the PipeWire filter and its ports" : "no PipeWire server running";
    disconnect();
    return false;
  }
  lost_.store(false);
  return true;
}

bool PipeWireBackend::start(LiveProcessor& live, std::string& error) {
  if (!impl_ || !impl_->filter) {
    error = "not connected";
    return false;
  }
  pw_thread_loop_lock(impl_->loop);
  impl_->live = &live;
  const int rc = pw_filter_connect(impl_->filter, static_cast<pw_filter_flags>(PW_FILTER_FLAG_RT_PROCESS | PW_FILTER_FLAG_CUSTOM_LATENCY), nullptr, 0);
  pw_thread_loop_unlock(impl_->loop);
  if (rc < 0) {
    error = "cannot connect the PipeWire filter";
    return false;
  }
  live.setConnected(true);
  makeDataThreadRealtime();
  connections_.attach(impl_->loop, impl_->core, impl_->filter);
  connections_.start("pipewire");
  return true;
}

// Debian's client.conf (unlike jack.conf) loads no module-rt, so a native client's data
// thread, where process() runs, stays SCHED_OTHER and misses cycles under load: the
// MIDI of a missed cycle never reaches process(). We raise it ourselves; a failure
// shows in the session's real-time check.
void PipeWireBackend::makeDataThreadRealtime() {
  pw_data_loop* loop = pw_context_get_data_loop(impl_->context);
  spa_thread* thread = loop ? pw_data_loop_get_thread(loop) : nullptr;
  if (thread) setThreadPriority(reinterpret_cast<pthread_t>(thread), kAudioPriority, "audio");
}

void PipeWireBackend::disconnect() {
  connections_.stop();
  connections_.detach();
  if (!impl_) return;
  Impl& p = *impl_;
  if (p.loop) pw_thread_loop_lock(p.loop);
  if (p.filter) pw_filter_destroy(p.filter);
  if (p.core) pw_core_disconnect(p.core);
  if (p.loop) pw_thread_loop_unlock(p.loop);
  if (p.loop) pw_thread_loop_stop(p.loop);
  if (p.context) pw_context_destroy(p.context);
  if (p.loop) pw_thread_loop_destroy(p.loop);
  if (p.live) p.live->setConnected(false);
  impl_.reset();
}

}  // namespace spindle::io
