#pragma once
// LoadWorker: the plugin's loader thread. A state the host loads into a running plugin
// names a library; parsing it and reading its samples takes from milliseconds to
// minutes, so it happens here while the host's main thread goes on and the audio thread
// plays the library before it. A job submitted while another waits replaces it (the
// host loaded a second state before the first started: only the last one counts).
//
//   main: submit(core, path, level) ─► [one pending job] ─► loader thread: level, load,
//         done() (the plugin hands the controls on, asks for a main-thread callback)
//   an offline process(): waitIdle() (a render waits for its library, as for the disk)
//
// Threads: submit() on the main thread; idle() any thread; waitIdle() any thread but the
// loader, never a live audio thread. The job runs under the core's controlMutex().
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "plugin/Core.h"

namespace spindle::clap {

class LoadWorker {
 public:
  // `done(core, loaded)`: on the loader thread after each job, the core's controlMutex()
  // still held; `loaded` false when it named no library or the library did not load
  // (the core logged why; the one before plays on).
  explicit LoadWorker(std::function<void(plugin::Core& core, bool loaded)> done);
  ~LoadWorker();  // finishes the job under way, drops a pending one
  LoadWorker(const LoadWorker&) = delete;
  LoadWorker& operator=(const LoadWorker&) = delete;

  void submit(plugin::Core& core, const std::string& path, float levelDb);
  bool idle() const noexcept {
    return finished_.load(std::memory_order_acquire) == submitted_.load(std::memory_order_acquire);
  }
  void waitIdle() const noexcept;

 private:
  struct Job {
    plugin::Core* core = nullptr;
    std::string path;
    float levelDb = 0.0f;
    uint64_t id = 0;
  };
  void run();

  std::function<void(plugin::Core&, bool)> done_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Job> pending_;  // under mutex_
  bool stop_ = false;           // under mutex_
  std::atomic<uint64_t> submitted_{0}, finished_{0};
  std::thread thread_;
};

}  // namespace spindle::clap
