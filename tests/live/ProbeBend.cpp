// spindle-live-probe bend (LiveProbe.cpp lists the modes): per-note pitch bends on MPE
// member channels, each timed on Spindle's output. Spindle plays bend.sfz
// (ProbeInstrument.cpp), silent while its note's own bend is fully down, so the moment
// a bend goes up is an onset. Note k, on member channel A + k % (B - A + 1), takes four
// cycles:
//
//   cycle 0, frame 0   bend fully down, then the note-on: silent (the bend came first,
//                      as MPE sends a note's expression before its note-on)
//   cycle 2, offset o  bend fully up (o spread over the period): an onset at exactly
//                      that frame, as the run mode's notes sound at theirs
//   cycle 3, frame 0   bend fully down, the note-off
//
// Two clients, probe_bend_tx -> NAME:midi_in and NAME:out_L -> probe_bend_rx, so the
// graph runs tx, Spindle, rx in that order within each cycle. A bend is exact when an
// onset is at its frame; one that is not, or an onset at no bend's frame, is excused only
// by a break of the server's cycles from a period before its cycle to three after, at
// most two per break. exit 0: every bend exact, or excused for at most a tenth of them,
// no stray onset; 4: more excused, or stray onsets only next to breaks (a void run);
// 1: a bend missed with no break near it, a stray onset with none, a break over its
// bound; 2: no server or ports.
//
// --flood S: then, for S seconds, a note held on every member channel while each
// channel's bend, pressure and CC74 move every millisecond (MPE's busiest rate: 45,000
// messages a second on 15 channels). The probe prints how many MIDI messages it sent in
// all, for the test to compare with what Spindle took.
#include <jack/jack.h>
#include <jack/midiport.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "ProbeModes.h"
#include "ProbeRt.h"

