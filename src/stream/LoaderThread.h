#pragma once
// LoaderThread: the "loader" thread, where instruments are parsed and their samples
// preloaded, off the audio thread and off the control thread that keeps posting
// commands while a load runs.
//
// Threads: submit() from the control thread (or any thread); jobs run on the loader
// thread one at a time, in submission order. The result comes back through the
// returned future, which the control thread polls (ready()) between its other work,
// then publishes, e.g. an engine::Program by pointer swap (CommandType::SetProgram).
// Nothing here ever touches the audio thread.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>

namespace spindle::stream {

class LoaderThread {
 public:
  LoaderThread();
  ~LoaderThread();  // runs the jobs already submitted, then ends the thread
  LoaderThread(const LoaderThread&) = delete;
  LoaderThread& operator=(const LoaderThread&) = delete;

  template <typename Job>
  std::future<std::invoke_result_t<Job>> submit(Job job) {
    auto task = std::make_shared<std::packaged_task<std::invoke_result_t<Job>()>>(std::move(job));
    auto result = task->get_future();
    enqueue([task] { (*task)(); });
    return result;
  }

  // Control thread: true once `future` holds its result (never blocks).
  template <typename T>
  static bool ready(const std::future<T>& future) {
    return future.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  }

 private:
  void enqueue(std::function<void()> job);
  void run();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::thread thread_;  // last: starts once the queue exists
};

}  // namespace spindle::stream
