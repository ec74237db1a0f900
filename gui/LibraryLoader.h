#pragma once
// LibraryLoader: loads .sfz libraries for the GUI on the loader thread, one sample file
// at a time, so the GUI can show progress (files done of total, MB in RAM) and cancel
// between two files.
//
// Threads:
//   gui thread    start(), LoadJob::cancel(), LoadJob progress reads, LoadJob::take()
//   loader thread the job itself: parse, acquire samples from the pool, build the Program
// The sample pool belongs to the loader thread (stream::SamplePool is not synchronised);
// the gui thread only sees the atomics of a LoadJob and, once it is ready, its outcome.
// The pool outlives every Program built here (Programs point into it): the LibraryLoader
// must outlive the engine that plays them.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "engine/parts/Program.h"
#include "instrument/Instrument.h"
#include "stream/LoaderThread.h"
#include "stream/SamplePool.h"

namespace spindle::gui {

// One problem found while loading, where it was written.
struct Problem {
  enum class Severity : uint8_t { Warning, Error };
  Severity severity = Severity::Warning;
  std::string file;  // the .sfz or included file
  int line = 0;      // 1-based; 0 = the file as a whole
  std::string message;
};

struct LoadOutcome {
  std::filesystem::path path;
  bool ok = false;         // false: unreadable .sfz, or cancelled
  bool cancelled = false;
  std::string name;
  std::unique_ptr<engine::Program> program;  // set when ok
  std::vector<Problem> problems;
  // The sample files the pool found but left out (over the memory budget, unreadable),
  // with the pool's message: among `problems` too, and for the session's problem log.
  std::vector<stream::PoolMessage> leftOut;
  std::size_t regions = 0, samples = 0, samplesLoaded = 0;
};

// A load in flight: progress atomics (loader thread writes, gui thread reads) and the
// outcome once the loader thread is done.
class LoadJob {
 public:
  int filesDone() const noexcept { return done_.load(std::memory_order_relaxed); }
  int filesTotal() const noexcept { return total_.load(std::memory_order_relaxed); }
  uint64_t bytesInRam() const noexcept { return bytes_.load(std::memory_order_relaxed); }
  void cancel() noexcept { cancelled_.store(true, std::memory_order_relaxed); }
  bool cancelRequested() const noexcept { return cancelled_.load(std::memory_order_relaxed); }
  bool ready() const { return stream::LoaderThread::ready(result_); }
  LoadOutcome take() { return result_.get(); }  // once, after ready()

 private:
  friend class LibraryLoader;
  std::atomic<int> done_{0}, total_{0};
  std::atomic<uint64_t> bytes_{0};
  std::atomic<bool> cancelled_{false};
  std::future<LoadOutcome> result_;
};

class LibraryLoader {
 public:
  explicit LibraryLoader(stream::PoolOptions options = {});
  ~LibraryLoader();  // finishes the jobs already started
  LibraryLoader(const LibraryLoader&) = delete;
  LibraryLoader& operator=(const LibraryLoader&) = delete;

  // Gui thread: queues a load; jobs run one at a time in the order started.
  std::shared_ptr<LoadJob> start(const std::filesystem::path& sfzFile);
  // Bytes of sample data the pool holds in RAM (the preloads), after the last load.
  uint64_t bytesInRam() const noexcept { return poolBytes_.load(std::memory_order_relaxed); }
  uint64_t samplesInRam() const noexcept { return poolSamples_.load(std::memory_order_relaxed); }
  // Gui thread: the engine's rate, for the loads started from now on (convolution
  // responses are resampled to it; 48 kHz until set).
  void setOutputRate(double rate) noexcept { outputRate_.store(rate, std::memory_order_relaxed); }

 private:
  // Loader thread.
  LoadOutcome run(const std::filesystem::path& sfzFile, LoadJob& job);
  bool loadSamples(const instrument::Instrument& instrument, engine::Program& program, LoadOutcome& out, LoadJob& job);

  stream::SamplePool pool_;
  std::atomic<uint64_t> poolBytes_{0}, poolSamples_{0};
  std::atomic<double> outputRate_{48000.0};
  stream::LoaderThread thread_;  // last: destroyed first, so no job outlives the pool
};

}  // namespace spindle::gui
