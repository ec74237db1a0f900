#pragma once
// ProbeCheck: what the live probe heard against what Spindle's note log says, note by
// note. Plain data in, a verdict out: no JACK here (the probe's clients fill a
// ProbeRecord; ProbeCheckTests.cpp feeds them by hand).
//
// A note is identified by (channel, key, velocity): the probe gives every note its own
// triple, so a lost or displaced note never shifts the match of the ones after it.
//
//   exact      Spindle logged it at the frame it was sent, 0 engine frames, the
//              measured latency; it sounds at that frame (on its part's port too)
//   excused    not exact, and the server broke a cycle next to it: Spindle logged it
//              after-xrun (its own clock skipped or repeated a cycle just before), or
//              the probe saw a break from one period before the note's cycle to three
//              after (a frame gap or repeat at an unchanged period, an xrun callback)
//   displaced  not exact with no break near it: fails
//   lost       never in the note log: fails, break or not. When every lost note had a
//              break near it and nothing else failed, the run is void (voidRun()): the
//              server dropped the event before Spindle could see it; the test runs again.
//
// The bound: a break explains only the notes in its window, and at most two of them
// plus one per two periods the break lasted (the probe sends one note every other
// cycle). A break that excuses more fails the run (overBound). A frame gap where the
// period changed is the server resizing its cycle (pipewire-jack skips the callback of
// the cycle a quantum change lands in): counted, never an excuse.
//
// A note logged twice fails, unless the second entry is exactly one period after the
// note: pipewire-jack (0.3.65) converts a port's last MIDI buffer once more in a cycle
// whose callback it skipped for a quantum change, so the probe's own library sent it
// again (counted as re-sent).
#include <cstdint>
#include <string>
#include <vector>

namespace spindle::live {

struct SentNote {
  uint64_t frame = 0;       // event frame (server clock)
  uint64_t cycleStart = 0;  // first frame of the cycle it was sent in
  uint32_t period = 256;    // frames of that cycle
  int channel = 0, key = 0, velocity = 0;
};

struct LoggedNote {
  uint64_t event = 0;
  long long engine = 0, total = 0;
  int channel = 0, key = 0, velocity = 0;
  bool afterXrun = false;
};

// Where a probe client saw the server's cycles break.
struct XrunMark {
  uint64_t frame = 0;
  uint32_t period = 256;  // the period then
  bool resize = false;    // a frame gap where the period changed: a quantum change, not a break
};

struct ProbeRecord {
  std::vector<SentNote> sent;
  std::vector<uint64_t> mainOnsets;               // onsets on Spindle's main output
  std::vector<std::vector<uint64_t>> partOnsets;  // [part]: onsets on out_<part+1>_L/R; empty: no --parts
  std::vector<XrunMark> xruns;                    // both clients' frame gaps (each end) and xrun callbacks
  uint32_t period = 256;
  uint32_t latency = 64;
  int lateCycles = 0;  // cycles the sender started over half a period late: it sent no note in them
};

struct Verdict {
  int exact = 0, excused = 0, displaced = 0, lost = 0, duplicates = 0, resent = 0, leaks = 0;
  int lostNearXrun = 0;  // of `lost`: a break near it
  int breaks = 0;        // breaks that excused a note (clusters of marks, or Spindle's after-xrun alone)
  int overBound = 0;     // breaks that excused more notes than they can explain
  bool passed() const noexcept {
    return displaced == 0 && lost == 0 && duplicates == 0 && leaks == 0 && overBound == 0;
  }
  bool voidRun() const noexcept {
    return lost > 0 && lost == lostNearXrun && displaced == 0 && duplicates == 0 && leaks == 0 && overBound == 0;
  }
};

// The note log's lines after the first `skip` (earlier runs against the same Spindle).
std::vector<LoggedNote> readNoteLog(const std::string& path, int skip);
// Compares, prints the first problems and a one-line summary to stdout.
Verdict check(const ProbeRecord& record, const std::vector<LoggedNote>& log);

}  // namespace spindle::live
