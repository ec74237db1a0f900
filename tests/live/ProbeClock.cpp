// spindle-live-probe's MIDI clock (LiveProbe.cpp lists the modes): a start, then timing
// clocks at a tempo, each at its exact frame inside the cycle, and a stop when asked.
#include <jack/jack.h>
#include <jack/midiport.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>

#include "ProbeModes.h"

namespace spindle::live {

namespace {

struct Clock {
  jack_client_t* client = nullptr;
  jack_port_t* out = nullptr;
  double interval = 0.0;  // frames between clocks
  std::atomic<bool> go{false}, stop{false}, stopped{false};
  bool started = false;
  uint64_t frame = 0;  // the next cycle's first frame, counted from the first cycle after go
  double next = 0.0;   // the next clock's frame
  std::atomic<uint64_t> sent{0};
};

void write(void* buffer, jack_nframes_t offset, uint8_t status) { jack_midi_event_write(buffer, offset, &status, 1); }

// Clock k sounds at frame round(k * interval) after the start, whatever the cycles.
int clockProcess(jack_nframes_t frames, void* arg) {
  auto& c = *static_cast<Clock*>(arg);
  void* buffer = jack_port_get_buffer(c.out, frames);
  jack_midi_clear_buffer(buffer);
  if (!c.go.load(std::memory_order_acquire) || c.stopped.load(std::memory_order_relaxed)) return 0;
  if (!c.started) {
    write(buffer, 0, 0xFA);
    c.started = true;
  }
  const uint64_t end = c.frame + frames;
  while (std::llround(c.next) < static_cast<long long>(end)) {
    write(buffer, static_cast<jack_nframes_t>(std::llround(c.next) - static_cast<long long>(c.frame)), 0xF8);
    c.next += c.interval;
    c.sent.fetch_add(1, std::memory_order_relaxed);
  }
  c.frame = end;
  if (c.stop.load(std::memory_order_acquire)) {
    write(buffer, frames - 1, 0xFC);
    c.stopped.store(true, std::memory_order_release);
  }
  return 0;
}

}  // namespace

int clock(int argc, char** argv) {
  Clock c;
  const std::string target = option(argc, argv, "--target", "spindle");
  const double bpm = std::clamp(std::stod(option(argc, argv, "--bpm", "120")), 20.0, 999.0);
  const double seconds = std::stod(option(argc, argv, "--seconds", "2"));
  const bool stop = option(argc, argv, "--stop", "0") == "1";
  c.client = jack_client_open("probe_clock", JackNoStartServer, nullptr);
  c.out = c.client ? jack_port_register(c.client, "midi_out", JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput, 0) : nullptr;
  const auto connect = [&] {
    const int rc = jack_connect(c.client, "probe_clock:midi_out", (target + ":midi_in").c_str());
    return rc == 0 || rc == EEXIST;
  };
  if (!c.out || jack_set_process_callback(c.client, clockProcess, &c) != 0 || jack_activate(c.client) != 0 ||
      !waitFor(connect, 10.0)) {
    std::printf("probe: cannot open or connect the clock client\n");
    return 2;
  }
  c.interval = 60.0 * jack_get_sample_rate(c.client) / (bpm * 24.0);
  c.go.store(true, std::memory_order_release);
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  if (stop) {
    c.stop.store(true, std::memory_order_release);
    waitFor([&] { return c.stopped.load(std::memory_order_acquire); }, 5.0);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the last cycle reaches Spindle
  jack_client_close(c.client);
  std::printf("probe: sent %llu clocks at %.2f BPM%s\n", static_cast<unsigned long long>(c.sent.load()), bpm,
              stop ? ", then a stop" : "");
  return 0;
}

}  // namespace spindle::live
