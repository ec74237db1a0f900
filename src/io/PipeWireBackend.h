#pragma once
// PipeWireBackend: Spindle as a native PipeWire filter node (pw_filter) with the same
// ports as the JACK client: <name>:out_L, <name>:out_R (32-bit float mono DSP) and
// <name>:midi_in (8 bit raw midi, an spa_pod_sequence of SPA_CONTROL_Midi per cycle).
//
// Process runs on PipeWire's data thread (PW_FILTER_FLAG_RT_PROCESS), which we put at
// SCHED_FIFO kAudioPriority. Both matter for MIDI (tests/live/README.md): without
// RT_PROCESS, pw_filter calls process() from its main loop after the cycle and a late
// main loop loses the MIDI buffers of the cycles it missed; without SCHED_FIFO
// (Debian's client.conf loads no module-rt) the data thread misses cycles under load
// and the events of those cycles never reach process().
//
// The node connects itself (PipeWireConnections: the default sink, hardware MIDI
// sources) and is marked node.always-process, so PipeWire schedules it as soon as it
// exists, linked or not (without a session manager, an unlinked node is never run).
//
// Threads: the main thread calls the AudioBackend methods; PipeWire's thread loop
// ("pw-loop") runs state/param/core and registry callbacks; its data thread runs
// process(); the keeper's thread makes the links.
// The graph's clock: clock.position (frames), clock.duration (frames this cycle),
// clock.nsec (CLOCK_MONOTONIC at the cycle's start), clock.rate.
#include <atomic>
#include <memory>

#include "io/AudioBackend.h"
#include "io/PipeWireConnections.h"

namespace spindle::io {

class PipeWireBackend final : public AudioBackend {
 public:
  explicit PipeWireBackend(BackendOptions options);
  ~PipeWireBackend() override;

  const char* kind() const noexcept override { return "pipewire"; }
  bool connect(std::string& error) override;
  bool start(LiveProcessor& live, std::string& error) override;
  void disconnect() override;
  bool lost() const noexcept override { return lost_.load(std::memory_order_acquire); }
  double sampleRate() const noexcept override { return rate_.load(std::memory_order_relaxed); }
  int periodFrames() const noexcept override { return period_.load(std::memory_order_relaxed); }
  void setConnectionPolicy(ConnectionPolicy policy) override { connections_.setPolicy(std::move(policy)); }
  ConnectionPolicy connectionPolicy() const override { return connections_.policy(); }
  ConnectionReport connections() const override { return connections_.report(); }
  void setLink(const PortLink& link, bool on) override { connections_.setLink(link, on); }
  std::vector<std::string> takeConnectionMessages() override { return connections_.takeMessages(); }
  void setHostRoutes(std::vector<HostRoute> routes) override {
    if (!routes.empty()) connections_.say("host routing needs JACK: connect the hosts' NetJACK2 ports by hand");
  }

  // The server went away or the node failed (pw-loop thread).
  void markLost() noexcept { lost_.store(true, std::memory_order_release); }

  struct Impl;  // PipeWire objects and callbacks (PipeWireBackend.cpp)

  // The data thread's priority: module-rt's default, the one PipeWire gives its own
  // data thread and its JACK clients, so no node of the graph is its weak link.
  static constexpr int kAudioPriority = 88;

 private:
  void makeDataThreadRealtime();
  BackendOptions options_;
  std::unique_ptr<Impl> impl_;
  std::atomic<bool> lost_{false};
  std::atomic<double> rate_{48000.0};
  std::atomic<int> period_{0};
  PipeWireConnections connections_;  // lives across reconnects; detached before the filter and core go
};

}  // namespace spindle::io
