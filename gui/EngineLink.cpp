#include "gui/EngineLink.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "io/AudioBackend.h"
#include "io/ProcessTimer.h"
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

engine::Command partCommand(engine::CommandType type, int part) {
  engine::Command command;
  command.type = type;
  command.part = static_cast<int8_t>(part);
  return command;
}

}  // namespace

EngineLink::EngineLink(const Wiring& wiring, QObject* parent)
    : QObject(parent),
      wiring_(wiring),
      polyphony_(wiring.engine->config().polyphony),
      quality_(static_cast<int>(wiring.engine->config().quality)),
      effects_(wiring.effects) {
  connect(&timer_, &QTimer::timeout, this, &EngineLink::poll);
}

EngineLink::~EngineLink() {
  for (auto& job : jobs_)
    if (job) job->cancel();
  wiring_.engine->collectAllPrograms([this](const engine::Program* p) { programs_.erase(p); });
}

double EngineLink::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void EngineLink::post(const engine::Command& command) {
  if (pending_.empty() && wiring_.engine->postCommand(command)) return;
  pending_.push_back(command);
}

void EngineLink::retryPending() {
  while (!pending_.empty() && wiring_.engine->postCommand(pending_.front())) pending_.pop_front();
}

void EngineLink::loadLibrary(int part, const QString& sfzFile) {
  if (auto& old = jobs_[index(part)]) {
    old->cancel();
    old.reset();
    emit loadFinished(part, false, parts_[index(part)].name);
  }
  jobs_[index(part)] = wiring_.loader->start(sfzFile.toStdString());
  emit loadProgress(part, 0, 0, 0.0);
}

void EngineLink::cancelLoad(int part) {
  if (auto& job = jobs_[index(part)]) job->cancel();  // poll() reports it when the loader stops
}

void EngineLink::unload(int part) {
  cancelLoad(part);
  PartInfo& info = parts_[index(part)];
  info.name.clear();
  info.path.clear();
  info.keys = {};
  info.regions = info.missingSamples = 0;
  info.controls.clear();
  info.controlValues.clear();
  info.keyLabels.clear();
  info.program = nullptr;
  info.sharedFrom = -1;
  info.effects.clear();
  info.effectBypass = 0;
  post(partCommand(engine::CommandType::SetProgram, part));  // nullptr: the part falls silent
  emit partChanged(part);
}

void EngineLink::setPolyphony(int voices) {
  engine::Command command = partCommand(engine::CommandType::SetPolyphony, 0);
  command.count = std::clamp(voices, 1, wiring_.engine->config().polyphony);
  polyphony_ = command.count;
  post(command);
}

void EngineLink::setQuality(int quality) {
  engine::Command command = partCommand(engine::CommandType::SetQuality, 0);
  command.count = std::clamp(quality, 0, 3);
  quality_ = command.count;
  post(command);
}

void EngineLink::setTempo(float bpm) {
  engine::Command command = partCommand(engine::CommandType::SetTempo, 0);
  command.value = bpm;
  tempo_ = bpm;
  post(command);
}

void EngineLink::setVolume(int part, float db) {
  engine::Command command = partCommand(engine::CommandType::SetPartVolume, part);
  command.value = db;
  parts_[index(part)].volumeDb = db;
  post(command);
  emit partChanged(part);
}

void EngineLink::setPan(int part, float pan) {
  engine::Command command = partCommand(engine::CommandType::SetPartPan, part);
  command.value = pan;
  parts_[index(part)].pan = pan;
  post(command);
  emit partChanged(part);
}

void EngineLink::setMute(int part, bool on) {
  engine::Command command = partCommand(engine::CommandType::SetPartMute, part);
  command.flag = on;
  parts_[index(part)].mute = on;
  post(command);
  emit partChanged(part);
}

void EngineLink::setSolo(int part, bool on) {
  engine::Command command = partCommand(engine::CommandType::SetPartSolo, part);
  command.flag = on;
  parts_[index(part)].solo = on;
  post(command);
  emit partChanged(part);
}

void EngineLink::panic() {
  post(partCommand(engine::CommandType::Panic, 0));
  for (PartInfo& p : parts_) p.heldHere.reset();
}

