#pragma once
// RtGuard: counts what the audio thread must never do, for tests.
//
// Link spindle_rt_guard into a test executable and every heap allocation (operator
// new, malloc, calloc, realloc, aligned allocations), every free and every lock or
// wait call (pthread mutex, rwlock, spinlock, condition variable and semaphore waits)
// made by a thread while it is inside an AudioThreadScope is counted:
//
//   resetRtCounts();
//   { AudioThreadScope audio; engine.process(...); }
//   REQUIRE(rtCounts().allocs == 0);
//
// Calls made outside a scope, or by other threads that are not inside a scope of
// their own, are not counted. The counters are process-wide (relaxed atomics), so a
// test may read them after a scope on another thread has closed, once it has
// synchronised with that thread (join).
//
// How: the library defines malloc & co. (forwarding to glibc's __libc_* functions),
// the global operator new/delete, and the pthread/semaphore lock functions
// (forwarding through dlsym(RTLD_NEXT)). Definitions in the executable take
// precedence over libc's, so calls from libstdc++ and from libc's callers are seen.
// Calls made inside libc itself are not.
//
// Sanitizer builds: ASan, TSan, MSan and RTSan intercept these same functions, so
// the interposition is compiled out and rtGuardCounting() is false (tests that need
// the counts skip with rtGuardMode() as the reason). Under RealtimeSanitizer an
// AudioThreadScope instead puts the thread in RTSan's real-time context, so RTSan
// itself aborts with a report on any allocation or lock inside the scope.
#include <cstdint>

namespace spindle::test {

struct RtCounts {
  uint64_t allocs = 0;  // malloc, calloc, realloc, aligned allocs, operator new
  uint64_t frees = 0;   // free and operator delete of a non-null pointer
  uint64_t locks = 0;   // mutex/rwlock/spin locks (try-locks too), cond and sem waits
};

// Marks the current thread as the audio thread for its lifetime. Nests.
struct AudioThreadScope {
  AudioThreadScope() noexcept;
  ~AudioThreadScope();
  AudioThreadScope(const AudioThreadScope&) = delete;
  AudioThreadScope& operator=(const AudioThreadScope&) = delete;
};

RtCounts rtCounts() noexcept;
void resetRtCounts() noexcept;

// True when allocations and locks are counted (not a sanitizer build).
bool rtGuardCounting() noexcept;
// One line saying how this build checks the audio thread, for test messages.
const char* rtGuardMode() noexcept;

}  // namespace spindle::test
