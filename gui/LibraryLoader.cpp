#include "gui/LibraryLoader.h"

#include <unordered_map>
#include <utility>

#include "formats/InstrumentFile.h"
#include "formats/PreloadNeeds.h"
#include "formats/ProgramFromInstrument.h"
#include "formats/SilentLoad.h"

namespace spindle::gui {

namespace {

Problem toProblem(const instrument::Diagnostic& d) {
  const auto severity = d.severity == instrument::Diagnostic::Severity::Error ? Problem::Severity::Error
                                                                       : Problem::Severity::Warning;
  return Problem{severity, d.file, d.line, d.message};
}

// Where the first region that plays sample `index` was written, for messages about it.
instrument::RegionOrigin originOf(const instrument::Instrument& instrument, int32_t index) {
  for (std::size_t r = 0; r < instrument.regions.size() && r < instrument.origins.size(); ++r)
    if (instrument.regions[r].sampleIndex == index) return instrument.origins[r];
  return instrument::RegionOrigin{instrument.path.string(), 0};
}

}  // namespace

LibraryLoader::LibraryLoader(stream::PoolOptions options) : pool_(options) {}

LibraryLoader::~LibraryLoader() = default;

std::shared_ptr<LoadJob> LibraryLoader::start(const std::filesystem::path& sfzFile) {
  auto job = std::make_shared<LoadJob>();
  // The loader thread holds its own reference: the job outlives a gui that forgets it.
  job->result_ = thread_.submit([this, sfzFile, job] { return run(sfzFile, *job); });
  return job;
}

// One file at a time, so progress moves and a cancel is seen between two files.
bool LibraryLoader::loadSamples(const instrument::Instrument& instrument, engine::Program& program, LoadOutcome& out,
                                LoadJob& job) {
  program.samples.resize(instrument.samples.size(), nullptr);
  out.samples = instrument.samples.size();
  job.total_.store(static_cast<int>(out.samples), std::memory_order_relaxed);
  const std::size_t firstMessage = pool_.messages().size();
  const std::vector<stream::PreloadNeed> needs = formats::preloadNeeds(instrument);
  for (std::size_t i = 0; i < instrument.samples.size(); ++i) {
    if (job.cancelRequested()) return false;
    const std::string& path = instrument.samples[i];
    const auto direction = instrument.isReversed(i) ? stream::SampleDirection::Reverse : stream::SampleDirection::Forward;
    program.samples[i] = pool_.acquire(path, direction, needs[i]);  // a reversed entry is a sample of its own
    const stream::SampleRecord* record = pool_.find(path, direction);
    if (program.samples[i]) ++out.samplesLoaded;
    else if (record && !record->missing) {  // missing files: the parser already said where
      const instrument::RegionOrigin origin = originOf(instrument, static_cast<int32_t>(i));
      // The region's name (global/master/group/region_label) tells the player which sound it is.
      const std::string named = origin.label.empty() ? record->error : record->error + " (region '" + origin.label + "')";
      out.problems.push_back({Problem::Severity::Error, origin.file, origin.line, named});
      out.leftOut.push_back({stream::PoolMessage::Kind::Unreadable, path, record->error});
    }
    job.done_.store(static_cast<int>(i + 1), std::memory_order_relaxed);
    job.bytes_.store(pool_.bytesInRam(), std::memory_order_relaxed);
    poolBytes_.store(pool_.bytesInRam(), std::memory_order_relaxed);
    poolSamples_.store(pool_.loadedCount(), std::memory_order_relaxed);
  }
  for (std::size_t m = firstMessage; m < pool_.messages().size(); ++m)
    if (pool_.messages()[m].kind == stream::PoolMessage::Kind::Warning)
      out.problems.push_back({Problem::Severity::Warning, instrument.path.string(), 0, pool_.messages()[m].text});
  return true;
}

LoadOutcome LibraryLoader::run(const std::filesystem::path& sfzFile, LoadJob& job) {
  LoadOutcome out;
  out.path = sfzFile;
  instrument::Instrument instrument = formats::loadInstrument(sfzFile);
  out.name = instrument.name;
  out.regions = instrument.regions.size();
  for (const instrument::Diagnostic& d : instrument.diagnostics) out.problems.push_back(toProblem(d));
  if (!instrument.ok) return out;

  auto program = formats::programFor(instrument);
  if (!loadSamples(instrument, *program, out, job)) {
    out.cancelled = true;
    return out;  // samples loaded so far stay in the pool for the next load
  }
  if (std::string silent = formats::noSampleLoaded(out.samples, out.samplesLoaded); !silent.empty()) {
    out.problems.push_back({Problem::Severity::Error, instrument.path.string(), 0, std::move(silent)});
    return out;
  }
  program->regions = std::move(instrument.regions);
  std::vector<std::string> warnings;
  pool_.setOutputRate(outputRate_.load(std::memory_order_relaxed));
  formats::finishProgram(*program, pool_, warnings);
  for (std::string& w : warnings) out.problems.push_back({Problem::Severity::Warning, instrument.path.string(), 0, std::move(w)});
  out.program = std::move(program);
  out.ok = true;
  return out;
}

}  // namespace spindle::gui
