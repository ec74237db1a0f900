#include "io/RealtimeSetup.h"

#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

namespace spindle::io {

namespace {

std::string limitText(int resource) {
  rlimit limit{};
  if (getrlimit(resource, &limit) != 0) return "unknown";
  if (limit.rlim_cur == RLIM_INFINITY) return "unlimited";
  return std::to_string(limit.rlim_cur);
}

}  // namespace

std::string realtimeLimitsAdvice() {
  return "to fix: add your user to the audio group (usermod -aG audio $USER), give that group "
         "real-time limits in /etc/security/limits.d/audio.conf:\n"
         "    @audio - rtprio 95\n"
         "    @audio - memlock unlimited\n"
         "then log out and in again (current limits: rtprio " +
         limitText(RLIMIT_RTPRIO) + ", memlock " + limitText(RLIMIT_MEMLOCK) + ")";
}

namespace {

// Populates and locks every executable mapping (Spindle's code and its libraries'),
// which MCL_ONFAULT alone would lock only as each page is first run.
void lockCode() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    unsigned long first = 0, last = 0;
    char perms[5] = {};
    if (std::sscanf(line.c_str(), "%lx-%lx %4s", &first, &last, perms) != 3 || perms[2] != 'x') continue;
    ::mlock(reinterpret_cast<void*>(first), last - first);  // best effort: the limit was met already
  }
}

}  // namespace

RealtimeReport lockMemory() {
  RealtimeReport report;
  if (mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT) == 0) {
    lockCode();
    report.memoryLocked = true;
    return report;
  }
  report.warning = std::string("warning: cannot lock memory (mlockall: ") + std::strerror(errno) +
                   "): page faults may cause dropouts; " + realtimeLimitsAdvice();
  return report;
}

std::string setThreadPriority(pthread_t thread, int priority, const char* threadName) {
  sched_param param{};
  param.sched_priority = priority;
  const int error = pthread_setschedparam(thread, SCHED_FIFO, &param);
  if (error == 0) return {};
  return std::string("warning: cannot run the ") + threadName + " thread at SCHED_FIFO priority " +
         std::to_string(priority) + " (" + std::strerror(error) + "): its timing will suffer under load; " +
         realtimeLimitsAdvice();
}

int kernelThreadPriority(pid_t tid) {
  if (tid <= 0) return 0;
  // module-rt and RTKit set SCHED_RESET_ON_FORK along with the policy.
  const int policy = sched_getscheduler(tid) & ~SCHED_RESET_ON_FORK;
  sched_param param{};
  if ((policy != SCHED_FIFO && policy != SCHED_RR) || sched_getparam(tid, &param) != 0) return 0;
  return param.sched_priority;
}

int threadPriority(pthread_t thread) {
  int policy = 0;
  sched_param param{};
  if (pthread_getschedparam(thread, &policy, &param) != 0) return 0;
  return policy == SCHED_FIFO || policy == SCHED_RR ? param.sched_priority : 0;
}

// 256 KiB: far deeper than a cycle goes (the engine keeps its buffers on the heap).
void prefaultStack() noexcept SPINDLE_REALTIME {
  constexpr std::size_t kBytes = 256 * 1024;
  char pages[kBytes];
  for (std::size_t i = 0; i < kBytes; i += 4096) static_cast<volatile char*>(pages)[i] = 0;
}

}  // namespace spindle::io
