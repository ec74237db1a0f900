#pragma once
// Semaphore: a POSIX counting semaphore, the only way the audio thread wakes a
// helper thread (the disk thread). post() is the one system call the audio thread is
// allowed to make (docs/ARCHITECTURE.md): sem_post never blocks and never allocates; on Linux
// it is a single atomic increment plus a futex wake only when a thread sleeps on it.
//
// Threads: post() from any thread, the audio thread included; wait() and tryWait()
// from helper threads only (wait() blocks).
#include <semaphore.h>

#include <cerrno>

#include "core/Realtime.h"

namespace spindle::rt {

class Semaphore {
 public:
  Semaphore() noexcept { sem_init(&sem_, 0, 0); }
  ~Semaphore() { sem_destroy(&sem_); }
  Semaphore(const Semaphore&) = delete;
  Semaphore& operator=(const Semaphore&) = delete;

  // Any thread. A count already at SEM_VALUE_MAX stays there (EOVERFLOW): the
  // sleeper is awake or will be, so losing the extra count is harmless.
  void post() noexcept SPINDLE_REALTIME;
  // Helper threads only: sleeps until the count is positive, then decrements it.
  void wait() noexcept {
    while (sem_wait(&sem_) != 0 && errno == EINTR) {
    }
  }
  // Helper threads only: decrements the count if positive; never sleeps.
  bool tryWait() noexcept { return sem_trywait(&sem_) == 0; }

 private:
  sem_t sem_;
};

// sem_post is declared by libc without Clang's `nonblocking` effect, so calling it
// from a SPINDLE_REALTIME function would trip -Wfunction-effects. It is the one call
// the design allows on the audio thread (see above), so the check is waived here and
// only here.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
inline void Semaphore::post() noexcept SPINDLE_REALTIME { sem_post(&sem_); }
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

}  // namespace spindle::rt