// Stamped with the audio clock's frame, exactly as the midi thread stamps its events;
// before the first cycle there is no clock and it plays at the start of the first block.
bool EngineLink::sendMidi(uint8_t status, uint8_t data1, uint8_t data2, std::optional<uint64_t> frame) {
  if (!frame) frame = wiring_.live->clock().frameAt(io::monotonicNs());
  const MidiEvent message{0, status, static_cast<uint8_t>(data1 & 0x7F), static_cast<uint8_t>(data2 & 0x7F)};
  if (!wiring_.notes->tryPush(io::TimedMidi{frame.value_or(0), message})) {
    wiring_.live->countMidiDropped(1);
    return false;
  }
  trackHeld(message);
  return true;
}

// Notes through this input (keyboard, OSC) are known exactly, note-off included.
void EngineLink::trackHeld(const MidiEvent& message) {
  std::bitset<128>& held = parts_[static_cast<std::size_t>(message.channel())].heldHere;
  const bool allOff = message.type() == midi::kControlChange &&
                      (message.data1 == midi::kCcAllNotesOff || message.data1 == midi::kCcAllSoundOff);
  if (allOff) held.reset();
  else if (message.type() == midi::kNoteOn && message.data2 > 0) held.set(message.data1);
  else if (message.type() == midi::kNoteOn || message.type() == midi::kNoteOff) held.reset(message.data1);
}

void EngineLink::noteOn(int part, int key, int velocity) {
  if (key < 0 || key > 127) return;
  sendMidi(static_cast<uint8_t>(midi::kNoteOn | part), static_cast<uint8_t>(key),
           static_cast<uint8_t>(std::clamp(velocity, 1, 127)));
}

void EngineLink::noteOff(int part, int key) {
  if (key < 0 || key > 127) return;
  sendMidi(static_cast<uint8_t>(midi::kNoteOff | part), static_cast<uint8_t>(key), 0);
}

void EngineLink::poll() {
  const double t = now();
  retryPending();
  retryTunings();
  pollLoads();
  pollNotes();
  pollProblems();
  pollStats(t);
  pollConnections();
  wiring_.engine->collectGarbage([this](const engine::Program* p) { programs_.erase(p); });
  emit statsUpdated();
}

void EngineLink::pollLoads() {
  for (int part = 0; part < limits::kChannels; ++part) {
    std::shared_ptr<LoadJob> job = jobs_[index(part)];
    if (!job) continue;
    // Ready first: once the result is there the counters are final, so the last
    // progress report before loadFinished always reads "all files done".
    const bool ready = job->ready();
    emit loadProgress(part, job->filesDone(), job->filesTotal(), static_cast<double>(job->bytesInRam()) / 1e6);
    if (!ready) continue;
    jobs_[index(part)].reset();
    finishLoad(part, job->take());
  }
}

void EngineLink::finishLoad(int part, LoadOutcome outcome) {
  PartInfo& info = parts_[index(part)];
  for (stream::PoolMessage& left : outcome.leftOut)
    problemLog_.add(control::ProblemKind::Load, std::move(left.path), std::move(left.text));
  problems_[index(part)] = std::move(outcome.problems);
  emit problemsChanged(part);
  if (!outcome.ok || !outcome.program) {
    emit loadFinished(part, false, info.name);
    return;
  }
  const engine::Program* program = outcome.program.get();
  info.keys = keyMapOf(*program);
  info.program = program;
  info.controls = program->controllerLabels;
  info.keyLabels = program->keyLabels;
  info.controlValues.assign(info.controls.size(), 0.0f);
  for (std::size_t c = 0; c < info.controls.size(); ++c)
    for (const controllers::ControllerDefault& d : program->controllerDefaults)
      if (d.cc == info.controls[c].cc) info.controlValues[c] = d.value;
  info.name = QString::fromStdString(outcome.name);
  info.path = QString::fromStdString(outcome.path.string());
  info.sharedFrom = -1;
  info.effects = spindle::partEffects(program->busLayout, 0);
  info.effectBypass = 0;  // the engine clears its flags on the program switch too
  info.regions = static_cast<int>(outcome.regions);
  info.missingSamples = static_cast<int>(outcome.samples - outcome.samplesLoaded);
  programs_.emplace(program, std::move(outcome.program));
  engine::Command command = partCommand(engine::CommandType::SetProgram, part);
  command.program = program;
  post(command);  // the part's old Program comes back through collectGarbage()
  emit loadFinished(part, true, info.name);
  emit partChanged(part);
  if (!program->presets.empty()) shareSoundFont(part);
}

