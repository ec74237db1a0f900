// EngineLink, what poll() reads at up to 30 Hz: the loads (progress, then their end),
// the note-on latencies, the problem log, the stats and the connections.
#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "gui/EngineLink.h"
#include "io/AudioBackend.h"
#include "stream/Streaming.h"

namespace spindle::gui {

namespace {

// The disk's share of the health panel: frames decoded, the cache, the stream closest to
// running dry.
DiskSample probeDisk(stream::Streaming* streaming) {
  DiskSample sample;
  if (!streaming || !streaming->enabled()) return sample;
  const stream::DiskCounters& counters = streaming->disk()->counters();
  sample.framesDecoded = counters.framesDecoded.load(std::memory_order_relaxed);
  sample.blockHits = counters.blockHits.load(std::memory_order_relaxed);
  sample.blockMisses = counters.blockMisses.load(std::memory_order_relaxed);
  sample.cacheBytes = counters.cacheBytes.load(std::memory_order_relaxed);
  sample.pinnedBlocks = counters.pinnedBlocks.load(std::memory_order_relaxed);
  const rt::StreamBank::Ahead ahead = streaming->bank()->lowestAhead();
  sample.lowestAheadFrames = ahead.lowestFrames;
  sample.openStreams = ahead.open;
  return sample;
}

}  // namespace

void EngineLink::Loads::onLoadEvent(control::LoadEvent event) {
  if (event.kind == control::LoadEvent::Kind::Progress) {
    if (event.progress == 0.0f) started_[index(event.part)].fetch_add(1);
    return;
  }
  std::lock_guard lock(mutex_);
  finished_.push_back(std::move(event));
}

std::vector<control::LoadEvent> EngineLink::Loads::take() {
  std::lock_guard lock(mutex_);
  return std::exchange(finished_, {});
}

void EngineLink::poll() {
  const double t = now();
  control_.pump();  // the session's commands to the engine, the Programs it handed back freed
  pollLoads();
  sync();
  pollNotes();
  pollProblems();
  pollStats(t);
  pollConnections();
  emit statsUpdated();
}

// The running loads' progress, then the loads that ended (their last progress first:
// it reads all files done).
void EngineLink::pollLoads() {
  const std::vector<control::LoadEvent> finished = loads_.take();
  for (int part = 0; part < limits::kChannels; ++part) {
    const session::LoadStatus s = control_.loadStatus(part);
    if (s.running) emit loadProgress(part, s.filesDone, s.filesTotal, static_cast<double>(s.bytesInRam) / 1e6);
  }
  for (const control::LoadEvent& event : finished) finishLoad(event);
}

void EngineLink::finishLoad(const control::LoadEvent& event) {
  const int part = event.part;
  ++finishedLoads_[index(part)];
  const session::LoadStatus s = control_.loadStatus(part);
  if (!s.running) emit loadProgress(part, s.filesDone, s.filesTotal, static_cast<double>(s.bytesInRam) / 1e6);
  syncPart(part);
  emit problemsChanged(part);
  const bool ok = event.kind == control::LoadEvent::Kind::Done;
  emit loadFinished(part, ok, parts_[index(part)].name);
  if (ok) emit partChanged(part);
}

// Whatever is new in the problem log is announced; disk errors and a lost server become
// runtime rows of the problems panel (a load's are rows of that load already).
void EngineLink::pollProblems() {
  const control::ProblemLog& log = control_.problemLog();
  if (log.total() == problemsSeen_) return;
  for (const control::LoggedProblem& p : log.since(problemsSeen_)) {
    problemsSeen_ = p.serial;
    if (p.kind != control::ProblemKind::Load) runtime_.push_back(Problem{Problem::Severity::Error, p.file, 0, p.message});
  }
  constexpr auto kKept = static_cast<std::ptrdiff_t>(control::ProblemLog::kKept);
  if (std::ssize(runtime_) > kKept) runtime_.erase(runtime_.begin(), runtime_.end() - kKept);
  emit runtimeProblemsChanged();
}

void EngineLink::pollNotes() {
  io::NoteLatency note;
  while (control_.live().popNoteLatency(note))
    if (note.voices > 0) health_.addNoteLatency(note.totalFrames());
}

// Peak hold and fall: the meter jumps up to a new peak and falls back at a fixed rate.
void EngineLink::updateParts(const io::LiveStatsSnapshot& live, double nowSeconds) {
  const double elapsed = lastPoll_ > 0.0 ? std::clamp(nowSeconds - lastPoll_, 0.0, 1.0) : 0.0;
  lastPoll_ = nowSeconds;
  const auto fall = static_cast<float>(elapsed) * kMeterFallDbPerSecond;
  for (std::size_t part = 0; part < parts_.size(); ++part) {
    const engine::PartStats& stats = live.parts[part];
    PartInfo& p = parts_[part];
    const float peakDb = stats.peak > 0.0f ? 20.0f * std::log10(stats.peak) : kMeterFloorDb;
    p.meterDb = std::max({peakDb, p.meterDb - fall, kMeterFloorDb});
    p.voices = static_cast<int>(stats.voices);
    p.held.reset();
    for (int key = 0; key < 128; ++key) p.held.set(static_cast<std::size_t>(key), stats.held(key));
    // Once the engine plays the part's program, its values are the truth (set_cc applied).
    if (p.program && stats.program == p.program)
      for (std::size_t c = 0; c < p.controls.size(); ++c)
        p.controlValues[c] = control_.engine().controllerValue(static_cast<int>(part), p.controls[c].cc);
  }
}

void EngineLink::pollStats(double nowSeconds) {
  HealthInput input;
  input.live = control_.live().stats();
  engineStats_ = control_.engine().stats();
  updateParts(input.live, nowSeconds);
  stream::Streaming* streaming = control_.streaming();
  input.disk = probeDisk(streaming);
  std::tie(input.preloadBytes, input.preloadSamples) = control_.memory();
  input.cacheBudgetBytes = streaming ? streaming->cacheBytes() : 0;
  input.realtime = realtime_;
  if (ticks_++ % kPollHz == 0) {  // once a second: a syscall about another thread
    const unsigned long audio = control_.live().audioThread();
    audioThreadKnown_ = audio != 0;
    realtimePriority_ = control_.live().audioThreadPriority();  // the kernel's view: right under pw-jack too
  }
  input.realtime.priority = realtimePriority_;
  input.realtime.audioThreadKnown = audioThreadKnown_;
  health_.update(input, nowSeconds);
}

// A copy of a few short lists under the backend's lock, 30 times a second; the panel
// rebuilds its rows only when the serial moved.
void EngineLink::pollConnections() {
  io::AudioBackend* backend = control_.backend();
  if (!backend) return;
  io::ConnectionReport report = backend->connections();
  if (report.serial == connections_.serial) return;
  connections_ = std::move(report);
  emit connectionsChanged();
}

}  // namespace spindle::gui
