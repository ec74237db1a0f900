#pragma once
// Loader: an instrument file (any format) in, an engine::Program and a load report out.
//
// Thread: the loader thread (it reads files and allocates). The Loader owns the
// SamplePool, so it must outlive every Program it has built: Programs point into
// the pool's SampleData. Loading several instruments through one Loader shares
// their common samples.
//
//   formats::loadInstrument ──► SamplePool::acquireAll ──► Program{name, regions, samples,
//   (regions, sample table, diagnostics)                    swDefault} ──► Program::prepare()
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/parts/Program.h"
#include "instrument/Instrument.h"
#include "stream/SamplePool.h"

namespace spindle::app {

// A sample file the pool found but did not load: unreadable, or over the memory budget.
struct SampleError {
  std::string file;
  std::string message;  // the pool's sentence naming the file
};

struct LoadReport {
  std::filesystem::path sfzPath;
  bool ok = false;                          // false: the .sfz itself could not be read
  std::string name;
  std::size_t regions = 0;
  std::size_t samples = 0;                  // distinct sample files (and generators) the regions play
  std::size_t samplesLoaded = 0;
  std::vector<std::string> missingFiles;    // each missing sample file once
  std::vector<SampleError> sampleErrors;    // unreadable, over the memory budget, unknown generators
  std::vector<std::string> sampleWarnings;  // e.g. more than two channels
  std::vector<std::string> unknownOpcodes;
  std::vector<instrument::Diagnostic> diagnostics;
  std::size_t bytesInRam = 0;               // the pool's total after this load
  std::size_t loopTailBytes = 0;            // this program's loop tails: crossfades, loop_sustain exits
  double seconds = 0.0;                     // wall time of the load

  std::size_t errorCount() const noexcept;  // error diagnostics
};

// "file:line: error: message" (line omitted when 0), as compilers print them.
std::string formatDiagnostic(const instrument::Diagnostic& diagnostic);

class Loader {
 public:
  explicit Loader(stream::PoolOptions options = {});

  struct Result {
    std::unique_ptr<engine::Program> program;  // null when !report.ok or no sample loaded (formats/SilentLoad.h)
    LoadReport report;
  };
  Result load(const std::filesystem::path& sfzFile);
  Result loadString(const std::string& text, const std::filesystem::path& virtualFile);

  const stream::SamplePool& pool() const noexcept { return pool_; }

 private:
  Result build(instrument::Instrument instrument, double startSeconds);
  void loadSamples(const instrument::Instrument& instrument, engine::Program& program, LoadReport& report);

  stream::SamplePool pool_;
};

}  // namespace spindle::app
