// spindle-live-probe net: notes to several hosts across the network, each onset timed.
//
//   spindle-live-probe net --to MIDI1,MIDI2.. --from AUDIO1,AUDIO2.. [--notes N]
//                          [--every C] [--timeout S] [--expect F1,F2..] [--tolerance T]
//                          [--channels C1,C2..] [--notes-out FILE]
//
// Host h is a MIDI input port MIDIh (a NetJACK2 master's midi_to_slave_1 for a slave)
// and the audio output port AUDIOh that carries that host's answer back. Two clients:
// probe_tx (midi_out_h -> MIDIh) and probe_rx (AUDIOh -> in_h). Note k goes to host
// k % H on its channel Ch (1..16, default 1; --channels), one note every C cycles
// (default 2), at offsets spread over the period; rx
// records the frame of every onset on each input (the impulse instrument: one frame).
// Several hosts may share one MIDI target (a master Spindle's midi_in, which forwards
// every note to every host): their channels then pick which host plays a note.
//
// Per host the offset of a note is (its onset frame - its event frame); the host's
// offset is Fh from --expect, else the one most of its notes share. A note is exact
// within --tolerance frames (default 0) of it; one that is not is excused when the probe
// saw an xrun (JACK's xrun callback, a frame gap between its cycles) from one period
// before the note to three after its onset, as in the live tests (ProbeCheck.h). Each
// host's line gives the counts. Exit 0 when every host has exact notes and none
// displaced without an xrun, lost, or extra; 4 (void) when the only failures are notes
// lost near an xrun the probe saw (the master broke that cycle); 1 otherwise; 2 when
// the clients or the links cannot be made. The xrun and gap counts are printed for the test to judge.
#include <jack/jack.h>
#include <jack/midiport.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ProbeModes.h"

