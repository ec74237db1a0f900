// spindle-soak-client: the soak test's JACK client (tests/soak/soak.sh).
//
//   spindle-soak-client idle NAME
//       an idle client: counts the xruns JACK reports to it, the baseline a VM's
//       stalls give every client.
//   spindle-soak-client play NAME TARGET_PORT [--rate NOTES_PER_SECOND] [--keys LOW HIGH]
//       sends dense MIDI to TARGET_PORT: random note-ons (random key, velocity and
//       length 30-800 ms, ~10% of them long held chords), sustain pedal presses, pitch
//       bend and CC moves, all from the process callback at random frame offsets.
//
// Both run until SIGTERM or SIGINT; play then sends a note-off for every held key and
// a sustain release, waits a few cycles for them to leave, and both print
// "xruns: N" and exit 0.
#include <jack/jack.h>
#include <jack/midiport.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>

namespace {

std::atomic<bool> gStop{false};
extern "C" void onSignal(int) { gStop.store(true); }

struct Player {
  jack_client_t* client = nullptr;
  jack_port_t* out = nullptr;
  std::atomic<uint64_t> xruns{0};
  std::atomic<bool> releasing{false}, released{false};
  double notesPerFrame = 20.0 / 48000.0;
  int lowKey = 36, highKey = 96;
  std::array<int64_t, 128> offAt{};  // frame a held key is released at; 0 = not held
  int64_t frame = 0;
  bool sustain = false;
  std::minstd_rand random{12345};

  double uniform() { return std::uniform_real_distribution<double>(0.0, 1.0)(random); }
  void send(void* buffer, jack_nframes_t at, uint8_t a, uint8_t b, uint8_t c) {
    const uint8_t message[3] = {a, b, c};
    jack_midi_event_write(buffer, at, message, 3);
  }
  void releaseAll(void* buffer) {
    for (int key = 0; key < 128; ++key)
      if (offAt[static_cast<std::size_t>(key)]) send(buffer, 0, 0x80, static_cast<uint8_t>(key), 0);
    offAt.fill(0);
    send(buffer, 0, 0xB0, 64, 0);
  }
  void startNote(void* buffer, jack_nframes_t at, jack_nframes_t rate) {
    const int key = lowKey + static_cast<int>(uniform() * (highKey - lowKey + 1));
    auto& off = offAt[static_cast<std::size_t>(key)];
    if (off) send(buffer, at, 0x80, static_cast<uint8_t>(key), 0);
    send(buffer, at, 0x90, static_cast<uint8_t>(key), static_cast<uint8_t>(1 + uniform() * 126));
    const double seconds = uniform() < 0.1 ? 2.0 + 4.0 * uniform() : 0.03 + 0.77 * uniform();
    off = frame + at + static_cast<int64_t>(seconds * rate) + 1;
  }
  void controllers(void* buffer, jack_nframes_t at) {
    const double pick = uniform();
    if (pick < 0.02) {
      sustain = !sustain;
      send(buffer, at, 0xB0, 64, sustain ? 127 : 0);
    } else if (pick < 0.2) {
      const int bend = static_cast<int>(uniform() * 16383);
      send(buffer, at, 0xE0, static_cast<uint8_t>(bend & 0x7F), static_cast<uint8_t>(bend >> 7));
    } else if (pick < 0.4) {
      send(buffer, at, 0xB0, 1, static_cast<uint8_t>(uniform() * 127));
    }
  }
  void cycle(jack_nframes_t frames) {
    void* buffer = jack_port_get_buffer(out, frames);
    jack_midi_clear_buffer(buffer);
    if (releasing.load()) {
      if (!released.exchange(true)) releaseAll(buffer);
      return;
    }
    const jack_nframes_t rate = jack_get_sample_rate(client);
    for (int key = 0; key < 128; ++key) {
      auto& off = offAt[static_cast<std::size_t>(key)];
      if (off && off < frame + frames) {
        send(buffer, 0, 0x80, static_cast<uint8_t>(key), 0);
        off = 0;
      }
    }
    // JACK takes events in frame order: note-offs due this cycle at its first frame,
    // new notes and controllers at its last.
    const int notes = static_cast<int>(notesPerFrame * frames + uniform());
    for (int n = 0; n < notes; ++n) startNote(buffer, frames - 1, rate);
    controllers(buffer, frames - 1);
    frame += frames;
  }
};

int onProcess(jack_nframes_t frames, void* arg) {
  auto* p = static_cast<Player*>(arg);
  if (p->out) p->cycle(frames);
  return 0;
}
int onXrun(void* arg) {
  static_cast<Player*>(arg)->xruns.fetch_add(1);
  return 0;
}

int run(Player& p, const char* name, const char* target) {
  p.client = jack_client_open(name, JackNoStartServer, nullptr);
  if (!p.client) {
    std::fprintf(stderr, "spindle-soak-client: no JACK server\n");
    return 1;
  }
  if (target) p.out = jack_port_register(p.client, "midi_out", JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput, 0);
  jack_set_process_callback(p.client, onProcess, &p);
  jack_set_xrun_callback(p.client, onXrun, &p);
  if (jack_activate(p.client) != 0) return 1;
  if (target && jack_connect(p.client, jack_port_name(p.out), target) != 0) {
    std::fprintf(stderr, "spindle-soak-client: cannot connect to %s\n", target);
    return 1;
  }
  std::printf("ready\n");
  std::fflush(stdout);
  while (!gStop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  p.releasing.store(true);
  for (int i = 0; i < 100 && target && !p.released.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the note-offs leave in the next cycle
  jack_client_close(p.client);
  std::printf("xruns: %llu\n", static_cast<unsigned long long>(p.xruns.load()));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGTERM, onSignal);
  std::signal(SIGINT, onSignal);
  const std::string mode = argc > 2 ? argv[1] : "";
  static Player player;  // static: outlives the JACK threads
  if (mode == "idle") return run(player, argv[2], nullptr);
  if (mode != "play" || argc < 4) {
    std::fprintf(stderr, "usage: %s idle NAME | play NAME TARGET_PORT [--rate N] [--keys LOW HIGH]\n", argv[0]);
    return 2;
  }
  for (int i = 4; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--rate") && i + 1 < argc) player.notesPerFrame = std::atof(argv[++i]) / 48000.0;
    else if (!std::strcmp(argv[i], "--keys") && i + 2 < argc) {
      player.lowKey = std::atoi(argv[++i]);
      player.highKey = std::atoi(argv[++i]);
    }
  }
  return run(player, argv[2], argv[3]);
}
