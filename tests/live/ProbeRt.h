#pragma once
// What the probe's real-time callbacks share (LiveProbe.cpp, ProbeBend.cpp): lists they
// fill without allocating, the watch on a client's cycle clock, and the late-cycle test.
#include <jack/jack.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "ProbeCheck.h"

namespace spindle::live {

inline constexpr int kMaxOnsets = 8192;
inline constexpr int kExitVoid = 4;  // ProbeCheck.h: notes lost only in cycles the server broke

// Items written by real-time threads into preallocated slots; read once they stopped.
template <class T>
struct RtList {
  std::vector<T> items = std::vector<T>(kMaxOnsets);
  std::atomic<int> count{0};
  void add(const T& item) noexcept {
    const int i = count.fetch_add(1, std::memory_order_relaxed);
    if (i < kMaxOnsets) items[static_cast<std::size_t>(i)] = item;
  }
  std::vector<T> taken() const { return {items.begin(), items.begin() + std::min(count.load(), kMaxOnsets)}; }
};
using FrameList = RtList<uint64_t>;
using MarkList = RtList<XrunMark>;

struct Track {  // one rx input: its onsets (the impulse is one frame)
  jack_port_t* port = nullptr;
  FrameList onsets;
  bool previousNonZero = false;
  void record(const float* in, jack_nframes_t frames, uint64_t start) noexcept {
    for (jack_nframes_t i = 0; i < frames; ++i) {
      const bool sounding = in[i] > 1e-3f || in[i] < -1e-3f;
      if (sounding && !previousNonZero) onsets.add(start + i);
      previousNonZero = sounding;
    }
  }
};

// A client's cycle clock: each start should be the previous start + frames. A gap where
// the period changed is the server resizing its cycle (pipewire-jack skips the callback
// of the cycle a quantum change lands in), marked as such.
struct CycleWatch {
  uint64_t expected = 0;
  jack_nframes_t lastFrames = 0;
  bool started = false;
  void cycle(uint64_t start, jack_nframes_t frames, MarkList& xruns) noexcept {
    if (started && start != expected) {
      const bool resize = frames != lastFrames;
      xruns.add(XrunMark{expected, frames, resize});
      xruns.add(XrunMark{start, frames, resize});
    }
    expected = start + frames;
    lastFrames = frames;
    started = true;
  }
};

// Whether this cycle started over half a period late: one the server runs to catch up
// after the machine held its real-time threads back. PipeWire's timer driver then runs
// the cycles it owes back to back and resets every node not finished when the next one
// starts; a node reset there never reads that cycle's MIDI (a link holds one buffer), so
// a note sent in it may be lost before Spindle runs. The probe sends no note there.
inline bool lateCycle(jack_client_t* client) noexcept {
  jack_nframes_t frame = 0;
  jack_time_t start = 0, next = 0;
  float periodUsecs = 0.0f;
  if (jack_get_cycle_times(client, &frame, &start, &next, &periodUsecs) != 0) return false;
  return jack_get_time() > start + static_cast<jack_time_t>(periodUsecs / 2.0f);
}

}  // namespace spindle::live
