#pragma once
// Loader: an instrument file (any format) in, an engine::Program and a load report out.
// The one way Spindle loads an instrument: spindle-render, the session's loads (the
// headless run, OSC, the window) and the LV2 plugin all come here.
//
// Thread: the loader thread (it reads files and allocates). The Loader owns the
// SamplePool, so it must outlive every Program it has built: Programs point into
// the pool's SampleData. Loading several instruments through one Loader shares
// their common samples.
//
//   formats::loadInstrument ──► SamplePool::acquire, one ──► Program{name, regions, samples,
//   (regions, sample table,      sample file at a time       swDefault} ──► Program::prepare()
//    diagnostics)                (LoadProgress: counts, cancel)
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "engine/parts/Program.h"
#include "instrument/Instrument.h"
#include "session/LoadReport.h"
#include "stream/SamplePool.h"

namespace spindle::session {

// A load's progress, for whoever watches it (the window's progress bar): the loader
// thread counts the sample entries as it acquires them; any thread reads the counts and
// may ask it to stop, which it does between two sample files (the report says cancelled).
struct LoadProgress {
  std::atomic<int> filesDone{0}, filesTotal{0};
  std::atomic<uint64_t> bytesInRam{0};  // the pool's, after the last file
  std::atomic<bool> cancel{false};
};

class Loader {
 public:
  explicit Loader(stream::PoolOptions options = {});

  struct Result {
    std::unique_ptr<engine::Program> program;  // null when !report.ok, cancelled or no sample loaded (formats/SilentLoad.h)
    LoadReport report;
  };
  Result load(const std::filesystem::path& sfzFile, LoadProgress* progress = nullptr);
  Result loadString(const std::string& text, const std::filesystem::path& virtualFile);

  const stream::SamplePool& pool() const noexcept { return pool_; }
  // The engine's rate, for the loads from now on (convolution responses are resampled to it).
  void setOutputRate(double rate) noexcept { pool_.setOutputRate(rate); }

 private:
  Result build(instrument::Instrument instrument, double startSeconds, LoadProgress* progress);
  bool loadSamples(const instrument::Instrument& instrument, engine::Program& program, LoadReport& report,
                   LoadProgress* progress);
  void finish(instrument::Instrument& instrument, std::unique_ptr<engine::Program> program, Result& result);
  void refuse(const instrument::Instrument& instrument, std::size_t index, const std::string& error,
              LoadReport& report);

  stream::SamplePool pool_;
};

}  // namespace spindle::session