namespace spindle::live {
namespace {

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

struct NetHost {
  std::string midiTarget, audioSource;
  jack_port_t* midiOut = nullptr;
  jack_port_t* audioIn = nullptr;
  std::vector<uint64_t> onsets = std::vector<uint64_t>(kMaxNotes * 2);
  std::atomic<int> onsetCount{0};
  bool previousNonZero = false;
  uint8_t channel = 0;  // 0..15
};

struct NetProbe {
  jack_client_t* tx = nullptr;
  jack_client_t* rx = nullptr;
  std::vector<NetHost> hosts;
  std::vector<uint64_t> sentFrames = std::vector<uint64_t>(kMaxNotes);
  std::vector<uint64_t> sentUsecs = std::vector<uint64_t>(kMaxNotes);  // jack_get_time() when sent
  int notes = 0, every = 2;
  std::atomic<int> sentCount{0}, txCycles{0}, xrunCallbacks{0}, frameGaps{0};
  std::vector<uint64_t> xrunFrames = std::vector<uint64_t>(kMaxNotes);  // callbacks' and gaps' frames
  std::atomic<int> xrunCount{0};
  std::atomic<uint64_t> rxFrame{0};
  std::atomic<uint32_t> period{256};
  uint64_t expectedTx = 0, expectedRx = 0;
  std::atomic<bool> go{false};
};

void markXrun(NetProbe& p, uint64_t frame) {
  const int i = p.xrunCount.fetch_add(1, std::memory_order_relaxed);
  if (i < kMaxNotes) p.xrunFrames[static_cast<std::size_t>(i)] = frame;
}

void watchCycle(NetProbe& p, uint64_t& expected, uint64_t start, jack_nframes_t frames) {
  if (expected != 0 && start != expected) {
    p.frameGaps.fetch_add(1, std::memory_order_relaxed);
    markXrun(p, expected);
  }
  expected = start + frames;
}

int netTx(jack_nframes_t frames, void* arg) {
  auto& p = *static_cast<NetProbe*>(arg);
  const uint64_t start = jack_last_frame_time(p.tx);
  watchCycle(p, p.expectedTx, start, frames);
  p.period.store(frames, std::memory_order_relaxed);
  for (NetHost& h : p.hosts) jack_midi_clear_buffer(jack_port_get_buffer(h.midiOut, frames));
  if (!p.go.load(std::memory_order_acquire)) return 0;
  const int cycle = p.txCycles.fetch_add(1);
  const int k = p.sentCount.load(std::memory_order_relaxed);
  if (cycle < kWarmupCycles || cycle % p.every != 0 || k >= p.notes) return 0;
  NetHost& host = p.hosts[static_cast<std::size_t>(k) % p.hosts.size()];
  const auto offset = static_cast<jack_nframes_t>((static_cast<uint64_t>(k) * 97 + 13) % frames);
  const uint8_t message[3] = {static_cast<uint8_t>(0x90 | host.channel), static_cast<uint8_t>(36 + k % 48), 100};
  if (jack_midi_event_write(jack_port_get_buffer(host.midiOut, frames), offset, message, 3) != 0) return 0;
  p.sentFrames[static_cast<std::size_t>(k)] = start + offset;
  p.sentUsecs[static_cast<std::size_t>(k)] = jack_get_time();
  p.sentCount.store(k + 1, std::memory_order_release);
  return 0;
}

int netRx(jack_nframes_t frames, void* arg) {
  auto& p = *static_cast<NetProbe*>(arg);
  const uint64_t start = jack_last_frame_time(p.rx);
  watchCycle(p, p.expectedRx, start, frames);
  for (NetHost& h : p.hosts) {
    const auto* in = static_cast<const float*>(jack_port_get_buffer(h.audioIn, frames));
    for (jack_nframes_t i = 0; i < frames; ++i) {
      const bool sounding = std::fabs(in[i]) > 1e-3f;
      const int n = h.onsetCount.load(std::memory_order_relaxed);
      if (sounding && !h.previousNonZero && n < kMaxNotes * 2) {
        h.onsets[static_cast<std::size_t>(n)] = start + i;
        h.onsetCount.store(n + 1, std::memory_order_release);
      }
      h.previousNonZero = sounding;
    }
  }
  p.rxFrame.store(start, std::memory_order_release);
  return 0;
}

int netXrun(void* arg) {  // JACK's notification thread
  auto& p = *static_cast<NetProbe*>(arg);
  p.xrunCallbacks.fetch_add(1, std::memory_order_relaxed);
  markXrun(p, jack_frame_time(p.rx));
  return 0;
}

bool openNet(NetProbe& p) {
  p.tx = jack_client_open("probe_tx", JackNoStartServer, nullptr);
  p.rx = jack_client_open("probe_rx", JackNoStartServer, nullptr);
  if (!p.tx || !p.rx) return false;
  bool ok = true;
  for (std::size_t i = 0; i < p.hosts.size(); ++i) {
    const std::string n = std::to_string(i + 1);
    p.hosts[i].midiOut = jack_port_register(p.tx, ("midi_out_" + n).c_str(), JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput, 0);
    p.hosts[i].audioIn = jack_port_register(p.rx, ("in_" + n).c_str(), JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
    ok = ok && p.hosts[i].midiOut && p.hosts[i].audioIn;
  }
  jack_set_process_callback(p.tx, netTx, &p);
  jack_set_process_callback(p.rx, netRx, &p);
  jack_set_xrun_callback(p.rx, netXrun, &p);
  return ok && jack_activate(p.rx) == 0 && jack_activate(p.tx) == 0;
}

bool connectNet(NetProbe& p) {
  const auto link = [&p](const std::string& from, const std::string& to) {
    const int rc = jack_connect(p.rx, from.c_str(), to.c_str());
    return rc == 0 || rc == EEXIST;
  };
  bool ok = true;
  for (std::size_t i = 0; i < p.hosts.size() && ok; ++i) {
    const std::string n = std::to_string(i + 1);
    ok = link("probe_tx:midi_out_" + n, p.hosts[i].midiTarget) && link(p.hosts[i].audioSource, "probe_rx:in_" + n);
  }
  return ok;
}

struct Matched {
  uint64_t sent = 0;
  long long offset = -1;  // onset - sent; -1: lost
};

// Notes of one host in order; a note's onset is the first onset at or after its frame
// and before the host's next note. Onsets matched to no note are counted in `extra`.
std::vector<Matched> matchHost(const std::vector<uint64_t>& sent, const std::vector<uint64_t>& onsets, int& extra) {
  std::vector<Matched> out;
  std::size_t j = 0;
  extra = 0;
  for (std::size_t i = 0; i < sent.size(); ++i) {
    while (j < onsets.size() && onsets[j] < sent[i]) ++j, ++extra;
    const bool inTime = j < onsets.size() && (i + 1 == sent.size() || onsets[j] < sent[i + 1]);
    out.push_back({sent[i], inTime ? static_cast<long long>(onsets[j++] - sent[i]) : -1});
  }
  extra += static_cast<int>(onsets.size() - j);
  return out;
}

// The offset most notes share: the host's latency when --expect gives none.
long long commonOffset(const std::vector<Matched>& notes) {
  std::vector<long long> offsets;
  for (const Matched& m : notes)
    if (m.offset >= 0) offsets.push_back(m.offset);
  std::sort(offsets.begin(), offsets.end());
  long long best = -1;
  std::size_t bestCount = 0;
  for (std::size_t i = 0; i < offsets.size();) {
    std::size_t k = i;
    while (k < offsets.size() && offsets[k] == offsets[i]) ++k;
    if (k - i > bestCount) best = offsets[i], bestCount = k - i;
    i = k;
  }
  return best;
}

// Waits four periods past the last note plus the longest latency the test allows.
bool playNet(NetProbe& p, double timeout, uint64_t tail) {
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  p.go.store(true, std::memory_order_release);
  const bool allSent = waitFor([&] { return p.sentCount.load() >= p.notes; }, timeout);
  const int n = p.sentCount.load(std::memory_order_acquire);
  const uint64_t last = n > 0 ? p.sentFrames[static_cast<std::size_t>(n - 1)] : 0;
  const bool heard = waitFor([&] { return p.rxFrame.load() > last + tail + 4ULL * p.period.load(); }, 10.0);
  if (!allSent) std::printf("probe: only %d of %d notes sent before the timeout\n", n, p.notes);
  return allSent && heard;
}

bool xrunNear(const NetProbe& p, uint64_t from, uint64_t to) {
  const int n = std::min(p.xrunCount.load(), kMaxNotes);
  for (int i = 0; i < n; ++i) {
    const uint64_t f = p.xrunFrames[static_cast<std::size_t>(i)];
    if (f + p.period.load() >= from && f <= to) return true;
  }
  return false;
}

enum class HostVerdict { Passed, Void, Failed };
enum Fate { kExact, kExcused, kDisplaced, kLostInXrun, kLost, kFates };
constexpr const char* kFateNames[kFates] = {"exact", "excused", "displaced", "lost-in-xrun", "lost"};

// A note is exact at the host's offset (within the tolerance), excused when it is not
// but an xrun fell between one period before it and three after its onset, else
// displaced. A lost note in such a window was lost in a cycle the master broke (a VM
// stall), and an extra onset in a run with an xrun may be a period the stall played
// twice: the run is void. Any other lost note or extra onset fails. With --notes-out,
// one line per note: host, sent frame, send time (jack_get_time(), microseconds, the
// clock of CLOCK_MONOTONIC_RAW), fate, offset (-1: lost).
HostVerdict judgeHost(const NetProbe& p, std::size_t h, long long expect, long long tolerance, std::FILE* notesOut) {
  std::vector<uint64_t> sent;
  std::vector<std::size_t> index;
  for (int k = static_cast<int>(h); k < p.sentCount.load(); k += static_cast<int>(p.hosts.size())) {
    sent.push_back(p.sentFrames[static_cast<std::size_t>(k)]);
    index.push_back(static_cast<std::size_t>(k));
  }
  const NetHost& host = p.hosts[h];
  int extra = 0, count[kFates] = {};
  const auto notes = matchHost(sent, {host.onsets.begin(), host.onsets.begin() + host.onsetCount.load()}, extra);
  const long long offset = expect >= 0 ? expect : commonOffset(notes), period = p.period.load();
  const auto nearXrun = [&](uint64_t frame) {
    return xrunNear(p, frame - static_cast<uint64_t>(period), frame + static_cast<uint64_t>(offset + 3 * period));
  };
  for (std::size_t i = 0; i < notes.size(); ++i) {
    const Matched& m = notes[i];
    const Fate fate = m.offset < 0 ? (nearXrun(m.sent) ? kLostInXrun : kLost)
                      : std::llabs(m.offset - offset) <= tolerance ? kExact
                      : nearXrun(m.sent)                          ? kExcused
                                                                  : kDisplaced;
    ++count[fate];
    if (notesOut)
      std::fprintf(notesOut, "%zu %llu %llu %s %lld\n", h + 1, static_cast<unsigned long long>(m.sent),
                   static_cast<unsigned long long>(p.sentUsecs[index[i]]), kFateNames[fate], m.offset);
  }
  std::printf("host %zu (%s -> %s): %zu sent, %d at offset %lld frames (%.2f periods), %d displaced by an xrun, "
              "%d displaced, %d lost in an xrun, %d lost, %d extra\n",
              h + 1, host.midiTarget.c_str(), host.audioSource.c_str(), notes.size(), count[kExact], offset,
              static_cast<double>(offset) / static_cast<double>(period), count[kExcused], count[kDisplaced],
              count[kLostInXrun], count[kLost], extra);
  const bool xrunInRun = p.xrunCount.load() > 0;
  if (count[kExact] == 0 || count[kLost] > 0 || count[kDisplaced] > 0 || (extra > 0 && !xrunInRun))
    return HostVerdict::Failed;
  return count[kLostInXrun] > 0 || extra > 0 ? HostVerdict::Void : HostVerdict::Passed;
}

}  // namespace

int netProbe(int argc, char** argv) {
  NetProbe p;
  const auto to = splitList(option(argc, argv, "--to", "")), from = splitList(option(argc, argv, "--from", ""));
  const auto expect = splitList(option(argc, argv, "--expect", ""));
  const auto channels = splitList(option(argc, argv, "--channels", ""));
  if (to.empty() || to.size() != from.size() || (!expect.empty() && expect.size() != to.size()) ||
      (!channels.empty() && channels.size() != to.size())) {
    std::printf("probe: --to and --from (and --expect, --channels) need one port per host\n");
    return 2;
  }
  p.hosts = std::vector<NetHost>(to.size());
  for (std::size_t i = 0; i < to.size(); ++i) {
    p.hosts[i].midiTarget = to[i], p.hosts[i].audioSource = from[i];
    if (!channels.empty()) p.hosts[i].channel = static_cast<uint8_t>(std::clamp(std::stoi(channels[i]), 1, 16) - 1);
  }
  p.notes = std::min(std::stoi(option(argc, argv, "--notes", "120")), kMaxNotes);
  p.every = std::max(1, std::stoi(option(argc, argv, "--every", "2")));
  const long long tolerance = std::stoll(option(argc, argv, "--tolerance", "0"));
  if (!openNet(p) || !waitFor([&] { return connectNet(p); }, 10.0)) {
    std::printf("probe: cannot open the clients or connect them to the hosts' ports\n");
    return 2;
  }
  const bool played = playNet(p, std::stod(option(argc, argv, "--timeout", "60")), 16ULL * p.period.load());
  jack_deactivate(p.tx);
  jack_deactivate(p.rx);
  HostVerdict verdict = played ? HostVerdict::Passed : HostVerdict::Failed;
  const std::string notesPath = option(argc, argv, "--notes-out", "");
  std::FILE* notesOut = notesPath.empty() ? nullptr : std::fopen(notesPath.c_str(), "w");
  for (std::size_t h = 0; h < p.hosts.size(); ++h)
    verdict = std::max(verdict, judgeHost(p, h, expect.empty() ? -1 : std::stoll(expect[h]), tolerance, notesOut));
  if (notesOut) std::fclose(notesOut);
  if (!notesPath.empty() && !notesOut) {
    std::printf("probe: cannot write %s\n", notesPath.c_str());
    verdict = HostVerdict::Failed;
  }
  std::printf("probe: %d xrun callbacks, %d frame gaps\n", p.xrunCallbacks.load(), p.frameGaps.load());
  jack_client_close(p.tx);
  jack_client_close(p.rx);
  return verdict == HostVerdict::Passed ? 0 : verdict == HostVerdict::Void ? 4 : 1;
}

}  // namespace spindle::live
