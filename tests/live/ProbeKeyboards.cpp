// spindle-live-probe's MIDI-only clients (LiveProbe.cpp lists the modes): chord, every
// note-on in one cycle; keyboard, a stand-in for a hardware keyboard.
#include <jack/jack.h>
#include <jack/midiport.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include "ProbeModes.h"

namespace spindle::live {

namespace {

// The chord client: every note-on in the first cycle after `go`, once. Breaks of the
// server's cycles (its xrun callback, or a gap in the cycles' frame times) are counted:
// a cycle the server broke may never reach Spindle.
struct Chord {
  jack_client_t* client = nullptr;
  jack_port_t* out = nullptr;
  int keys = 0;
  std::atomic<bool> go{false}, sent{false};
  std::atomic<int> breaks{0};
  jack_nframes_t nextStart = 0;
  bool started = false;
};

int chordXrun(void* arg) {
  static_cast<Chord*>(arg)->breaks.fetch_add(1, std::memory_order_relaxed);
  return 0;
}

int chordProcess(jack_nframes_t frames, void* arg) {
  auto& c = *static_cast<Chord*>(arg);
  const jack_nframes_t start = jack_last_frame_time(c.client);
  if (c.started && start != c.nextStart) c.breaks.fetch_add(1, std::memory_order_relaxed);
  c.started = true;
  c.nextStart = start + frames;
  void* buffer = jack_port_get_buffer(c.out, frames);
  jack_midi_clear_buffer(buffer);
  if (!c.go.load(std::memory_order_acquire) || c.sent.load(std::memory_order_relaxed)) return 0;
  for (int k = 0; k < c.keys; ++k) {
    const uint8_t message[3] = {0x90, static_cast<uint8_t>(61 + k), 100};
    jack_midi_event_write(buffer, 0, message, 3);
  }
  c.sent.store(true, std::memory_order_release);
  return 0;
}

// The keyboard: note-ons and note-offs handed over one at a time by the main thread.
struct Keyboard {
  jack_client_t* client = nullptr;
  jack_port_t* out = nullptr;
  std::atomic<uint32_t> message{0};  // status | data1 << 8 | data2 << 16; 0: none
};

int keyboardProcess(jack_nframes_t frames, void* arg) {
  auto& k = *static_cast<Keyboard*>(arg);
  void* buffer = jack_port_get_buffer(k.out, frames);
  jack_midi_clear_buffer(buffer);
  const uint32_t m = k.message.exchange(0, std::memory_order_acq_rel);
  if (m == 0) return 0;
  const uint8_t bytes[3] = {static_cast<uint8_t>(m), static_cast<uint8_t>(m >> 8), static_cast<uint8_t>(m >> 16)};
  jack_midi_event_write(buffer, 0, bytes, 3);
  return 0;
}

std::atomic<bool> gKeyboardStop{false};
std::atomic<bool> gKeyboardAgain{false};
extern "C" void onKeyboardStop(int) { gKeyboardStop.store(true); }
extern "C" void onKeyboardAgain(int) { gKeyboardAgain.store(true); }

void keyboardSend(Keyboard& k, uint8_t status, int key, int velocity) {
  waitFor([&] { return k.message.load() == 0; }, 2.0);
  k.message.store(status | static_cast<uint32_t>(key) << 8 | static_cast<uint32_t>(velocity) << 16);
  waitFor([&] { return k.message.load() == 0; }, 2.0);
}

}  // namespace

int chord(int argc, char** argv) {
  Chord c;
  const std::string target = option(argc, argv, "--target", "spindle");
  c.keys = std::clamp(std::stoi(option(argc, argv, "--keys", "24")), 1, 67);  // keys 61..127
  c.client = jack_client_open("probe_chord", JackNoStartServer, nullptr);
  c.out = c.client ? jack_port_register(c.client, "midi_out", JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput, 0) : nullptr;
  const auto connect = [&] {
    const int rc = jack_connect(c.client, "probe_chord:midi_out", (target + ":midi_in").c_str());
    return rc == 0 || rc == EEXIST;
  };
  if (!c.out || jack_set_process_callback(c.client, chordProcess, &c) != 0 ||
      jack_set_xrun_callback(c.client, chordXrun, &c) != 0 || jack_activate(c.client) != 0 || !waitFor(connect, 10.0)) {
    std::printf("probe: cannot open or connect the chord client\n");
    return 2;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the graph with the new link settles
  const int breaksBefore = c.breaks.load();
  c.go.store(true, std::memory_order_release);
  const bool sent = waitFor([&] { return c.sent.load(std::memory_order_acquire); }, 10.0);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the cycle reaches Spindle
  const int breaks = c.breaks.load() - breaksBefore;
  jack_client_close(c.client);
  std::printf("probe: %s %d note-ons; %d breaks of the server's cycles while sending\n",
              sent ? "sent" : "could not send", c.keys, breaks);
  if (!sent) return 1;
  return breaks > 0 ? 4 : 0;
}

// The keyboard's notes, one after another (150 ms held, 100 ms apart); "played N notes".
void playKeys(Keyboard& k, uint8_t channel, int key, int notes, const std::string& name) {
  for (int i = 0; i < notes && !gKeyboardStop.load(); ++i) {
    keyboardSend(k, static_cast<uint8_t>(0x90 | channel), key + i, 100);
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    keyboardSend(k, static_cast<uint8_t>(0x80 | channel), key + i, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::printf("keyboard %s: played %d notes\n", name.c_str(), notes);
  std::fflush(stdout);
}

// Until SIGTERM or `hold` seconds (0: no end): on SIGUSR1 the notes are played again.
void holdKeys(Keyboard& k, uint8_t channel, int key, int notes, const std::string& name, double hold) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(hold > 0 ? hold : 1e9);
  while (!gKeyboardStop.load() && std::chrono::steady_clock::now() < end) {
    const std::chrono::duration<double> left = end - std::chrono::steady_clock::now();
    waitFor([&] { return gKeyboardStop.load() || gKeyboardAgain.load(); }, left.count());
    if (gKeyboardAgain.exchange(false)) playKeys(k, channel, key, notes, name);
  }
}

int keyboard(int argc, char** argv) {
  Keyboard k;
  const std::string name = option(argc, argv, "--name", "probe_keyboard");
  const int notes = std::clamp(std::stoi(option(argc, argv, "--notes", "4")), 0, 100);
  const int key = std::clamp(std::stoi(option(argc, argv, "--key", "60")), 0, 127 - notes);
  const auto channel = static_cast<uint8_t>(std::clamp(std::stoi(option(argc, argv, "--channel", "1")), 1, 16) - 1);
  const double wait = std::stod(option(argc, argv, "--wait", "20")), hold = std::stod(option(argc, argv, "--hold", "0"));
  std::signal(SIGTERM, onKeyboardStop);
  std::signal(SIGINT, onKeyboardStop);
  std::signal(SIGUSR1, onKeyboardAgain);
  k.client = jack_client_open(name.c_str(), JackNoStartServer, nullptr);
  const auto flags = JackPortIsOutput | JackPortIsPhysical | JackPortIsTerminal;
  k.out = k.client ? jack_port_register(k.client, "capture", JACK_DEFAULT_MIDI_TYPE, flags, 0) : nullptr;
  if (!k.out || jack_set_process_callback(k.client, keyboardProcess, &k) != 0 || jack_activate(k.client) != 0) {
    std::printf("keyboard %s: cannot open the JACK client\n", name.c_str());
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  if (!waitFor([&] { return jack_port_connected(k.out) > 0 || gKeyboardStop.load(); }, wait) || gKeyboardStop.load()) {
    std::printf("keyboard %s: nothing connected to %s:capture in %.0f s\n", name.c_str(), name.c_str(), wait);
    jack_client_close(k.client);
    return 3;
  }
  const std::chrono::duration<double> waited = std::chrono::steady_clock::now() - start;
  std::printf("keyboard %s: connected after %.2f s\n", name.c_str(), waited.count());
  std::fflush(stdout);
  const std::string startFile = option(argc, argv, "--start-file", "");
  if (!startFile.empty() && !waitFor([&] { return std::filesystem::exists(startFile) || gKeyboardStop.load(); }, wait)) {
    std::printf("keyboard %s: %s did not appear in %.0f s\n", name.c_str(), startFile.c_str(), wait);
    jack_client_close(k.client);
    return 3;
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(std::stod(option(argc, argv, "--delay", "0.3"))));
  playKeys(k, channel, key, notes, name);
  holdKeys(k, channel, key, notes, name, hold);
  jack_client_close(k.client);
  return 0;
}

}  // namespace spindle::live
