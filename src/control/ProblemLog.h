#pragma once
// ProblemLog: the problems Spindle meets while it runs, each naming its file, for
// everyone who reports them: the log (stderr), OSC (/spindle/problem pushed to
// subscribers, /spindle/problems on request, `problems` in /spindle/status) and the
// GUI's problems panel.
//
//   disk thread ─ takeErrors ─► session's tick / gui poll ─┐
//   loader thread: samples a load left out ────────────────┼─► add() ─► serial 1, 2, 3 ...
//   main/gui thread: the audio server went away ───────────┤
//                                                          │
//   main thread (log), control thread (OSC), gui thread ◄──┘  since(last serial seen)
//
// Each consumer keeps the serial it has seen last and asks for what is newer, so none
// of them takes a problem away from another. The newest kKept problems are kept; an
// older one is gone for a consumer that fell that far behind (total() still counts it).
//
// Threads: any thread except the audio thread: add() and since() take a mutex and
// allocate (the disk and loader threads are not real-time and may). total() is one
// atomic load.
#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace spindle::control {

enum class ProblemKind : uint8_t {
  Disk,  // a stream could not read its file while playing (EIO, deleted, truncated)
  Load,  // a load left a sample file out: over the memory budget, or unreadable
  Server,  // the audio server (JACK, PipeWire) went away; `file` is empty
};

// "disk", "load", "server": the kind as OSC sends it.
const char* wireName(ProblemKind kind) noexcept;

struct LoggedProblem {
  uint64_t serial = 0;  // 1 for the first problem, then one more each
  ProblemKind kind = ProblemKind::Disk;
  std::string file;     // the sample file it is about
  std::string message;  // one sentence naming the file, as the log prints it
};

class ProblemLog {
 public:
  static constexpr std::size_t kKept = 64;

  // Records a problem; returns its serial.
  uint64_t add(ProblemKind kind, std::string file, std::string message);
  // The kept problems with a serial above `seen`, oldest first (since(0): all kept).
  std::vector<LoggedProblem> since(uint64_t seen) const;
  // Problems recorded so far: the newest serial, 0 while there is none.
  uint64_t total() const noexcept { return total_.load(std::memory_order_acquire); }

 private:
  mutable std::mutex mutex_;  // guards kept_; never taken by the audio thread
  std::deque<LoggedProblem> kept_;  // the newest kKept, serials ascending
  std::atomic<uint64_t> total_{0};  // written under mutex_ after kept_; read without it
};

}  // namespace spindle::control
