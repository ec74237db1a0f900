#pragma once
// JackBackend: Spindle as a JACK client. Ports <name>:out_L, <name>:out_R (audio out)
// and <name>:midi_in (MIDI in, events rendered at their frame offset); with multiOut
// also <name>:out_1_L, out_1_R .. out_16_R, one pair per part (the main pair keeps the
// full mix).
//
// Callbacks and their threads (JACK's):
//   process        audio thread   -> LiveProcessor begin/addPortEvent/endCycle
//   latency        JACK thread    -> playback latency of out_L/out_R into the stats;
//                                    propagates capture latency midi_in -> outs and
//                                    playback latency outs -> midi_in; on a NetJACK2
//                                    slave, the network round trip (NetworkLatency.h)
//   freewheel      -> LiveProcessor: freewheeling cycles wait for the disk (process<false>)
//   xrun, buffer size, sample rate: notification thread -> atomics
//   info shutdown  -> lost(): the main thread closes the client and reconnects
//   port registration, port connect   notification thread -> connections_.poke():
//                  the connection thread (JackConnections) makes Spindle's connections
//   host routes (a NetJACK2 master, setHostRoutes): one MIDI output to_NAME per routed
//                  host, registered on the main thread, never unregistered while the client
//                  runs; process() copies every midi_in event to each fed one, same frame
// The server is never started by Spindle (JackNoStartServer); JACK_DEFAULT_SERVER or
// the default server name picks the server.
#include <jack/jack.h>

#include <array>
#include <atomic>
#include <string>
#include <vector>

#include "core/Limits.h"
#include "io/AudioBackend.h"
#include "io/JackConnections.h"

namespace spindle::io {

class JackBackend final : public AudioBackend {
 public:
  explicit JackBackend(BackendOptions options) : options_(std::move(options)) {}
  ~JackBackend() override { disconnect(); }

  const char* kind() const noexcept override { return "jack"; }
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
  void setHostRoutes(std::vector<HostRoute> routes) override;

 private:
  static int onProcess(jack_nframes_t frames, void* self);
  static void onLatency(jack_latency_callback_mode_t mode, void* self);
  static int onXrun(void* self);
  static void onFreewheel(int starting, void* self);
  static int onBufferSize(jack_nframes_t frames, void* self);
  static int onSampleRate(jack_nframes_t rate, void* self);
  static void onShutdown(jack_status_t code, const char* reason, void* self);
  static void onPortRegistration(jack_port_id_t port, int registered, void* self);
  static void onPortConnect(jack_port_id_t a, jack_port_id_t b, int connected, void* self);
  static void onClientRegistration(const char* name, int registered, void* self);
  template <bool Live>
  void process(jack_nframes_t frames) noexcept SPINDLE_REALTIME_IF(Live);
  CycleStart cycleStart(jack_nframes_t frames) noexcept SPINDLE_REALTIME;
  void forwardMidi(void* midi, uint32_t count, jack_nframes_t frames) noexcept SPINDLE_REALTIME;
  void registerHostPorts();
  void latency(jack_latency_callback_mode_t mode) noexcept;
  bool registerPorts(std::string& error);
  bool registerPartPorts();
  void setOutputLatency(jack_latency_callback_mode_t mode, jack_latency_range_t& range) noexcept;
  bool setCallbacks(std::string& error);

  BackendOptions options_;
  jack_client_t* client_ = nullptr;
  jack_port_t* outL_ = nullptr;
  jack_port_t* outR_ = nullptr;
  jack_port_t* midiIn_ = nullptr;
  std::array<jack_port_t*, 2 * limits::kChannels> partPorts_{};  // L, R of part 1, then part 2...
  engine::PartOutputs partBuffers_{};  // audio thread: this cycle's part port buffers
  // Host routes: the audio thread reads the slots' ports and fed flags; the main thread
  // registers a port, then publishes it (release), and keeps the slots' names.
  std::array<std::atomic<jack_port_t*>, limits::kMaxRoutedHosts> hostPorts_{};
  std::array<std::atomic<bool>, limits::kMaxRoutedHosts> hostFed_{};
  std::array<std::string, limits::kMaxRoutedHosts> hostNames_;  // main thread
  std::vector<HostRoute> routes_;                               // main thread
  LiveProcessor* live_ = nullptr;  // set before activation, read by JACK's threads
  std::atomic<bool> lost_{false};
  std::atomic<double> rate_{0.0};
  std::atomic<int> period_{0};
  JackConnections connections_;  // stopped before the client closes
};

}  // namespace spindle::io
