// spindle-live-probe: the test JACK client of the live tests (works under pw-jack too).
//
//   spindle-live-probe instrument DIR
//       writes DIR/impulse.wav (first frame full scale, then silence) and DIR/impulse.sfz,
//       DIR/long.wav (20 s, far past the preload: it streams) with DIR/streamed.sfz, and
//       DIR/dc.wav with DIR/bend.sfz (sounds as its note's own bend goes up)
//   spindle-live-probe chord --target NAME --keys K (1..67)
//       sends note-ons for keys 61 .. 60+K in one cycle to NAME:midi_in, then exits;
//       exit 4 when the server broke its cycles while the chord was on its way
//   spindle-live-probe keyboard --name NAME [--notes N] [--key K] [--channel C] [--wait S]
//                               [--delay S] [--hold S] [--start-file F]
//       a stand-in for a hardware keyboard: client NAME with one MIDI output port
//       NAME:capture registered physical and terminal, as a2jmidid registers a keyboard.
//       Once something connects to it (waits up to --wait s, else exits 3), file F
//       exists when given (as long again), and --delay s (default 0.3) later, it plays N
//       notes (keys K, K+1 ..., channel C 1..16; 150 ms on, 250 ms apart), then stays
//       --hold s (0: until SIGTERM) before closing; SIGUSR1 meanwhile plays them again
//   spindle-live-probe clock --target NAME --bpm B [--seconds S] [--stop 1]
//       a MIDI clock into NAME:midi_in: a start, then timing clocks at B BPM (24 to the
//       quarter note), each at its exact frame, for S s (default 2); with --stop 1 a stop
//   spindle-live-probe net --to MIDI1,.. --from AUDIO1,.. [--notes N] [--expect F1,..] ...
//       notes to hosts across NetJACK2, each host's onsets timed (ProbeNet.cpp)
//   spindle-live-probe bend --target NAME [--notes N] [--channels A-B] [--flood S]
//       MPE per-note bends on member channels A..B, each timed on NAME:out_L against
//       bend.sfz, then S s of every channel's expression at 1 kHz (ProbeBend.cpp)
//   spindle-live-probe run --target NAME --notes N --note-log FILE [--latency L] [--parts P] [--channels A-B]
//                          [--timeout S] [--skip-lines K]
//       opens two clients, probe_tx (MIDI out) -> NAME:midi_in and NAME:out_L/out_R ->
//       probe_rx (audio in, declaring L frames of playback latency, as a sound card
//       would), so the graph runs tx, Spindle, rx in that order within each cycle.
//       tx sends N note-ons, one every other cycle, at offsets spread over the period,
//       each with its own (channel, key, velocity), none in a cycle that started over
//       half a period late (counted); rx records the frame of every onset.
//       With --channels A-B the notes cycle through channels A..B (an MPE zone's members).
//       With --parts P the notes cycle through channels 1..P and rx also listens to
//       NAME:out_<p>_L/R (--multi-out) on one port per part.
//       Both clients watch for xruns (frame gaps between their cycles, JACK's xrun
//       callback). The verdict (ProbeCheck.h): exit 0 when every note is exact or
//       displaced by an xrun (counted), none lost, no part leaks; 4 when the only
//       failures are notes lost in cycles the server broke (a void run); 1 otherwise.
#include <jack/jack.h>
#include <jack/midiport.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "ProbeCheck.h"
#include "ProbeModes.h"
#include "ProbeRt.h"

