// spindle-live-probe: the test JACK client of the live tests (works under pw-jack too).
//
//   spindle-live-probe instrument DIR
//       writes DIR/impulse.wav (first frame full scale, then silence) and DIR/impulse.sfz
//   spindle-live-probe run --target NAME --notes N --note-log FILE [--latency L] [--timeout S]
//       opens two clients, probe_tx (MIDI out) -> NAME:midi_in and NAME:out_L/out_R ->
//       probe_rx (audio in, declaring L frames of playback latency, as a sound card
//       would), so the graph runs tx, Spindle, rx in that order within each cycle.
//       tx sends N note-ons, one every other cycle, at offsets spread over the period;
//       rx records the frame of every onset. Passes (exit 0) when every note sounds at
//       exactly its event's frame, none is lost, and Spindle's note log reports for each
//       note the latency measured here: (onset - event) + L.
#include <jack/jack.h>
#include <jack/midiport.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "io/WavWriter.h"

namespace {

constexpr int kMaxNotes = 4096;
constexpr int kWarmupCycles = 40;

struct Probe {
  jack_client_t* tx = nullptr;
  jack_client_t* rx = nullptr;
  jack_port_t* midiOut = nullptr;
  jack_port_t* inL = nullptr;
  jack_port_t* inR = nullptr;
  int notes = 0;
  jack_nframes_t latency = 0;
  std::vector<uint64_t> sent = std::vector<uint64_t>(kMaxNotes);
  std::vector<uint64_t> onsets = std::vector<uint64_t>(kMaxNotes * 2);
  std::atomic<int> sentCount{0}, onsetCount{0}, txCycles{0};
  std::atomic<bool> go{false};  // tx sends only once the graph is connected and settled
  bool previousNonZero = false;  // rx: the last frame of the previous cycle sounded
};

int txProcess(jack_nframes_t frames, void* arg) {
  auto& p = *static_cast<Probe*>(arg);
  void* buffer = jack_port_get_buffer(p.midiOut, frames);
  jack_midi_clear_buffer(buffer);
  if (!p.go.load(std::memory_order_acquire)) return 0;
  const int cycle = p.txCycles.fetch_add(1);
  const int k = p.sentCount.load(std::memory_order_relaxed);
  if (cycle < kWarmupCycles || cycle % 2 != 0 || k >= p.notes) return 0;
  const auto offset = static_cast<jack_nframes_t>((static_cast<uint64_t>(k) * 97 + 13) % frames);
  const uint8_t message[3] = {0x90, static_cast<uint8_t>(36 + k % 48), 100};
  if (jack_midi_event_write(buffer, offset, message, 3) != 0) return 0;
  p.sent[static_cast<std::size_t>(k)] = jack_last_frame_time(p.tx) + offset;
  p.sentCount.store(k + 1, std::memory_order_release);
  return 0;
}

// An onset: the first sounding frame after a silent one (the impulse is one frame).
int rxProcess(jack_nframes_t frames, void* arg) {
  auto& p = *static_cast<Probe*>(arg);
  const auto* left = static_cast<const float*>(jack_port_get_buffer(p.inL, frames));
  const uint64_t start = jack_last_frame_time(p.rx);
  for (jack_nframes_t i = 0; i < frames; ++i) {
    const bool sounding = std::fabs(left[i]) > 1e-3f;
    const int n = p.onsetCount.load(std::memory_order_relaxed);
    if (sounding && !p.previousNonZero && n < static_cast<int>(p.onsets.size())) {
      p.onsets[static_cast<std::size_t>(n)] = start + i;
      p.onsetCount.store(n + 1, std::memory_order_release);
    }
    p.previousNonZero = sounding;
  }
  return 0;
}

void rxLatency(jack_latency_callback_mode_t mode, void* arg) {
  auto& p = *static_cast<Probe*>(arg);
  if (mode != JackPlaybackLatency) return;
  jack_latency_range_t range{p.latency, p.latency};
  jack_port_set_latency_range(p.inL, JackPlaybackLatency, &range);
  jack_port_set_latency_range(p.inR, JackPlaybackLatency, &range);
}

bool openClients(Probe& p) {
  p.tx = jack_client_open("probe_tx", JackNoStartServer, nullptr);
  p.rx = jack_client_open("probe_rx", JackNoStartServer, nullptr);
  if (!p.tx || !p.rx) return false;
  p.midiOut = jack_port_register(p.tx, "midi_out", JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput, 0);
  p.inL = jack_port_register(p.rx, "in_L", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
  p.inR = jack_port_register(p.rx, "in_R", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
  jack_set_process_callback(p.tx, txProcess, &p);
  jack_set_process_callback(p.rx, rxProcess, &p);
  jack_set_latency_callback(p.rx, rxLatency, &p);
  return p.midiOut && p.inL && p.inR && jack_activate(p.rx) == 0 && jack_activate(p.tx) == 0;
}

bool connectAll(Probe& p, const std::string& target) {
  const bool ok = jack_connect(p.tx, "probe_tx:midi_out", (target + ":midi_in").c_str()) == 0 &&
                  jack_connect(p.rx, (target + ":out_L").c_str(), "probe_rx:in_L") == 0 &&
                  jack_connect(p.rx, (target + ":out_R").c_str(), "probe_rx:in_R") == 0;
  jack_recompute_total_latencies(p.rx);
  return ok;
}

bool waitFor(const std::function<bool()>& done, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!done()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

struct LoggedNote {
  uint64_t event = 0, first = 0;
  long long engine = 0, total = 0;
  unsigned playback = 0, key = 0;
};

// The note log's lines after the first `skip` (earlier runs against the same spindle).
std::vector<LoggedNote> readNoteLog(const std::string& path, int skip) {
  std::vector<LoggedNote> notes;
  std::ifstream in(path);
  std::string line;
  for (int i = 0; i < skip && std::getline(in, line); ++i) {
  }
  while (std::getline(in, line)) {
    LoggedNote n;
    unsigned long long event = 0, first = 0;
    const char* keyAt = std::strstr(line.c_str(), "key=");
    const char* at = std::strstr(line.c_str(), "event=");
    if (keyAt && std::sscanf(keyAt, "key=%u", &n.key) == 1 && at && std::sscanf(at, "event=%llu scheduled=%*u first=%llu queue=%*d engine=%lld playback=%u total=%lld",
                          &event, &first, &n.engine, &n.playback, &n.total) == 5) {
      n.event = event;
      n.first = first;
      notes.push_back(n);
    }
  }
  return notes;
}

// The i-th note sent is the i-th note-on in Spindle's log (same key): none lost, none
// reordered. A note is exact when it sounds at its event's frame and the log reports
// that frame, 0 engine frames and the measured latency. Exit 0: all exact; 3: none
// lost but some displaced (the test then requires Spindle to have reported an xrun);
// 1: a note lost, or a wrong latency outside any displacement.
int compare(const Probe& p, const std::vector<LoggedNote>& log) {
  const int sent = p.sentCount.load(), heard = p.onsetCount.load();
  const std::set<uint64_t> onsets(p.onsets.begin(), p.onsets.begin() + heard);
  int lost = 0, displaced = 0;
  for (int i = 0; i < sent; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const uint64_t frame = p.sent[k];
    const bool logged = k < log.size() && log[k].key == static_cast<unsigned>(36 + i % 48);
    const bool exact = logged && onsets.count(frame) && log[k].event == frame && log[k].engine == 0 &&
                       log[k].total == static_cast<long long>(p.latency);
    if (exact) continue;
    (logged ? displaced : lost)++;
    if (lost + displaced <= 10)
      std::printf("note %d (event frame %llu): %s; onset there: %s; logged event %lld, engine %lld, total %lld\n", i,
                  static_cast<unsigned long long>(frame), logged ? "displaced" : "LOST", onsets.count(frame) ? "yes" : "no",
                  logged ? static_cast<long long>(log[k].event) : -1LL, logged ? log[k].engine : -1LL,
                  logged ? log[k].total : -1LL);
  }
  std::printf("probe: %d notes sent, %d onsets heard, %zu logged by spindle; %d exact, %d displaced, %d lost; "
              "measured latency = (onset - event) + %u frames\n",
              sent, heard, log.size(), sent - lost - displaced, displaced, lost, p.latency);
  if (lost > 0 || static_cast<int>(log.size()) != sent) return 1;
  return displaced > 0 ? 3 : (heard == sent ? 0 : 1);
}

std::string option(int argc, char** argv, const std::string& name, const std::string& fallback) {
  for (int i = 2; i + 1 < argc; ++i)
    if (name == argv[i]) return argv[i + 1];
  return fallback;
}

int run(int argc, char** argv) {
  Probe p;
  const std::string target = option(argc, argv, "--target", "spindle");
  const std::string noteLog = option(argc, argv, "--note-log", "");
  const int skip = std::stoi(option(argc, argv, "--skip-lines", "0"));
  p.notes = std::min(std::stoi(option(argc, argv, "--notes", "240")), kMaxNotes);
  p.latency = static_cast<jack_nframes_t>(std::stoi(option(argc, argv, "--latency", "64")));
  const double timeout = std::stod(option(argc, argv, "--timeout", "60"));
  if (!openClients(p)) {
    std::printf("probe: cannot open the JACK clients\n");
    return 2;
  }
  // Spindle's ports may exist a moment before it activates: retry for a while.
  if (!waitFor([&] { return connectAll(p, target); }, 10.0)) {
    std::printf("probe: cannot connect to %s's ports\n", target.c_str());
    return 2;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // let the graph settle
  p.go.store(true, std::memory_order_release);
  const bool allSent = waitFor([&] { return p.sentCount.load() >= p.notes; }, timeout);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the last notes reach rx
  jack_deactivate(p.tx);
  jack_deactivate(p.rx);
  if (!allSent) std::printf("probe: only %d of %d notes sent before the timeout\n", p.sentCount.load(), p.notes);
  waitFor([&] { return static_cast<int>(readNoteLog(noteLog, skip).size()) >= p.sentCount.load(); }, 5.0);
  const int result = compare(p, readNoteLog(noteLog, skip));
  jack_client_close(p.tx);
  jack_client_close(p.rx);
  return allSent ? result : 1;
}

int writeInstrument(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  std::string error;
  auto wav = spindle::io::WavWriter::create(dir / "impulse.wav", 48000, spindle::io::WavFormat::Float32, error);
  std::vector<float> frames(64, 0.0f);
  frames[0] = 1.0f;
  if (!wav || !wav->write(frames.data(), frames.data(), 64) || !wav->close()) {
    std::cerr << "probe: cannot write impulse.wav: " << error << '\n';
    return 2;
  }
  std::ofstream sfz(dir / "impulse.sfz");
  sfz << "// One full-scale frame, then silence: its onset is the note's first output frame.\n"
         "<region> sample=impulse.wav lokey=0 hikey=127 pitch_keycenter=60 pitch_keytrack=0\n"
         "amp_veltrack=0 loop_mode=one_shot\n";
  return sfz ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "instrument" && argc > 2) return writeInstrument(argv[2]);
  if (mode == "run") return run(argc, argv);
  std::cerr << "usage: spindle-live-probe instrument DIR | run --target NAME --notes N --note-log FILE "
               "[--latency L] [--timeout S] [--skip-lines K]\n";
  return 2;
}