// A SoundFont plays on every part nothing else is loaded into or loading (or that plays
// a font shared before): each part keeps its own channel, bank and program, so a General
// MIDI song plays after one load. The parts share the one Program (the engine frees it
// once no part plays it).
void EngineLink::shareSoundFont(int from) {
  const PartInfo& source = parts_[index(from)];
  for (int part = 0; part < limits::kChannels; ++part) {
    PartInfo& info = parts_[index(part)];
    if (part == from || (!info.name.isEmpty() && info.sharedFrom < 0) || jobs_[index(part)]) continue;
    info.name = source.name, info.path = source.path, info.keys = source.keys, info.program = source.program;
    info.regions = source.regions, info.missingSamples = source.missingSamples;
    info.controls = source.controls, info.controlValues = source.controlValues, info.keyLabels = source.keyLabels;
    info.sharedFrom = from;
    info.effects = source.effects, info.effectBypass = 0;
    problems_[index(part)] = problems_[index(from)];
    engine::Command command = partCommand(engine::CommandType::SetProgram, part);
    command.program = source.program;
    post(command);
    emit loadFinished(part, true, info.name);
    emit partChanged(part);
  }
}

// The disk thread's errors into the problem log, then whatever is new there is
// announced; disk errors and a lost server become runtime rows of the problems panel.
void EngineLink::pollProblems() {
  if (wiring_.streaming)
    for (stream::DiskError& error : wiring_.streaming->takeDiskErrors())
      problemLog_.add(control::ProblemKind::Disk, std::move(error.file), std::move(error.message));
  if (problemLog_.total() == problemsSeen_) return;
  for (const control::LoggedProblem& p : problemLog_.since(problemsSeen_)) {
    problemsSeen_ = p.serial;
    if (p.kind != control::ProblemKind::Load)  // a load's problems are rows of that load already
      runtime_.push_back(Problem{Problem::Severity::Error, p.file, 0, p.message});
  }
  constexpr auto kKept = static_cast<std::ptrdiff_t>(control::ProblemLog::kKept);
  if (std::ssize(runtime_) > kKept) runtime_.erase(runtime_.begin(), runtime_.end() - kKept);
  emit runtimeProblemsChanged();
}

void EngineLink::pollNotes() {
  io::NoteLatency note;
  while (wiring_.live->popNoteLatency(note))
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
        p.controlValues[c] = wiring_.engine->controllerValue(static_cast<int>(part), p.controls[c].cc);
  }
}

void EngineLink::pollStats(double nowSeconds) {
  HealthInput input;
  input.live = wiring_.live->stats();
  updateParts(input.live, nowSeconds);
  input.disk = probeDisk(wiring_.streaming);
  input.preloadBytes = wiring_.loader->bytesInRam();
  input.preloadSamples = wiring_.loader->samplesInRam();
  input.cacheBudgetBytes = wiring_.streaming ? wiring_.streaming->cacheBytes() : 0;
  input.realtime = wiring_.realtime;
  if (ticks_++ % kPollHz == 0) {  // once a second: a syscall about another thread
    const unsigned long audio = wiring_.live->audioThread();
    audioThreadKnown_ = audio != 0;
    realtimePriority_ = wiring_.live->audioThreadPriority();  // the kernel's view: right under pw-jack too
  }
  input.realtime.priority = realtimePriority_;
  input.realtime.audioThreadKnown = audioThreadKnown_;
  health_.update(input, nowSeconds);
}

void EngineLink::setLink(const io::PortLink& link, bool on) {
  if (wiring_.backend) wiring_.backend->setLink(link, on);
}

// A copy of a few short lists under the backend's lock, 30 times a second; the panel
// rebuilds its rows only when the serial moved.
void EngineLink::pollConnections() {
  if (!wiring_.backend) return;
  io::ConnectionReport report = wiring_.backend->connections();
  if (report.serial == connections_.serial) return;
  connections_ = std::move(report);
  emit connectionsChanged();
}

}  // namespace spindle::gui
