#pragma once
// BackgroundJob<T>: runs one long, blocking measurement or scan (the doctor's checks,
// the wakeup and JACK tests) on a worker thread of its own, so the gui thread never
// waits for it. The gui thread polls: running(), then take() once it has finished.
//
// Threads: start(), running() and take() on the gui thread only; the work on the
// worker. The worker shares only `State` (a shared_ptr), so a job destroyed while its
// work still runs detaches the worker, which finishes into a State nobody reads.
// Never used from the audio thread (the mutex guards the gui/worker hand-off only).
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

namespace spindle::gui {

template <typename T>
class BackgroundJob {
 public:
  BackgroundJob() = default;
  BackgroundJob(const BackgroundJob&) = delete;
  BackgroundJob& operator=(const BackgroundJob&) = delete;
  ~BackgroundJob() { release(); }

  // False (and nothing started) while the previous job still runs.
  bool start(std::function<T()> work);
  bool running() const { return state_ && !state_->done.load(std::memory_order_acquire); }
  // The result once the work finished; empty before, and after it was taken.
  std::optional<T> take();

 private:
  struct State {
    std::mutex mutex;
    std::optional<T> result;
    std::atomic<bool> done{false};
  };
  void release();

  std::shared_ptr<State> state_;
  std::thread worker_;
};

// ---- implementation ---------------------------------------------------------

template <typename T>
bool BackgroundJob<T>::start(std::function<T()> work) {
  if (running()) return false;
  release();
  state_ = std::make_shared<State>();
  worker_ = std::thread([state = state_, work = std::move(work)] {
    T value = work();
    {
      const std::lock_guard<std::mutex> lock(state->mutex);
      state->result = std::move(value);
    }
    state->done.store(true, std::memory_order_release);
  });
  return true;
}

template <typename T>
std::optional<T> BackgroundJob<T>::take() {
  if (!state_ || !state_->done.load(std::memory_order_acquire)) return std::nullopt;
  const std::lock_guard<std::mutex> lock(state_->mutex);
  return std::exchange(state_->result, std::nullopt);
}

// A finished worker is joined; one still running is detached (it owns its State).
template <typename T>
void BackgroundJob<T>::release() {
  if (!worker_.joinable()) return;
  if (running()) worker_.detach();
  else worker_.join();
}

}  // namespace spindle::gui
