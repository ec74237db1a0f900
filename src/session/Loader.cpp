#include "session/Loader.h"

#include <chrono>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "formats/InstrumentFile.h"
#include "formats/PreloadNeeds.h"
#include "formats/ProgramFromInstrument.h"
#include "formats/SilentLoad.h"

namespace spindle::session {

namespace {

double nowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void addOnce(std::vector<std::string>& list, std::unordered_set<std::string>& seen, const std::string& item) {
  if (seen.insert(item).second) list.push_back(item);
}

// Where the first region that plays sample `index` was written, for messages about it.
instrument::RegionOrigin originOf(const instrument::Instrument& instrument, std::size_t index) {
  for (std::size_t r = 0; r < instrument.regions.size() && r < instrument.origins.size(); ++r)
    if (instrument.regions[r].sampleIndex == static_cast<int32_t>(index)) return instrument.origins[r];
  return instrument::RegionOrigin{instrument.path.string(), 0};
}

}  // namespace

Loader::Loader(stream::PoolOptions options) : pool_(options) {}

Loader::Result Loader::load(const std::filesystem::path& sfzFile, LoadProgress* progress) {
  const double start = nowSeconds();
  return build(formats::loadInstrument(sfzFile), start, progress);
}

Loader::Result Loader::loadString(const std::string& text, const std::filesystem::path& virtualFile) {
  const double start = nowSeconds();
  return build(formats::loadSfzText(text, virtualFile), start, nullptr);
}

Loader::Result Loader::build(instrument::Instrument instrument, double startSeconds, LoadProgress* progress) {
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
    report.cancelled = !loadSamples(instrument, *program, report, progress);  // what loaded stays in the pool
    if (!report.cancelled) finish(instrument, std::move(program), result);
  }
  report.bytesInRam = pool_.bytesInRam();
  report.seconds = nowSeconds() - startSeconds;
  return result;
}

// Fills program.samples from the pool, one sample file at a time (a cancel is seen
// between two), and sorts every failure into the report: a file the parser or the pool
// found missing is listed once, however many regions use it; other failures keep the
// pool's message. A file's reversed entry (direction=reverse) loads apart from its
// forward one; the report counts files, and a file is loaded when each of its entries
// is. False: cancelled.
bool Loader::loadSamples(const instrument::Instrument& instrument, engine::Program& program, LoadReport& report,
                         LoadProgress* progress) {
  const std::size_t firstMessage = pool_.messages().size();
  program.samples.resize(instrument.samples.size(), nullptr);
  std::unordered_set<std::string> seen;
  for (const std::string& path : instrument.missingSamples) addOnce(report.missingFiles, seen, path);
  std::unordered_map<std::string, bool> loaded;  // path -> every entry of it loaded
  const std::vector<stream::PreloadNeed> needs = formats::preloadNeeds(instrument);
  if (progress) progress->filesTotal.store(static_cast<int>(instrument.samples.size()), std::memory_order_relaxed);
  for (std::size_t i = 0; i < instrument.samples.size(); ++i) {
    if (progress && progress->cancel.load(std::memory_order_relaxed)) return false;
    const std::string& path = instrument.samples[i];
    const auto direction = instrument.isReversed(i) ? stream::SampleDirection::Reverse : stream::SampleDirection::Forward;
    program.samples[i] = pool_.acquire(path, direction, needs[i]);
    const bool ok = program.samples[i] != nullptr;
    if (const auto [it, added] = loaded.emplace(path, ok); !added) it->second = it->second && ok;
    const stream::SampleRecord* record = ok ? nullptr : pool_.find(path, direction);
    if (record && !record->missing) {
      if (seen.insert(path).second) refuse(instrument, i, record->error, report);
    } else if (!ok) {
      addOnce(report.missingFiles, seen, path);
    }
    if (!progress) continue;
    progress->filesDone.store(static_cast<int>(i + 1), std::memory_order_relaxed);
    progress->bytesInRam.store(pool_.bytesInRam(), std::memory_order_relaxed);
  }
  report.samples = loaded.size();
  for (const auto& [path, all] : loaded) report.samplesLoaded += all ? 1 : 0;
  for (std::size_t m = firstMessage; m < pool_.messages().size(); ++m)
    if (pool_.messages()[m].kind == stream::PoolMessage::Kind::Warning)
      report.sampleWarnings.push_back(pool_.messages()[m].text);
  return true;
}

// The program, unless none of its samples loaded (then an error says so).
void Loader::finish(instrument::Instrument& instrument, std::unique_ptr<engine::Program> program, Result& result) {
  LoadReport& report = result.report;
  const std::string silent = formats::noSampleLoaded(report.samples, report.samplesLoaded);
  if (!silent.empty()) {
    report.diagnostics.push_back({instrument::Diagnostic::Severity::Error, instrument.path.string(), 0, silent});
    return;
  }
  program->regions = std::move(instrument.regions);
  report.loopTailBytes += formats::finishProgram(*program, pool_, report.sampleWarnings);
  result.program = std::move(program);
}

void Loader::refuse(const instrument::Instrument& instrument, std::size_t index, const std::string& error,
                    LoadReport& report) {
  const instrument::RegionOrigin origin = originOf(instrument, index);
  report.sampleErrors.push_back(SampleError{instrument.samples[index], error, origin.file, origin.line, origin.label});
}

}  // namespace spindle::session
