#include "app/Loader.h"

#include <algorithm>
#include <chrono>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "formats/InstrumentFile.h"
#include "formats/PreloadNeeds.h"
#include "formats/ProgramFromInstrument.h"
#include "formats/SilentLoad.h"

namespace spindle::app {

namespace {

double nowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void addOnce(std::vector<std::string>& list, std::unordered_set<std::string>& seen, const std::string& item) {
  if (seen.insert(item).second) list.push_back(item);
}

}  // namespace

std::size_t LoadReport::errorCount() const noexcept {
  return static_cast<std::size_t>(std::count_if(diagnostics.begin(), diagnostics.end(), [](const auto& d) {
    return d.severity == instrument::Diagnostic::Severity::Error;
  }));
}

std::string formatDiagnostic(const instrument::Diagnostic& diagnostic) {
  std::string out = diagnostic.file;
  if (diagnostic.line > 0) out += ":" + std::to_string(diagnostic.line);
  out += diagnostic.severity == instrument::Diagnostic::Severity::Error ? ": error: " : ": warning: ";
  return out + diagnostic.message;
}

Loader::Loader(stream::PoolOptions options) : pool_(options) {}

Loader::Result Loader::load(const std::filesystem::path& sfzFile) {
  const double start = nowSeconds();
  return build(formats::loadInstrument(sfzFile), start);
}

Loader::Result Loader::loadString(const std::string& text, const std::filesystem::path& virtualFile) {
  const double start = nowSeconds();
  return build(formats::loadSfzText(text, virtualFile), start);
}

Loader::Result Loader::build(instrument::Instrument instrument, double startSeconds) {
  Result result;
  LoadReport& report = result.report;
  report.sfzPath = instrument.path;
  report.ok = instrument.ok;
  report.name = instrument.name;
  report.regions = instrument.regions.size();
  report.unknownOpcodes = instrument.unknownOpcodes;
  report.diagnostics = std::move(instrument.diagnostics);
  if (instrument.ok) {
    auto program = formats::programFor(instrument);
    loadSamples(instrument, *program, report);
    const std::string silent = formats::noSampleLoaded(report.samples, report.samplesLoaded);
    if (!silent.empty()) {
      report.diagnostics.push_back({instrument::Diagnostic::Severity::Error, instrument.path.string(), 0, silent});
    } else {
      program->regions = std::move(instrument.regions);
      report.loopTailBytes += formats::finishProgram(*program, pool_, report.sampleWarnings);
      result.program = std::move(program);
    }
  }
  report.bytesInRam = pool_.bytesInRam();
  report.seconds = nowSeconds() - startSeconds;
  return result;
}

// Fills program.samples from the pool and sorts every failure into the report:
// a file the parser or the pool found missing is listed once, however many
// regions use it; other failures keep the pool's message. A file's reversed entry
// (direction=reverse) loads apart from its forward one; the report counts files, and a
// file is loaded when each of its entries is.
void Loader::loadSamples(const instrument::Instrument& instrument, engine::Program& program, LoadReport& report) {
  const std::size_t firstMessage = pool_.messages().size();
  program.samples.resize(instrument.samples.size(), nullptr);
  std::unordered_set<std::string> seen;
  for (const std::string& path : instrument.missingSamples) addOnce(report.missingFiles, seen, path);
  std::unordered_map<std::string, bool> loaded;  // path -> every entry of it loaded
  const std::vector<stream::PreloadNeed> needs = formats::preloadNeeds(instrument);
  for (std::size_t i = 0; i < instrument.samples.size(); ++i) {
    const std::string& path = instrument.samples[i];
    const auto direction = instrument.isReversed(i) ? stream::SampleDirection::Reverse : stream::SampleDirection::Forward;
    program.samples[i] = pool_.acquire(path, direction, needs[i]);
    const bool ok = program.samples[i] != nullptr;
    if (const auto [it, added] = loaded.emplace(path, ok); !added) it->second = it->second && ok;
    if (ok) continue;
    const stream::SampleRecord* record = pool_.find(path, direction);
    if (record && !record->missing) {
      if (seen.insert(path).second) report.sampleErrors.push_back(SampleError{path, record->error});
    } else {
      addOnce(report.missingFiles, seen, path);
    }
  }
  report.samples = loaded.size();
  for (const auto& [path, all] : loaded) report.samplesLoaded += all ? 1 : 0;
  for (std::size_t m = firstMessage; m < pool_.messages().size(); ++m)
    if (pool_.messages()[m].kind == stream::PoolMessage::Kind::Warning)
      report.sampleWarnings.push_back(pool_.messages()[m].text);
}

}  // namespace spindle::app