namespace spindle::live {

bool waitFor(const std::function<bool()>& done, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!done()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

std::string option(int argc, char** argv, const std::string& name, const std::string& fallback) {
  for (int i = 2; i + 1 < argc; ++i)
    if (name == argv[i]) return argv[i + 1];
  return fallback;
}

namespace {

struct Probe {
  jack_client_t* tx = nullptr;
  jack_client_t* rx = nullptr;
  jack_port_t* midiOut = nullptr;
  jack_port_t* inR = nullptr;
  std::vector<Track> tracks;  // [0]: main out_L; [1 + p]: part p's out_<p+1>_L + _R
  int notes = 0, parts = 0;
  int firstChannel = 0, channels = 0;  // --channels A-B: notes cycle through A..B (0-based here)
  jack_nframes_t latency = 0;
  std::vector<SentNote> sent = std::vector<SentNote>(kMaxNotes);
  MarkList xruns;
  CycleWatch txWatch, rxWatch;
  std::atomic<int> sentCount{0}, txCycles{0}, lateCycles{0};
  std::atomic<uint64_t> rxFrame{0};  // the first frame of rx's latest cycle
  std::atomic<uint32_t> period{256};
  std::atomic<bool> go{false};  // tx sends only once the graph is connected and settled
};

SentNote noteFor(const Probe& p, int k) {
  SentNote s;
  s.channel = p.parts > 0 ? k % p.parts : (p.channels > 0 ? p.firstChannel + k % p.channels : 0);
  s.key = 36 + k % 48;
  s.velocity = 1 + (k / 48) % 127;  // (key, velocity) differ for every k < 6096
  return s;
}

int txProcess(jack_nframes_t frames, void* arg) {
  auto& p = *static_cast<Probe*>(arg);
  void* buffer = jack_port_get_buffer(p.midiOut, frames);
  jack_midi_clear_buffer(buffer);
  const uint64_t start = jack_last_frame_time(p.tx);
  p.txWatch.cycle(start, frames, p.xruns);
  p.period.store(frames, std::memory_order_relaxed);
  if (!p.go.load(std::memory_order_acquire)) return 0;
  const int cycle = p.txCycles.fetch_add(1);
  const int k = p.sentCount.load(std::memory_order_relaxed);
  if (cycle < kWarmupCycles || cycle % 2 != 0 || k >= p.notes) return 0;
  if (lateCycle(p.tx)) {
    p.lateCycles.fetch_add(1, std::memory_order_relaxed);
    return 0;
  }
  SentNote note = noteFor(p, k);
  const auto offset = static_cast<jack_nframes_t>((static_cast<uint64_t>(k) * 97 + 13) % frames);
  const uint8_t message[3] = {static_cast<uint8_t>(0x90 | note.channel), static_cast<uint8_t>(note.key),
                              static_cast<uint8_t>(note.velocity)};
  if (jack_midi_event_write(buffer, offset, message, 3) != 0) return 0;
  note.cycleStart = start;
  note.frame = start + offset;
  note.period = frames;
  p.sent[static_cast<std::size_t>(k)] = note;
  p.sentCount.store(k + 1, std::memory_order_release);
  return 0;
}

int rxProcess(jack_nframes_t frames, void* arg) {
  auto& p = *static_cast<Probe*>(arg);
  const uint64_t start = jack_last_frame_time(p.rx);
  p.rxWatch.cycle(start, frames, p.xruns);
  for (Track& t : p.tracks) t.record(static_cast<const float*>(jack_port_get_buffer(t.port, frames)), frames, start);
  p.rxFrame.store(start, std::memory_order_release);
  return 0;
}

int onXrun(void* arg) {  // JACK's notification thread
  auto& p = *static_cast<Probe*>(arg);
  p.xruns.add(XrunMark{jack_frame_time(p.rx), p.period.load(std::memory_order_relaxed), false});
  return 0;
}

void rxLatency(jack_latency_callback_mode_t mode, void* arg) {
  auto& p = *static_cast<Probe*>(arg);
  if (mode != JackPlaybackLatency) return;
  jack_latency_range_t range{p.latency, p.latency};
  for (Track& t : p.tracks) jack_port_set_latency_range(t.port, JackPlaybackLatency, &range);
  jack_port_set_latency_range(p.inR, JackPlaybackLatency, &range);
}

bool openClients(Probe& p) {
  p.tx = jack_client_open("probe_tx", JackNoStartServer, nullptr);
  p.rx = jack_client_open("probe_rx", JackNoStartServer, nullptr);
  if (!p.tx || !p.rx) return false;
  p.midiOut = jack_port_register(p.tx, "midi_out", JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput, 0);
  p.tracks = std::vector<Track>(static_cast<std::size_t>(1 + p.parts));
  bool ok = p.midiOut != nullptr;
  for (std::size_t i = 0; i < p.tracks.size(); ++i) {
    const std::string name = i == 0 ? "in_L" : "part_" + std::to_string(i);
    p.tracks[i].port = jack_port_register(p.rx, name.c_str(), JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
    ok = ok && p.tracks[i].port;
  }
  p.inR = jack_port_register(p.rx, "in_R", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
  jack_set_process_callback(p.tx, txProcess, &p);
  jack_set_process_callback(p.rx, rxProcess, &p);
  jack_set_latency_callback(p.rx, rxLatency, &p);
  jack_set_xrun_callback(p.tx, onXrun, &p);
  jack_set_xrun_callback(p.rx, onXrun, &p);
  return ok && p.inR && jack_activate(p.rx) == 0 && jack_activate(p.tx) == 0;
}

bool connectAll(Probe& p, const std::string& target) {
  const auto link = [&p](const std::string& from, const std::string& to) {
    const int rc = jack_connect(p.rx, from.c_str(), to.c_str());
    return rc == 0 || rc == EEXIST;
  };
  bool ok = link("probe_tx:midi_out", target + ":midi_in") && link(target + ":out_L", "probe_rx:in_L") &&
            link(target + ":out_R", "probe_rx:in_R");
  for (int k = 1; k <= p.parts && ok; ++k) {
    const std::string part = "probe_rx:part_" + std::to_string(k), out = target + ":out_" + std::to_string(k);
    ok = link(out + "_L", part) && link(out + "_R", part);
  }
  jack_recompute_total_latencies(p.rx);
  return ok;
}

// Sends every note, then waits until rx has recorded well past the last one: four
// periods after its frame (the graph runs tx -> spindle -> rx in one cycle).
bool play(Probe& p, double timeout) {
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // let the graph settle
  p.go.store(true, std::memory_order_release);
  const bool allSent = waitFor([&] { return p.sentCount.load() >= p.notes; }, timeout);
  const int n = p.sentCount.load(std::memory_order_acquire);
  const uint64_t last = n > 0 ? p.sent[static_cast<std::size_t>(n - 1)].frame : 0;
  const bool heard = waitFor([&] { return p.rxFrame.load() > last + 4ULL * p.period.load(); }, 10.0);
  if (!allSent) std::printf("probe: only %d of %d notes sent before the timeout\n", n, p.notes);
  if (!heard) std::printf("probe: the recorder stopped before the last note was due\n");
  return allSent && heard;
}

ProbeRecord record(const Probe& p) {
  ProbeRecord r;
  r.sent.assign(p.sent.begin(), p.sent.begin() + p.sentCount.load());
  r.mainOnsets = p.tracks[0].onsets.taken();
  for (std::size_t i = 1; i < p.tracks.size(); ++i) r.partOnsets.push_back(p.tracks[i].onsets.taken());
  r.xruns = p.xruns.taken();
  r.lateCycles = p.lateCycles.load();
  r.period = p.period.load();
  r.latency = p.latency;
  return r;
}

}  // namespace

int runProbe(int argc, char** argv) {
  Probe p;
  const std::string target = option(argc, argv, "--target", "spindle");
  const std::string noteLog = option(argc, argv, "--note-log", "");
  const int skip = std::stoi(option(argc, argv, "--skip-lines", "0"));
  p.notes = std::min(std::stoi(option(argc, argv, "--notes", "240")), kMaxNotes);
  p.parts = std::clamp(std::stoi(option(argc, argv, "--parts", "0")), 0, 16);
  int first = 1, last = 1;
  if (std::sscanf(option(argc, argv, "--channels", "1-1").c_str(), "%d-%d", &first, &last) == 2 && first >= 1 &&
      last <= 16 && first <= last && p.parts == 0) {
    p.firstChannel = first - 1;
    p.channels = last - first + 1;
  }
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
  const bool played = play(p, timeout);
  jack_deactivate(p.tx);
  jack_deactivate(p.rx);
  const ProbeRecord r = record(p);
  waitFor([&] { return readNoteLog(noteLog, skip).size() >= r.sent.size(); }, 5.0);
  const Verdict verdict = check(r, readNoteLog(noteLog, skip));
  jack_client_close(p.tx);
  jack_client_close(p.rx);
  if (!played) return 1;
  return verdict.passed() ? 0 : verdict.voidRun() ? kExitVoid : 1;
}

}  // namespace spindle::live

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "instrument" && argc > 2) return spindle::live::writeInstrument(argv[2]);
  if (mode == "run") return spindle::live::runProbe(argc, argv);
  if (mode == "chord") return spindle::live::chord(argc, argv);
  if (mode == "keyboard") return spindle::live::keyboard(argc, argv);
  if (mode == "clock") return spindle::live::clock(argc, argv);
  if (mode == "net") return spindle::live::netProbe(argc, argv);
  if (mode == "bend") return spindle::live::bendProbe(argc, argv);
  std::cerr << "usage: spindle-live-probe instrument DIR | run --target NAME --notes N --note-log FILE "
               "[--latency L] [--parts P] [--channels A-B] [--timeout S] [--skip-lines K] | chord --target NAME --keys K | "
               "keyboard --name NAME [--notes N] [--key K] [--channel C] [--wait S] [--delay S] [--hold S] [--start-file F] | "
               "clock --target NAME --bpm B [--seconds S] [--stop 1] | bend --target NAME [--notes N] [--channels A-B] [--flood S] | "
               "net --to MIDI,.. --from AUDIO,.. [--notes N] [--every C] [--expect F,..] [--tolerance T] [--channels C,..] [--notes-out FILE]\n";
  return 2;
}
