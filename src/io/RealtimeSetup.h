#pragma once
// Real-time setup of the process and its threads, with the fix spelled out when
// something is not allowed:
//   - lockMemory(): every page Spindle touches stays in RAM, so no page fault stalls the
//     audio thread once it runs (needs RLIMIT_MEMLOCK or CAP_IPC_LOCK). mlockall with
//     MCL_ONFAULT locks pages as they are first touched, not every page mapped: a JACK
//     server's shared memory (100 MB on a default jackd), a library's unused data (ICU's
//     30 MB behind libarchive), 8 MiB thread stacks and the block cache's unused budget
//     cost no RAM. What the audio thread reads is touched before it runs (the engine's
//     buffers at construction, samples by the loader, blocks by the disk thread), code
//     is locked in up front (every executable mapping), and prefaultStack() touches the
//     audio thread's stack in its first cycle;
//   - setThreadPriority(): SCHED_FIFO at a priority (needs RLIMIT_RTPRIO or
//     CAP_SYS_NICE); midi thread = audio thread - 1, disk thread well below (docs/ARCHITECTURE.md);
//   - flushDenormals(): FTZ/DAZ on the calling thread (the audio thread, every cycle:
//     a register write, and the backend may hand the callback to a new thread).
//
// Threads: main thread for lockMemory/limits; any thread for its own priority.
#include <pthread.h>
#include <sys/types.h>

#include <string>

#include "core/Realtime.h"

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#endif

namespace spindle::io {

struct RealtimeReport {
  bool memoryLocked = false;
  std::string warning;  // empty when all is well; otherwise what failed and how to fix it
};

RealtimeReport lockMemory();
// Audio thread, once (its first cycle, before any note): touches the stack pages a
// cycle may use below the caller's frame, so they are locked before they are needed.
void prefaultStack() noexcept SPINDLE_REALTIME;
// SCHED_FIFO at `priority` for `thread`; returns a warning with the fix, or "".
std::string setThreadPriority(pthread_t thread, int priority, const char* threadName);
// The SCHED_FIFO/RR priority of `thread`, or 0 when it is not real-time, as glibc
// remembers it: right for threads whose policy was set through pthread_setschedparam,
// stale for a thread another library raised by its kernel id (PipeWire's module-rt
// raises pw-jack's data thread with sched_setscheduler(tid): glibc still says
// SCHED_OTHER). For those, ask the kernel: kernelThreadPriority().
int threadPriority(pthread_t thread);
// The SCHED_FIFO/RR priority of the thread with kernel id `tid` (gettid()), from the
// kernel; 0 when it is not real-time or gone.
int kernelThreadPriority(pid_t tid);
// The fix for missing rtprio/memlock limits, as printed in warnings.
std::string realtimeLimitsAdvice();

inline void flushDenormals() noexcept SPINDLE_REALTIME {
#if defined(__SSE__) || defined(__x86_64__)
  _mm_setcsr(_mm_getcsr() | 0x8040U);  // FTZ (bit 15) | DAZ (bit 6)
#elif defined(__aarch64__)
  uint64_t fpcr = 0;
  asm volatile("mrs %0, fpcr" : "=r"(fpcr));
  asm volatile("msr fpcr, %0" : : "r"(fpcr | (1ULL << 24)));  // FZ
#endif
}

}  // namespace spindle::io
