// RtGuard counts allocations and locks made inside an AudioThreadScope, and only those.
#include "RtGuard.h"

#include <pthread.h>
#include <semaphore.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <shared_mutex>
#include <thread>

#include "Skip.h"
#include "catch.h"

namespace rt_guard_tests {

using spindle::test::AudioThreadScope;
using spindle::test::RtCounts;
using spindle::test::rtCounts;

// Sanitizer builds do not count (see RtGuard.h): a counted skip (Skip.h).
#define SKIP_UNLESS_COUNTING() \
  if (!spindle::test::rtGuardCounting()) SPINDLE_SKIP_CASE(spindle::test::rtGuardMode())

namespace {
// Volatile sinks keep the compiler from eliding new/delete and malloc/free pairs.
int* volatile gIntSink = nullptr;
void* volatile gRawSink = nullptr;

void allocateAndFree() {
  gIntSink = new int(1);
  delete gIntSink;
}
}  // namespace

TEST_CASE("RtGuard: new, delete and a mutex lock inside a scope are counted", "[rt][guard]") {
  SKIP_UNLESS_COUNTING();
  std::mutex mutex;
  spindle::test::resetRtCounts();
  {
    AudioThreadScope audio;
    allocateAndFree();
    mutex.lock();
    mutex.unlock();
  }
  const RtCounts counts = rtCounts();
  CHECK(counts.allocs == 1);
  CHECK(counts.frees == 1);
  CHECK(counts.locks == 1);
}

TEST_CASE("RtGuard: malloc family, arrays, aligned new", "[rt][guard]") {
  SKIP_UNLESS_COUNTING();
  spindle::test::resetRtCounts();
  {
    AudioThreadScope audio;
    gRawSink = std::malloc(16);
    gRawSink = std::realloc(gRawSink, 64);
    std::free(gRawSink);
    gRawSink = std::calloc(4, 4);
    std::free(gRawSink);
    gRawSink = std::aligned_alloc(64, 64);
    std::free(gRawSink);
    gRawSink = new double[8];
    delete[] static_cast<double*>(gRawSink);
    struct alignas(128) Wide { float x[32]; };
    gRawSink = new Wide;
    delete static_cast<Wide*>(gRawSink);
    std::free(nullptr);  // not a deallocation
  }
  const RtCounts counts = rtCounts();
  CHECK(counts.allocs == 6);
  CHECK(counts.frees == 5);
  CHECK(counts.locks == 0);
}

TEST_CASE("RtGuard: every kind of lock and wait is counted", "[rt][guard]") {
  SKIP_UNLESS_COUNTING();
  std::timed_mutex timed;
  std::shared_mutex shared;
  pthread_spinlock_t spin;
  pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
  sem_t sem;
  sem_init(&sem, 0, 2);
  std::mutex mutex;
  std::condition_variable cv;
  spindle::test::resetRtCounts();
  {
    AudioThreadScope audio;
    if (timed.try_lock()) timed.unlock();                                    // 1
    if (timed.try_lock_for(std::chrono::milliseconds(1))) timed.unlock();    // 2
    shared.lock_shared();                                                    // 3
    shared.unlock_shared();
    shared.lock();                                                           // 4
    shared.unlock();
    pthread_spin_lock(&spin);                                                // 5
    pthread_spin_unlock(&spin);
    sem_wait(&sem);                                                          // 6
    (void)sem_trywait(&sem);                                                 // 7
    sem_post(&sem);  // posting is allowed on the audio thread: not counted
    std::unique_lock<std::mutex> lock(mutex);                                // 8
    cv.wait_for(lock, std::chrono::microseconds(1));                         // 9 (+ relock inside libc)
  }
  const RtCounts counts = rtCounts();
  CHECK(counts.locks >= 9);
  CHECK(counts.allocs == 0);
  pthread_spin_destroy(&spin);
  sem_destroy(&sem);
}

TEST_CASE("RtGuard: nothing is counted outside a scope", "[rt][guard]") {
  SKIP_UNLESS_COUNTING();
  std::mutex mutex;
  spindle::test::resetRtCounts();
  allocateAndFree();
  mutex.lock();
  mutex.unlock();
  { AudioThreadScope audio; }
  allocateAndFree();
  const RtCounts counts = rtCounts();
  CHECK(counts.allocs == 0);
  CHECK(counts.frees == 0);
  CHECK(counts.locks == 0);
}

TEST_CASE("RtGuard: another thread's calls are not counted, its own scope's are", "[rt][guard]") {
  SKIP_UNLESS_COUNTING();
  std::atomic<int> step{0};
  std::mutex mutex;
  // The worker waits on plain atomics: no lock while the main thread is in its scope.
  std::thread worker([&] {
    while (step.load() != 1) std::this_thread::yield();
    allocateAndFree();  // the main thread is in a scope, this thread is not
    mutex.lock();
    mutex.unlock();
    step.store(2);
    while (step.load() != 3) std::this_thread::yield();
    {
      AudioThreadScope audio;  // now this thread is an audio thread too
      allocateAndFree();
    }
    step.store(4);
  });
  spindle::test::resetRtCounts();
  RtCounts duringScope;
  {
    AudioThreadScope audio;
    step.store(1);
    while (step.load() != 2) std::this_thread::yield();
    duringScope = rtCounts();
  }
  step.store(3);
  while (step.load() != 4) std::this_thread::yield();
  worker.join();
  const RtCounts after = rtCounts();
  CHECK(duringScope.allocs == 0);
  CHECK(duringScope.frees == 0);
  CHECK(duringScope.locks == 0);
  CHECK(after.allocs == 1);
  CHECK(after.frees == 1);
}

TEST_CASE("RtGuard: scopes nest", "[rt][guard]") {
  SKIP_UNLESS_COUNTING();
  spindle::test::resetRtCounts();
  {
    AudioThreadScope outer;
    {
      AudioThreadScope inner;
      allocateAndFree();
    }
    allocateAndFree();  // still inside the outer scope
  }
  allocateAndFree();
  CHECK(rtCounts().allocs == 2);
}

}  // namespace rt_guard_tests
