#pragma once
// Library: the sample pools a running Spindle loads into and the Programs built over
// them, kept until the engine hands them back. Every owner of an engine keeps one:
// the session (session/Control.h), the LV2 plugin. It outlives the disk streams and the
// engine that play its Programs (their frames live in its pools).
//
//   load(file) ──► Loader (one per preload size, all kept) ──► Program ──► keep() ──►
//   SetProgram (the owner posts it) ──► the engine hands it back ──► collect() frees it
//
// Threads: load() on one thread at a time (the loader thread; the main thread before
// any load was submitted there). keep(), release(), collect(), the memory figures: any
// thread (the Programs are under a mutex); collect() and collectAll() on the engine's
// owner thread, collectAll() once the audio thread has stopped for good.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "engine/Engine.h"
#include "session/Loader.h"

namespace spindle::session {

class Library {
 public:
  // `options`: the pools'. With a preload (streaming on), load() may ask for another
  // size; without one (< 0) every sample is held whole, whatever is asked.
  explicit Library(stream::PoolOptions options);
  ~Library();
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

  // The loader thread. `preloadFrames`: the pool's size to load into (none: the one the
  // options give). The engine's rate, for convolution responses: setOutputRate() first.
  Loader::Result load(const std::filesystem::path& file, std::optional<int64_t> preloadFrames = {},
                      LoadProgress* progress = nullptr);
  void setOutputRate(double rate) noexcept { outputRate_.store(rate, std::memory_order_relaxed); }
  int64_t defaultPreload() const noexcept { return options_.preloadFrames; }

  // Any thread: `program` is kept until the engine hands it back (or release()).
  const engine::Program* keep(std::unique_ptr<engine::Program> program);
  bool release(const engine::Program* program);  // frees it; false when it is not kept here
  // The engine's owner thread: frees the Programs the engine handed back (all of them,
  // collectAll(), once the audio thread has stopped for good).
  void collect(engine::Engine& engine);
  void collectAll(engine::Engine& engine);

  // Any thread: sample data in RAM in every pool, and the samples it holds, after the last load.
  uint64_t bytesInRam() const noexcept { return bytes_.load(std::memory_order_relaxed); }
  uint64_t samplesInRam() const noexcept { return samples_.load(std::memory_order_relaxed); }

 private:
  Loader& loaderFor(std::optional<int64_t> preloadFrames);
  void noteMemory();

  const stream::PoolOptions options_;
  std::atomic<double> outputRate_;
  std::map<int64_t, std::unique_ptr<Loader>> loaders_;  // the loading thread only
  std::atomic<uint64_t> bytes_{0}, samples_{0};
  std::mutex mutex_;  // guards programs_
  std::map<const engine::Program*, std::unique_ptr<engine::Program>> programs_;
};

// Posts `program` to every part (SetProgram), as --instrument, spindle-render and the
// LV2 plugin play one instrument. The engine's owner thread; the number of parts whose
// command the engine's FIFO refused.
int postToEveryPart(engine::Engine& engine, const engine::Program* program);

}  // namespace spindle::session
