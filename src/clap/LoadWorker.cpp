#include "clap/LoadWorker.h"

#include <pthread.h>

#include <utility>

namespace spindle::clap {

LoadWorker::LoadWorker(std::function<void(plugin::Core& core, bool loaded)> done) : done_(std::move(done)) {
  thread_ = std::thread([this] { run(); });
  pthread_setname_np(thread_.native_handle(), "loader");
}

LoadWorker::~LoadWorker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void LoadWorker::submit(plugin::Core& core, const std::string& path, float levelDb) {
  {
    std::lock_guard lock(mutex_);
    pending_ = Job{&core, path, levelDb, submitted_.load(std::memory_order_relaxed) + 1};
    submitted_.store(pending_->id, std::memory_order_release);
  }
  wake_.notify_one();
}

// finished_ takes each job's id when it ends; a job replaced before it started never
// runs, so finished_ goes from the one before it straight to the one that replaced it.
void LoadWorker::waitIdle() const noexcept {
  for (uint64_t finished = finished_.load(std::memory_order_acquire);
       finished != submitted_.load(std::memory_order_acquire); finished = finished_.load(std::memory_order_acquire))
    finished_.wait(finished, std::memory_order_acquire);
}

void LoadWorker::run() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stop_ || pending_; });
      if (stop_) break;
      job = std::move(*pending_);
      pending_.reset();
    }
    {
      std::lock_guard lock(job.core->controlMutex());
      job.core->postLevel(job.levelDb);
      done_(*job.core, !job.path.empty() && job.core->loadInstrument(job.path));
    }
    finished_.store(job.id, std::memory_order_release);
    finished_.notify_all();
  }
  // A job dropped at the end counts as finished: no one waits for it any longer.
  finished_.store(submitted_.load(std::memory_order_acquire), std::memory_order_release);
  finished_.notify_all();
}

}  // namespace spindle::clap
