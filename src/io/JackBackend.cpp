#include "io/JackBackend.h"

#include <jack/midiport.h>
#include <jack/transport.h>

#include <algorithm>
#include <string>

#include "io/NetworkLatency.h"
#include "io/ProcessTimer.h"

namespace spindle::io {

std::unique_ptr<AudioBackend> makeJackBackend(const BackendOptions& options) {
  return std::make_unique<JackBackend>(options);
}

bool JackBackend::connect(std::string& error) {
  jack_status_t status{};
  client_ = jack_client_open(options_.clientName.c_str(), JackNoStartServer, &status);
  if (!client_) {
    error = (status & JackServerFailed) ? "no JACK server running" : "cannot open a JACK client";
    return false;
  }
  lost_.store(false);
  rate_.store(static_cast<double>(jack_get_sample_rate(client_)));
  period_.store(static_cast<int>(jack_get_buffer_size(client_)));
  return true;
}

// Ports are registered just before activation, so they appear when Spindle is ready.
bool JackBackend::registerPorts(std::string& error) {
  outL_ = jack_port_register(client_, "out_L", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
  outR_ = jack_port_register(client_, "out_R", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
  midiIn_ = jack_port_register(client_, "midi_in", JACK_DEFAULT_MIDI_TYPE, JackPortIsInput, 0);
  if (!outL_ || !outR_ || !midiIn_ || (options_.multiOut && !registerPartPorts())) {
    error = "cannot register the JACK ports";
    return false;
  }
  return true;
}

bool JackBackend::registerPartPorts() {
  for (std::size_t i = 0; i < partPorts_.size(); ++i) {
    const std::string name = "out_" + std::to_string(i / 2 + 1) + (i % 2 == 0 ? "_L" : "_R");
    partPorts_[i] = jack_port_register(client_, name.c_str(), JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
    if (!partPorts_[i]) return false;
  }
  return true;
}

bool JackBackend::setCallbacks(std::string& error) {
  const bool ok = jack_set_process_callback(client_, &JackBackend::onProcess, this) == 0 &&
                  jack_set_latency_callback(client_, &JackBackend::onLatency, this) == 0 &&
                  jack_set_xrun_callback(client_, &JackBackend::onXrun, this) == 0 &&
                  jack_set_freewheel_callback(client_, &JackBackend::onFreewheel, this) == 0 &&
                  jack_set_buffer_size_callback(client_, &JackBackend::onBufferSize, this) == 0 &&
                  jack_set_sample_rate_callback(client_, &JackBackend::onSampleRate, this) == 0;
  if (!ok) error = "cannot set the JACK callbacks";
  jack_on_info_shutdown(client_, &JackBackend::onShutdown, this);
  return ok && jack_set_port_registration_callback(client_, &JackBackend::onPortRegistration, this) == 0 &&
         jack_set_client_registration_callback(client_, &JackBackend::onClientRegistration, this) == 0 &&
         jack_set_port_connect_callback(client_, &JackBackend::onPortConnect, this) == 0;
}

bool JackBackend::start(LiveProcessor& live, std::string& error) {
  if (!client_) {
    error = "not connected";
    return false;
  }
  live_ = &live;
  if (!registerPorts(error) || !setCallbacks(error)) return false;
  if (jack_activate(client_) != 0) {
    error = "cannot activate the JACK client";
    return false;
  }
  live.setConnected(true);
  std::vector<jack_port_t*> ports{outL_, outR_, midiIn_};
  for (jack_port_t* port : partPorts_)
    if (port) ports.push_back(port);
  connections_.attach(client_, std::move(ports));
  connections_.clearHostPorts();
  registerHostPorts();
  connections_.start("jack");
  return true;
}

void JackBackend::setHostRoutes(std::vector<HostRoute> routes) {
  if (routes.size() > hostPorts_.size()) {
    connections_.say("only " + std::to_string(hostPorts_.size()) + " hosts can be routed; the rest are not");
    routes.resize(hostPorts_.size());
  }
  routes_ = routes;
  if (client_ && live_) registerHostPorts();
  connections_.setHostRoutes(std::move(routes));
}

// Each route's slot (by name), a port registered for a new one; a slot whose host is no
// longer routed keeps its port, which is no longer fed.
void JackBackend::registerHostPorts() {
  for (std::size_t k = 0; k < hostNames_.size(); ++k) {
    const bool routed = std::any_of(routes_.begin(), routes_.end(), [&](const HostRoute& r) { return r.name == hostNames_[k]; });
    hostFed_[k].store(routed && !hostNames_[k].empty(), std::memory_order_relaxed);
  }
  for (const HostRoute& route : routes_) {
    if (std::find(hostNames_.begin(), hostNames_.end(), route.name) != hostNames_.end()) continue;
    const auto free = std::find(hostNames_.begin(), hostNames_.end(), std::string());
    if (free == hostNames_.end()) return;
    const std::string name = "to_" + route.name;
    jack_port_t* port = nullptr;
    {
      const auto serving = connections_.serverRequests();
      port = jack_port_register(client_, name.c_str(), JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput, 0);
    }
    if (!port) {
      connections_.say("cannot register the JACK port " + name);
      continue;
    }
    const auto k = static_cast<std::size_t>(free - hostNames_.begin());
    *free = route.name;
    connections_.addHostPort(port);
    hostFed_[k].store(true, std::memory_order_relaxed);
    hostPorts_[k].store(port, std::memory_order_release);
  }
}

void JackBackend::disconnect() {
  connections_.stop();
  if (!client_) return;
  if (!lost_.load()) jack_deactivate(client_);
  jack_client_close(client_);
  client_ = nullptr;
  outL_ = outR_ = midiIn_ = nullptr;
  partPorts_.fill(nullptr);
  for (auto& port : hostPorts_) port.store(nullptr, std::memory_order_relaxed);  // closed with the client
  hostNames_.fill(std::string());
  if (live_) live_->setConnected(false);
}

// A freewheeling cycle (JACK's export mode) is not real-time: it may wait for the disk.
int JackBackend::onProcess(jack_nframes_t frames, void* self) {
  auto* backend = static_cast<JackBackend*>(self);
  if (backend->live_->freewheeling())
    backend->process<false>(frames);
  else
    backend->process<true>(frames);
  return 0;
}

// JACK's process-thread API (cycle times, port buffers, MIDI events) is real-time
// safe by JACK's contract, though not annotated.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
template <bool Live>
void JackBackend::process(jack_nframes_t frames) noexcept SPINDLE_REALTIME_IF(Live) {
  live_->beginCycle(cycleStart(frames));
  void* midi = jack_port_get_buffer(midiIn_, frames);
  const uint32_t count = jack_midi_get_event_count(midi);
  for (uint32_t i = 0; i < count; ++i) {
    jack_midi_event_t event;
    if (jack_midi_event_get(&event, midi, i) == 0) live_->addPortEvent(event.time, event.buffer, event.size);
  }
  forwardMidi(midi, count, frames);
  auto* left = static_cast<float*>(jack_port_get_buffer(outL_, frames));
  auto* right = static_cast<float*>(jack_port_get_buffer(outR_, frames));
  const engine::PartOutputs* parts = nullptr;
  if (options_.multiOut) {
    for (std::size_t k = 0; k < partBuffers_.size(); ++k) {
      partBuffers_[k].left = static_cast<float*>(jack_port_get_buffer(partPorts_[2 * k], frames));
      partBuffers_[k].right = static_cast<float*>(jack_port_get_buffer(partPorts_[2 * k + 1], frames));
    }
    parts = &partBuffers_;
  }
  if constexpr (Live)
    live_->endCycle(left, right, parts);
  else
    live_->endCycleWaiting(left, right, parts);
}

// The cycle's frame time, its start on CLOCK_MONOTONIC and the transport's tempo.
CycleStart JackBackend::cycleStart(jack_nframes_t frames) noexcept SPINDLE_REALTIME {
  jack_nframes_t cycleFrames = 0;
  jack_time_t cycleUsecs = 0, nextUsecs = 0;
  float periodUsecs = 0.0f;
  CycleStart cycle;
  cycle.frames = static_cast<int>(frames);
  cycle.sampleRate = rate_.load(std::memory_order_relaxed);
  if (jack_get_cycle_times(client_, &cycleFrames, &cycleUsecs, &nextUsecs, &periodUsecs) == 0) {
    // JACK's clock is not necessarily CLOCK_MONOTONIC: carry the cycle's age over.
    const auto age = static_cast<int64_t>(jack_get_time() - cycleUsecs) * 1000;
    cycle.frameTime = cycleFrames;
    cycle.startNs = monotonicNs() - age;
  } else {
    cycle.frameTime = jack_last_frame_time(client_);
    cycle.startNs = monotonicNs();
  }
  jack_position_t position{};
  const bool rolling = jack_transport_query(client_, &position) == JackTransportRolling;
  if (rolling && (position.valid & JackPositionBBT) != 0) cycle.tempo = position.beats_per_minute;
  return cycle;
}

// Every midi_in event, all channels, to each routed host's to_NAME port at its frame
// (the hosts' parts pick their own channels). A port no longer fed sends nothing.
void JackBackend::forwardMidi(void* midi, uint32_t count, jack_nframes_t frames) noexcept SPINDLE_REALTIME {
  for (std::size_t k = 0; k < hostPorts_.size(); ++k) {
    jack_port_t* port = hostPorts_[k].load(std::memory_order_acquire);
    if (!port) continue;
    void* out = jack_port_get_buffer(port, frames);
    jack_midi_clear_buffer(out);
    if (!hostFed_[k].load(std::memory_order_relaxed)) continue;
    for (uint32_t i = 0; i < count; ++i) {
      jack_midi_event_t event;
      if (jack_midi_event_get(&event, midi, i) == 0) jack_midi_event_write(out, event.time, event.buffer, event.size);
    }
  }
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

void JackBackend::onLatency(jack_latency_callback_mode_t mode, void* self) {
  static_cast<JackBackend*>(self)->latency(mode);
}

// With a latency callback JACK leaves propagation to the client: capture latency
// flows midi_in -> outputs, playback latency outputs -> midi_in (the engine adds none).
// On a NetJACK2 slave the playback pass also reads the network's round trip.
void JackBackend::latency(jack_latency_callback_mode_t mode) noexcept {
  jack_latency_range_t range{};
  if (mode == JackCaptureLatency) {
    jack_port_get_latency_range(midiIn_, JackCaptureLatency, &range);
    setOutputLatency(mode, range);
    return;
  }
  setOutputLatency(mode, range);
  jack_port_set_latency_range(midiIn_, JackPlaybackLatency, &range);
  if (!live_) return;
  live_->setPlaybackLatency(range.max);
  const NetworkLatency net = NetworkLatency::fromPlayback(readNetJackPlayback(client_), jack_get_buffer_size(client_));
  live_->setNetworkLatency(net.roundTripFrames, net.slavePeriods);
}

// Capture: sets `range` on every output. Playback: gathers the outputs' ranges into
// `range` (min of the mins, max of the maxes): the latency Spindle reports is the
// largest of its outputs'.
void JackBackend::setOutputLatency(jack_latency_callback_mode_t mode, jack_latency_range_t& range) noexcept {
  bool first = true;
  const auto visit = [&](jack_port_t* port) {
    if (!port) return;
    if (mode == JackCaptureLatency) {
      jack_port_set_latency_range(port, JackCaptureLatency, &range);
      return;
    }
    jack_latency_range_t r{};
    jack_port_get_latency_range(port, JackPlaybackLatency, &r);
    range.min = first ? r.min : std::min(range.min, r.min);
    range.max = first ? r.max : std::max(range.max, r.max);
    first = false;
  };
  visit(outL_);
  visit(outR_);
  for (jack_port_t* port : partPorts_) visit(port);
}

int JackBackend::onXrun(void* self) {
  if (auto* live = static_cast<JackBackend*>(self)->live_) live->countBackendXrun();
  return 0;
}

void JackBackend::onFreewheel(int starting, void* self) {
  if (auto* live = static_cast<JackBackend*>(self)->live_) live->setFreewheeling(starting != 0);
}

int JackBackend::onBufferSize(jack_nframes_t frames, void* self) {
  // Nothing to reallocate: the engine splits any block into its own sub-blocks.
  static_cast<JackBackend*>(self)->period_.store(static_cast<int>(frames));
  return 0;
}

int JackBackend::onSampleRate(jack_nframes_t rate, void* self) {
  static_cast<JackBackend*>(self)->rate_.store(static_cast<double>(rate));
  return 0;
}

void JackBackend::onShutdown(jack_status_t, const char*, void* self) {
  auto* backend = static_cast<JackBackend*>(self);
  backend->lost_.store(true, std::memory_order_release);
  if (backend->live_) backend->live_->setConnected(false);
}

// JACK's notification thread. jack_port_by_id and jack_port_name read the client's
// shared copy of the graph (no server request); a released port keeps its name.
void JackBackend::onPortRegistration(jack_port_id_t port, int registered, void* self) {
  auto* backend = static_cast<JackBackend*>(self);
  const jack_port_t* gone = registered ? nullptr : jack_port_by_id(backend->client_, port);
  const char* name = gone ? jack_port_name(gone) : nullptr;
  if (name && *name) backend->connections_.portGone(name);
  else backend->connections_.poke();
}

// A client that closed (a program that quit): its ports' links are not made again
// when a client of that name comes back (ConnectionKeeper::clientGone).
void JackBackend::onClientRegistration(const char* name, int registered, void* self) {
  auto* backend = static_cast<JackBackend*>(self);
  if (!registered && name && *name) backend->connections_.clientGone(name);
  else backend->connections_.poke();
}

void JackBackend::onPortConnect(jack_port_id_t, jack_port_id_t, int, void* self) {
  static_cast<JackBackend*>(self)->connections_.poke();
}

}  // namespace spindle::io