namespace spindle::live {

namespace {

constexpr int kMaxBends = 2048;
constexpr int kWarmup = 40;  // cycles before the first note

struct Bend {
  uint64_t frame = 0, cycleStart = 0;
  uint32_t period = 256;
};

struct BendProbe {
  jack_client_t* tx = nullptr;
  jack_client_t* rx = nullptr;
  jack_port_t* out = nullptr;
  Track in;
  int notes = 0, firstChannel = 1, channels = 15;
  std::vector<Bend> bends = std::vector<Bend>(kMaxBends);
  std::atomic<int> sent{0};
  int step = -kWarmup;  // tx only: cycles into the current note (negative: warming up)
  MarkList xruns;
  CycleWatch txWatch, rxWatch;
  std::atomic<uint64_t> rxFrame{0};
  std::atomic<bool> go{false};
  // --flood: after the bends, a note held on every member channel while each channel's
  // bend, pressure and CC74 move at 1 kHz (MPE's busiest rate), for floodCycles cycles.
  int floodCycles = 0, floodCycle = 0, floodPhase = 0, floodInterval = 48;
  std::atomic<uint64_t> floodStart{UINT64_MAX};
  std::atomic<long> messages{0};  // every MIDI message sent
  std::atomic<bool> floodDone{false};
};

void bendMessage(void* buffer, jack_nframes_t offset, int channel, int value) {
  const uint8_t m[3] = {static_cast<uint8_t>(0xE0 | channel), static_cast<uint8_t>(value & 0x7F),
                        static_cast<uint8_t>(value >> 7)};
  jack_midi_event_write(buffer, offset, m, 3);
}

void noteMessage(void* buffer, jack_nframes_t offset, int status, int key) {
  const uint8_t m[3] = {static_cast<uint8_t>(status), static_cast<uint8_t>(key), 100};
  jack_midi_event_write(buffer, offset, m, 3);
}

// Each channel's bend, pressure and CC74 every floodInterval frames; the held notes start
// in the first cycle and end in the last.
void floodCycle(BendProbe& p, void* buffer, jack_nframes_t frames, uint64_t start) {
  const bool first = p.floodCycle == 0, last = p.floodCycle + 1 == p.floodCycles;
  long count = 0;
  if (first) p.floodStart.store(start, std::memory_order_release);
  for (int c = p.firstChannel; first && c < p.firstChannel + p.channels; ++c, ++count) noteMessage(buffer, 0, 0x90 | c, 60 + c);
  int offset = p.floodPhase;
  for (; offset < static_cast<int>(frames); offset += p.floodInterval) {
    const auto at = static_cast<jack_nframes_t>(offset);
    const int wave = (p.floodCycle * 7 + offset) % 128;
    for (int c = p.firstChannel; c < p.firstChannel + p.channels; ++c, count += 3) {
      bendMessage(buffer, at, c, 8192 + (wave - 64) * 64);
      const uint8_t pressure[2] = {static_cast<uint8_t>(0xD0 | c), static_cast<uint8_t>(wave)};
      const uint8_t timbre[3] = {static_cast<uint8_t>(0xB0 | c), 74, static_cast<uint8_t>(127 - wave)};
      jack_midi_event_write(buffer, at, pressure, 2);
      jack_midi_event_write(buffer, at, timbre, 3);
    }
  }
  p.floodPhase = offset - static_cast<int>(frames);
  for (int c = p.firstChannel; last && c < p.firstChannel + p.channels; ++c, ++count)
    noteMessage(buffer, frames - 1, 0x80 | c, 60 + c);
  p.messages.fetch_add(count, std::memory_order_relaxed);
  if (++p.floodCycle == p.floodCycles) p.floodDone.store(true, std::memory_order_release);
}

// One step of note k's four cycles (a late cycle waits: the schedule moves, not the note).
int bendTx(jack_nframes_t frames, void* arg) {
  auto& p = *static_cast<BendProbe*>(arg);
  void* buffer = jack_port_get_buffer(p.out, frames);
  jack_midi_clear_buffer(buffer);
  const uint64_t start = jack_last_frame_time(p.tx);
  p.txWatch.cycle(start, frames, p.xruns);
  const int k = p.sent.load(std::memory_order_relaxed);
  if (!p.go.load(std::memory_order_acquire)) return 0;
  if (k >= p.notes) {
    if (p.floodCycle < p.floodCycles) floodCycle(p, buffer, frames, start);
    return 0;
  }
  if (p.step >= 0 && lateCycle(p.tx)) return 0;
  const int channel = p.firstChannel + k % p.channels, key = 40 + k % 48;
  if (p.step == 0) {
    bendMessage(buffer, 0, channel, 0);
    noteMessage(buffer, 0, 0x90 | channel, key);
    p.messages.fetch_add(2, std::memory_order_relaxed);
  } else if (p.step == 2) {
    const auto offset = static_cast<jack_nframes_t>((static_cast<uint64_t>(k) * 97 + 13) % frames);
    bendMessage(buffer, offset, channel, 16383);
    p.bends[static_cast<std::size_t>(k)] = Bend{start + offset, start, frames};
    p.messages.fetch_add(1, std::memory_order_relaxed);
  } else if (p.step == 3) {
    bendMessage(buffer, 0, channel, 0);
    noteMessage(buffer, 0, 0x80 | channel, key);
    p.messages.fetch_add(2, std::memory_order_relaxed);
    p.sent.store(k + 1, std::memory_order_release);
    p.step = -1;  // the next note starts next cycle
  }
  ++p.step;
  return 0;
}

int bendRx(jack_nframes_t frames, void* arg) {
  auto& p = *static_cast<BendProbe*>(arg);
  const uint64_t start = jack_last_frame_time(p.rx);
  p.rxWatch.cycle(start, frames, p.xruns);
  p.in.record(static_cast<const float*>(jack_port_get_buffer(p.in.port, frames)), frames, start);
  p.rxFrame.store(start, std::memory_order_release);
  return 0;
}

int bendXrun(void* arg) {
  auto& p = *static_cast<BendProbe*>(arg);
  p.xruns.add(XrunMark{jack_frame_time(p.rx), jack_get_buffer_size(p.rx), false});
  return 0;
}

bool openAndConnect(BendProbe& p, const std::string& target) {
  p.tx = jack_client_open("probe_bend_tx", JackNoStartServer, nullptr);
  p.rx = jack_client_open("probe_bend_rx", JackNoStartServer, nullptr);
  if (!p.tx || !p.rx) return false;
  p.out = jack_port_register(p.tx, "midi_out", JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput, 0);
  p.in.port = jack_port_register(p.rx, "in_L", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
  if (!p.out || !p.in.port) return false;
  jack_set_process_callback(p.tx, bendTx, &p);
  jack_set_process_callback(p.rx, bendRx, &p);
  jack_set_xrun_callback(p.rx, bendXrun, &p);
  if (jack_activate(p.rx) != 0 || jack_activate(p.tx) != 0) return false;
  const auto link = [&p](const std::string& from, const std::string& to) {
    const int rc = jack_connect(p.rx, from.c_str(), to.c_str());
    return rc == 0 || rc == EEXIST;
  };
  return waitFor([&] { return link("probe_bend_tx:midi_out", target + ":midi_in") && link(target + ":out_L", "probe_bend_rx:in_L"); },
                 10.0);
}

struct BendVerdict {
  int exact = 0, excused = 0, missed = 0, stray = 0, strayNearBreak = 0, breaks = 0, overBound = 0;
  int exitCode(int sent) const noexcept {
    if (missed > 0 || stray > strayNearBreak || overBound > 0) return 1;
    return excused + stray == 0 || (stray == 0 && excused * 10 <= sent) ? 0 : kExitVoid;
  }
};

// The break marks near a bend: from a period before its cycle to three periods after.
int breakNear(const std::vector<XrunMark>& marks, uint64_t cycleStart, uint32_t period) {
  for (std::size_t i = 0; i < marks.size(); ++i)
    if (!marks[i].resize && marks[i].frame + period >= cycleStart && marks[i].frame <= cycleStart + 3ULL * period)
      return static_cast<int>(i);
  return -1;
}

BendVerdict judge(const std::vector<Bend>& bends, const std::vector<uint64_t>& onsets, const std::vector<XrunMark>& marks) {
  BendVerdict v;
  std::vector<int> excusedBy(marks.size(), 0);
  std::vector<bool> used(onsets.size(), false);
  for (const Bend& b : bends) {
    const auto at = std::find(onsets.begin(), onsets.end(), b.frame);
    if (at != onsets.end()) {
      ++v.exact;
      used[static_cast<std::size_t>(at - onsets.begin())] = true;
      continue;
    }
    const int mark = breakNear(marks, b.cycleStart, b.period);
    if (mark < 0) {
      ++v.missed;
      std::printf("bend at frame %llu: no onset there\n", static_cast<unsigned long long>(b.frame));
      continue;
    }
    ++v.excused;
    if (++excusedBy[static_cast<std::size_t>(mark)] == 3) ++v.overBound;
  }
  for (std::size_t i = 0; i < onsets.size(); ++i) {
    if (used[i]) continue;
    ++v.stray;
    const bool near = breakNear(marks, onsets[i], bends.empty() ? 256 : bends[0].period) >= 0;
    v.strayNearBreak += near ? 1 : 0;
    std::printf("onset at frame %llu: no bend there%s\n", static_cast<unsigned long long>(onsets[i]),
                near ? " (next to a break)" : "");
  }
  for (const int n : excusedBy) v.breaks += n > 0 ? 1 : 0;
  return v;
}

}  // namespace

int bendProbe(int argc, char** argv) {
  BendProbe p;
  const std::string target = option(argc, argv, "--target", "spindle");
  p.notes = std::clamp(std::stoi(option(argc, argv, "--notes", "60")), 1, kMaxBends);
  int first = 2, last = 16;
  if (std::sscanf(option(argc, argv, "--channels", "2-16").c_str(), "%d-%d", &first, &last) == 2 && first >= 1 &&
      last <= 16 && first <= last) {
    p.firstChannel = first - 1;
    p.channels = last - first + 1;
  }
  if (!openAndConnect(p, target)) {
    std::printf("probe: cannot open the JACK clients or connect them to %s\n", target.c_str());
    return 2;
  }
  const double floodSeconds = std::stod(option(argc, argv, "--flood", "0"));
  const double rate = jack_get_sample_rate(p.tx);
  p.floodInterval = static_cast<int>(rate / 1000.0);
  p.floodCycles = static_cast<int>(floodSeconds * rate / jack_get_buffer_size(p.tx));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  p.go.store(true, std::memory_order_release);
  const bool allSent = waitFor([&] { return p.sent.load() >= p.notes && (p.floodCycles == 0 || p.floodDone.load()); },
                               60.0 + floodSeconds);
  const int n = p.sent.load(std::memory_order_acquire);
  const uint64_t lastBend = n > 0 ? p.bends[static_cast<std::size_t>(n - 1)].frame : 0;
  waitFor([&] { return p.rxFrame.load() > lastBend + 4ULL * jack_get_buffer_size(p.rx); }, 10.0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the flood's last cycle reaches Spindle
  jack_deactivate(p.tx);
  jack_deactivate(p.rx);
  const std::vector<Bend> bends(p.bends.begin(), p.bends.begin() + n);
  std::vector<uint64_t> onsets = p.in.onsets.taken();  // the flood's notes are not judged
  std::erase_if(onsets, [&](uint64_t f) { return f >= p.floodStart.load(); });
  const BendVerdict v = judge(bends, onsets, p.xruns.taken());
  jack_client_close(p.tx);
  jack_client_close(p.rx);
  std::printf("probe: %d bends sent, %d exact, %d excused by %d breaks (%d over their bound), %d missed, %d stray onsets\n",
              n, v.exact, v.excused, v.breaks, v.overBound, v.missed, v.stray);
  if (p.floodCycles > 0)
    std::printf("probe: flood of %d cycles on channels %d-%d: bend, pressure and CC74 every %d frames on each\n",
                p.floodCycles, p.firstChannel + 1, p.firstChannel + p.channels, p.floodInterval);
  std::printf("probe: %ld MIDI messages sent\n", p.messages.load());
  return allSent ? v.exitCode(n) : 1;
}

}  // namespace spindle::live
