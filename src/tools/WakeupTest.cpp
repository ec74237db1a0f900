#include "tools/WakeupTest.h"

#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <time.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace spindle::tools {
namespace {

constexpr int64_t kNsPerSecond = 1000000000;

int64_t toNs(const timespec& t) { return t.tv_sec * kNsPerSecond + t.tv_nsec; }

timespec fromNs(int64_t ns) {
  timespec t{};
  t.tv_sec = static_cast<time_t>(ns / kNsPerSecond);
  t.tv_nsec = static_cast<long>(ns % kNsPerSecond);
  return t;
}

int64_t nowNs() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return toNs(t);
}

void becomeRealtime(int priority, WakeupResult& result) {
  sched_param param{};
  param.sched_priority = priority;
  const int error = pthread_setschedparam(pthread_self(), SCHED_FIFO, &param);
  result.realtime = error == 0;
  if (error != 0) {
    if (!result.note.empty()) result.note += "; ";
    result.note += "SCHED_FIFO " + std::to_string(priority) + " not permitted (" + std::strerror(error) +
                  "): measured as SCHED_OTHER, expect far worse numbers; see spindle-doctor limits.rtprio";
  }
}

// The measuring loop: sleep to each absolute deadline, record how late the wakeup was.
// Allocation-free; a wakeup later than a whole interval skips the deadlines it missed.
void measure(const WakeupOptions& options, WakeupResult& result) {
  const int64_t interval = static_cast<int64_t>(options.intervalUs) * 1000;
  const int64_t start = nowNs();
  const int64_t end = start + static_cast<int64_t>(options.seconds * 1e9);
  int64_t deadline = start + interval;
  while (deadline < end) {
    const timespec when = fromNs(deadline);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &when, nullptr) == EINTR) {
    }
    const int64_t woke = nowNs();
    const int64_t lateNs = woke > deadline ? woke - deadline : 0;
    result.lateness.add(static_cast<uint64_t>(lateNs / 1000));
    deadline += interval;
    while (deadline <= woke) {
      deadline += interval;
      ++result.missedDeadlines;
    }
  }
}

}  // namespace

WakeupResult runWakeupTest(const WakeupOptions& options) {
  WakeupResult result;
  std::thread thread([&] {
    // MCL_CURRENT only: with MCL_FUTURE a small memlock limit would make later allocations
    // (other threads, stress buffers) fail. The histogram is allocated and so locked here.
    result.memoryLocked = mlockall(MCL_CURRENT) == 0;
    if (!result.memoryLocked) {
      result.note = std::string("mlockall failed (") + std::strerror(errno) + "): page faults may add latency";
    }
    becomeRealtime(options.priority, result);
    measure(options, result);
  });
  thread.join();
  if (result.memoryLocked) munlockall();
  return result;
}

}  // namespace spindle::tools
