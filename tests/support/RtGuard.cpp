// RtGuard: see RtGuard.h. Interposes allocation and lock functions to count the ones
// made inside an AudioThreadScope; compiled out under sanitizers.
#include "RtGuard.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>

#include <atomic>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SPINDLE_RT_GUARD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer) || __has_feature(realtime_sanitizer)
#define SPINDLE_RT_GUARD_SANITIZER 1
#endif
#if __has_feature(realtime_sanitizer)
#define SPINDLE_RT_GUARD_RTSAN 1
#endif
#endif
#if defined(SPINDLE_RT_GUARD_NO_INTERPOSE) && !defined(SPINDLE_RT_GUARD_SANITIZER)
#define SPINDLE_RT_GUARD_SANITIZER 1
#endif

#if defined(SPINDLE_RT_GUARD_RTSAN)
// RTSan's runtime entry points for a real-time context (what [[clang::nonblocking]]
// functions call on entry and exit); not declared in <sanitizer/rtsan_interface.h>.
extern "C" void __rtsan_realtime_enter();
extern "C" void __rtsan_realtime_exit();
#endif

namespace spindle::test {
namespace {

// Process-wide counters; constant-initialised, lock-free, safe to touch from malloc.
std::atomic<uint64_t> gAllocs{0}, gFrees{0}, gLocks{0};
// Nesting depth of AudioThreadScope on this thread. Trivial type, constant-initialised,
// initial-exec TLS: reading it never allocates or calls into the dynamic loader.
__attribute__((tls_model("initial-exec"))) thread_local int tScopeDepth = 0;

}  // namespace

AudioThreadScope::AudioThreadScope() noexcept {
  ++tScopeDepth;
#if defined(SPINDLE_RT_GUARD_RTSAN)
  __rtsan_realtime_enter();
#endif
}

AudioThreadScope::~AudioThreadScope() {
#if defined(SPINDLE_RT_GUARD_RTSAN)
  __rtsan_realtime_exit();
#endif
  --tScopeDepth;
}

RtCounts rtCounts() noexcept {
  return {gAllocs.load(std::memory_order_relaxed), gFrees.load(std::memory_order_relaxed),
          gLocks.load(std::memory_order_relaxed)};
}

void resetRtCounts() noexcept {
  gAllocs.store(0, std::memory_order_relaxed);
  gFrees.store(0, std::memory_order_relaxed);
  gLocks.store(0, std::memory_order_relaxed);
}

#if defined(SPINDLE_RT_GUARD_SANITIZER)
bool rtGuardCounting() noexcept { return false; }
const char* rtGuardMode() noexcept {
#if defined(SPINDLE_RT_GUARD_RTSAN)
  return "RtGuard: sanitizer build, counting off; RealtimeSanitizer checks AudioThreadScope instead";
#else
  return "RtGuard: sanitizer build, allocation/lock interposition off (the sanitizer intercepts the same functions)";
#endif
}
#else
bool rtGuardCounting() noexcept { return true; }
const char* rtGuardMode() noexcept { return "RtGuard: counting allocations and locks by interposition"; }

namespace detail {
inline void countAlloc() noexcept {
  if (tScopeDepth > 0) gAllocs.fetch_add(1, std::memory_order_relaxed);
}
inline void countFree(const void* p) noexcept {
  if (p && tScopeDepth > 0) gFrees.fetch_add(1, std::memory_order_relaxed);
}
inline void countLock() noexcept {
  if (tScopeDepth > 0) gLocks.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace detail
#endif

}  // namespace spindle::test


#if !defined(SPINDLE_RT_GUARD_SANITIZER)
// ------------------------------------------------------------------------------------
// Allocation: glibc's own entry points, so nothing here recurses into itself.

extern "C" {
void* __libc_malloc(size_t size);
void* __libc_calloc(size_t count, size_t size);
void* __libc_realloc(void* p, size_t size);
void* __libc_memalign(size_t alignment, size_t size);
void __libc_free(void* p);
}

namespace {
using spindle::test::detail::countAlloc;
using spindle::test::detail::countFree;
using spindle::test::detail::countLock;

bool validAlignment(size_t alignment) noexcept {
  return alignment >= sizeof(void*) && (alignment & (alignment - 1)) == 0;
}

void* newOrThrow(size_t size) {
  countAlloc();
  if (size == 0) size = 1;
  for (;;) {
    if (void* p = __libc_malloc(size)) return p;
    std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}

void* alignedNewOrThrow(size_t size, std::align_val_t alignment) {
  countAlloc();
  const auto align = static_cast<size_t>(alignment);
  if (size == 0) size = 1;
  for (;;) {
    if (void* p = __libc_memalign(align, size)) return p;
    std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}

void deleteCounted(void* p) noexcept {
  countFree(p);
  __libc_free(p);
}
}  // namespace

extern "C" {

void* malloc(size_t size) noexcept {
  countAlloc();
  return __libc_malloc(size);
}
void* calloc(size_t count, size_t size) noexcept {
  countAlloc();
  return __libc_calloc(count, size);
}
void* realloc(void* p, size_t size) noexcept {
  countAlloc();
  return __libc_realloc(p, size);
}
void free(void* p) noexcept { deleteCounted(p); }
void* memalign(size_t alignment, size_t size) noexcept {
  countAlloc();
  return __libc_memalign(alignment, size);
}
void* aligned_alloc(size_t alignment, size_t size) noexcept {
  countAlloc();
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, size_t alignment, size_t size) noexcept {
  countAlloc();
  if (!validAlignment(alignment)) return EINVAL;
  void* p = __libc_memalign(alignment, size);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}

}  // extern "C"

void* operator new(size_t size) { return newOrThrow(size); }
void* operator new[](size_t size) { return newOrThrow(size); }
void* operator new(size_t size, std::align_val_t a) { return alignedNewOrThrow(size, a); }
void* operator new[](size_t size, std::align_val_t a) { return alignedNewOrThrow(size, a); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  try { return newOrThrow(size); } catch (...) { return nullptr; }
}
void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  try { return newOrThrow(size); } catch (...) { return nullptr; }
}
void* operator new(size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  try { return alignedNewOrThrow(size, a); } catch (...) { return nullptr; }
}
void* operator new[](size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  try { return alignedNewOrThrow(size, a); } catch (...) { return nullptr; }
}
void operator delete(void* p) noexcept { deleteCounted(p); }
void operator delete[](void* p) noexcept { deleteCounted(p); }
void operator delete(void* p, size_t) noexcept { deleteCounted(p); }
void operator delete[](void* p, size_t) noexcept { deleteCounted(p); }
void operator delete(void* p, std::align_val_t) noexcept { deleteCounted(p); }
void operator delete[](void* p, std::align_val_t) noexcept { deleteCounted(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { deleteCounted(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { deleteCounted(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { deleteCounted(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { deleteCounted(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { deleteCounted(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { deleteCounted(p); }

// ------------------------------------------------------------------------------------
// Locks and waits: count, then forward to the next definition (libc's).

namespace {
// The next definition of `name`, looked up once. A constant-initialised atomic (no
// guard variable, whose implementation may itself lock); a race between two first
// calls only makes both look up the same address.
template <typename Fn>
Fn nextDefinition(std::atomic<void*>& cache, const char* name) noexcept {
  void* p = cache.load(std::memory_order_relaxed);
  if (!p) {
    p = dlsym(RTLD_NEXT, name);
    if (!p) std::abort();
    cache.store(p, std::memory_order_relaxed);
  }
  return reinterpret_cast<Fn>(p);
}
}  // namespace

// Defines `name` with the given parameters: counts the call, then forwards it.
#define SPINDLE_RT_GUARD_LOCK(name, except, params, args)                        \
  namespace {                                                                    \
  std::atomic<void*> next_##name{nullptr};                                       \
  }                                                                              \
  extern "C" int name params except {                                            \
    countLock();                                                                 \
    using Fn = int(*) params;                                                    \
    return nextDefinition<Fn>(next_##name, #name) args;                          \
  }

SPINDLE_RT_GUARD_LOCK(pthread_mutex_lock, noexcept, (pthread_mutex_t* m), (m))
SPINDLE_RT_GUARD_LOCK(pthread_mutex_trylock, noexcept, (pthread_mutex_t* m), (m))
SPINDLE_RT_GUARD_LOCK(pthread_mutex_timedlock, noexcept,
                      (pthread_mutex_t* __restrict m, const struct timespec* __restrict t), (m, t))
SPINDLE_RT_GUARD_LOCK(pthread_mutex_clocklock, noexcept,
                      (pthread_mutex_t* __restrict m, clockid_t c, const struct timespec* __restrict t),
                      (m, c, t))
SPINDLE_RT_GUARD_LOCK(pthread_rwlock_rdlock, noexcept, (pthread_rwlock_t* l), (l))
SPINDLE_RT_GUARD_LOCK(pthread_rwlock_wrlock, noexcept, (pthread_rwlock_t* l), (l))
SPINDLE_RT_GUARD_LOCK(pthread_rwlock_tryrdlock, noexcept, (pthread_rwlock_t* l), (l))
SPINDLE_RT_GUARD_LOCK(pthread_rwlock_trywrlock, noexcept, (pthread_rwlock_t* l), (l))
SPINDLE_RT_GUARD_LOCK(pthread_rwlock_timedrdlock, noexcept,
                      (pthread_rwlock_t* __restrict l, const struct timespec* __restrict t), (l, t))
SPINDLE_RT_GUARD_LOCK(pthread_rwlock_timedwrlock, noexcept,
                      (pthread_rwlock_t* __restrict l, const struct timespec* __restrict t), (l, t))
SPINDLE_RT_GUARD_LOCK(pthread_spin_lock, noexcept, (pthread_spinlock_t* l), (l))
SPINDLE_RT_GUARD_LOCK(pthread_spin_trylock, noexcept, (pthread_spinlock_t* l), (l))
SPINDLE_RT_GUARD_LOCK(pthread_cond_wait, ,
                      (pthread_cond_t* __restrict c, pthread_mutex_t* __restrict m), (c, m))
SPINDLE_RT_GUARD_LOCK(pthread_cond_timedwait, ,
                      (pthread_cond_t* __restrict c, pthread_mutex_t* __restrict m,
                       const struct timespec* __restrict t),
                      (c, m, t))
SPINDLE_RT_GUARD_LOCK(pthread_cond_clockwait, ,
                      (pthread_cond_t* __restrict c, pthread_mutex_t* __restrict m, clockid_t k,
                       const struct timespec* __restrict t),
                      (c, m, k, t))
SPINDLE_RT_GUARD_LOCK(sem_wait, , (sem_t* s), (s))
SPINDLE_RT_GUARD_LOCK(sem_trywait, noexcept, (sem_t* s), (s))
SPINDLE_RT_GUARD_LOCK(sem_timedwait, , (sem_t* __restrict s, const struct timespec* __restrict t), (s, t))
SPINDLE_RT_GUARD_LOCK(sem_clockwait, , (sem_t* __restrict s, clockid_t c, const struct timespec* __restrict t),
                      (s, c, t))

#undef SPINDLE_RT_GUARD_LOCK
#endif  // !SPINDLE_RT_GUARD_SANITIZER
