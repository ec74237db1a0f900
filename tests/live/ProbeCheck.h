#pragma once
// ProbeCheck: what the live probe heard against what Spindle's note log says, note by
// note. Plain data in, a verdict out: no JACK here (the probe's clients fill a
// ProbeRecord; tests could feed one by hand).
//
// A note is identified by (channel, key, velocity): the probe gives every note its own
// triple, so a lost or displaced note never shifts the match of the ones after it.
//
//   exact      Spindle logged it at the frame it was sent, 0 engine frames, the
//              measured latency; it sounds at that frame (on its part's port too)
//   excused    not exact, but the cycle it was sent or played in saw an xrun (a frame
//              gap at the probe or in Spindle, or an xrun callback): counted, passes
//   displaced  not exact with no xrun near it: fails
//   lost       never in the note log: fails, xrun or not. When every lost note was sent
//              in a cycle the server broke (the probe's own xrun marks) and nothing
//              else failed, the run is void rather than failed (voidRun()): the server
//              dropped the event before Spindle could see it; the test runs again.
#include <cstdint>
#include <string>
#include <vector>

namespace spindle::live {

struct SentNote {
  uint64_t frame = 0;       // event frame (server clock)
  uint64_t cycleStart = 0;  // first frame of the cycle it was sent in
  int channel = 0, key = 0, velocity = 0;
};

struct LoggedNote {
  uint64_t event = 0;
  long long engine = 0, total = 0;
  int channel = 0, key = 0, velocity = 0;
  bool afterXrun = false;
};

struct ProbeRecord {
  std::vector<SentNote> sent;
  std::vector<uint64_t> mainOnsets;               // onsets on Spindle's main output
  std::vector<std::vector<uint64_t>> partOnsets;  // [part]: onsets on out_<part+1>_L/R; empty: no --parts
  std::vector<uint64_t> xrunFrames;               // frames where the probe saw a gap or an xrun callback
  uint32_t period = 256;
  uint32_t latency = 64;
};

struct Verdict {
  int exact = 0, excused = 0, displaced = 0, lost = 0, duplicates = 0, leaks = 0;
  int lostNearXrun = 0;  // of `lost`: sent in a cycle where the probe saw an xrun
  bool passed() const noexcept { return displaced == 0 && lost == 0 && duplicates == 0 && leaks == 0; }
  bool voidRun() const noexcept {
    return lost > 0 && lost == lostNearXrun && displaced == 0 && duplicates == 0 && leaks == 0;
  }
};

// The note log's lines after the first `skip` (earlier runs against the same Spindle).
std::vector<LoggedNote> readNoteLog(const std::string& path, int skip);
// Compares, prints the first problems and a one-line summary to stdout.
Verdict check(const ProbeRecord& record, const std::vector<LoggedNote>& log);

}  // namespace spindle::live
