// Control, part two: loads. Each runs on the loader thread through the Library, then
// queues its SetProgram and records what the part now plays before it reports Done, so
// that whatever follows a load (a session's bypass flags, a client's queries) sees it.
#include <utility>

#include "session/Control.h"

namespace spindle::session {

namespace {

// The part's state for `program`, loaded from `path`.
void fillPart(PartState& part, const engine::Program& program, const std::string& path, const LoadReport& report) {
  part.name = report.name;
  part.path = path;
  part.program = &program;
  part.sharedFrom = -1;
  part.regions = static_cast<int>(report.regions);
  part.missingSamples = report.samplesNotLoaded();
  part.controls = program.controllerLabels;
  part.controlDefaults.assign(part.controls.size(), 0.0f);
  for (std::size_t c = 0; c < part.controls.size(); ++c)
    for (const controllers::ControllerDefault& d : program.controllerDefaults)
      if (d.cc == part.controls[c].cc) part.controlDefaults[c] = d.value;
  part.keyLabels = program.keyLabels;
  part.effects = spindle::partEffects(program.busLayout, 0);
  part.settings.instrument = path;
  part.settings.effectBypass = 0;  // the engine clears its flags on the program switch too
  ++part.serial;
}

// The part plays the SoundFont of part `from`; a session file saves it as empty.
void shareInto(PartState& part, const PartState& source, int from) {
  part.name = source.name, part.path = source.path, part.program = source.program;
  part.regions = source.regions, part.missingSamples = source.missingSamples;
  part.controls = source.controls, part.controlDefaults = source.controlDefaults, part.keyLabels = source.keyLabels;
  part.effects = source.effects, part.problems = source.problems;
  part.sharedFrom = from;
  part.settings.instrument.clear();
  part.settings.effectBypass = 0;
  ++part.serial;
}

}  // namespace

void Control::load(uint64_t ticket, int part, const std::string& path, control::LoadListener& listener) {
  auto job = std::make_shared<Job>();
  job->ticket = ticket, job->part = part, job->path = path, job->listener = &listener;
  if (!loaderThread_) {  // stopped: the session is ending
    listener.onLoadEvent({control::LoadEvent::Kind::Failed, ticket, part, 0.0f, "the session is stopping", 0, 0});
    return;
  }
  {
    std::lock_guard lock(mutex_);
    std::shared_ptr<Job>& slot = jobs_[static_cast<std::size_t>(part)];
    if (slot) slot->progress.cancel.store(true, std::memory_order_relaxed);  // superseded: it reports Failed
    slot = job;
    ++at(part).serial;
  }
  loaderThread_->submit([this, job] { runLoad(*job); });
  changed();
}

void Control::runLoad(Job& job) {
  using Kind = control::LoadEvent::Kind;
  notify(job, {Kind::Progress, job.ticket, job.part, 0.0f, {}, 0, 0});
  Loader::Result result = library_.load(job.path, settings().preloadFrames, &job.progress);
  // Before the reply: a client that hears "done" can already list what was left out.
  for (const SampleError& error : result.report.sampleErrors)
    problems_.add(control::ProblemKind::Load, error.file, error.message);
  std::vector<Problem> rows = problemRows(result.report);
  if (job.progress.cancel.load(std::memory_order_relaxed)) {  // cancelled, or superseded, after its last file
    result.report.cancelled = true;
    result.program.reset();
  }
  const LoadReport& r = result.report;
  if (!result.program)
    return finishLoad(job, {Kind::Failed, job.ticket, job.part, 0.0f, failureText(job.path, r), 0, 0}, std::move(rows));
  if (!playOnPart(job, std::move(result.program), r))
    return finishLoad(job, {Kind::Failed, job.ticket, job.part, 0.0f, "the command queue is full", 0, 0},
                      std::move(rows));
  finishLoad(job, {Kind::Done, job.ticket, job.part, 1.0f, r.name, static_cast<int>(r.regions), r.samplesNotLoaded()},
             std::move(rows));
}

// The part's problems and its load's last counts, then the event.
void Control::finishLoad(Job& job, control::LoadEvent event, std::vector<Problem> problems) {
  {
    std::lock_guard lock(mutex_);
    PartState& part = at(job.part);
    part.problems = std::move(problems);
    ++part.serial;
    std::shared_ptr<Job>& slot = jobs_[static_cast<std::size_t>(job.part)];
    if (slot.get() == &job) {
      lastLoads_[static_cast<std::size_t>(job.part)] = {false, job.progress.filesDone.load(), job.progress.filesTotal.load(),
                                                        job.progress.bytesInRam.load()};
      slot.reset();
    }
  }
  notify(job, event);
  changed();
}

// Hands `program` to the engine for job.part and records what the part now plays (a
// SoundFont also on the free parts). False when the command queue is full: the program
// is freed and the part keeps what it had.
bool Control::playOnPart(const Job& job, std::unique_ptr<engine::Program> program, const LoadReport& report) {
  const engine::Program* kept = library_.keep(std::move(program));
  engine::Command command = partCommand(engine::CommandType::SetProgram, job.part);
  command.program = kept;
  {
    std::lock_guard lock(mutex_);
    if (queueLocked(command)) {
      fillPart(at(job.part), *kept, job.path, report);
      if (!kept->presets.empty()) shareSoundFont(job.part);
      return true;
    }
  }
  library_.release(kept);
  return false;
}

// A SoundFont also plays on every part with no instrument of its own (or one shared
// before) and no load on its way, each on its own channel with its own bank and
// program: a General MIDI song plays after one load. The parts share the Program; the
// engine hands it back once no part plays it.
void Control::shareSoundFont(int from) {
  const PartState source = at(from);
  for (int p = 0; p < control::kParts; ++p) {
    PartState& part = at(p);
    const bool own = !part.name.empty() && part.sharedFrom < 0;
    if (p == from || own || jobs_[static_cast<std::size_t>(p)]) continue;
    engine::Command command = partCommand(engine::CommandType::SetProgram, p);
    command.program = source.program;
    if (!queueLocked(command)) return;
    shareInto(part, source, from);
  }
}

void Control::notify(const Job& job, const control::LoadEvent& event) {
  job.listener->onLoadEvent(event);
  std::lock_guard lock(listenerMutex_);
  if (observer_ && observer_ != job.listener) observer_->onLoadEvent(event);
}

void Control::playEverywhere(Loader::Result loaded, const std::string& path) {
  const engine::Program* program = library_.keep(std::move(loaded.program));
  {
    std::lock_guard lock(mutex_);
    for (int p = 0; p < control::kParts; ++p) {
      engine::Command command = partCommand(engine::CommandType::SetProgram, p);
      command.program = program;
      queueLocked(command);  // an empty queue: room for every part
      fillPart(at(p), *program, path, loaded.report);
      at(p).problems = problemRows(loaded.report);
    }
  }
  changed();
}

bool Control::unload(int part) {
  engine::Command c = partCommand(engine::CommandType::SetProgram, part);  // nullptr: the part falls silent
  return command(c, [&] {
    if (const auto& job = jobs_[static_cast<std::size_t>(part)]) job->progress.cancel.store(true);
    PartState& s = at(part);
    s.name.clear(), s.path.clear(), s.program = nullptr, s.sharedFrom = -1;
    s.regions = s.missingSamples = 0;
    s.controls.clear(), s.controlDefaults.clear(), s.keyLabels.clear(), s.effects.clear();
    s.settings.instrument.clear();
    s.settings.effectBypass = 0;
    ++s.serial;
  });
}

void Control::cancelLoad(int part) {
  std::lock_guard lock(mutex_);
  if (const auto& job = jobs_[static_cast<std::size_t>(part)]) job->progress.cancel.store(true);
}

bool Control::loading(int part) const {
  std::lock_guard lock(mutex_);
  return jobs_[static_cast<std::size_t>(part)] != nullptr;
}

LoadStatus Control::loadStatus(int part) const {
  std::lock_guard lock(mutex_);
  const auto& job = jobs_[static_cast<std::size_t>(part)];
  if (!job) return lastLoads_[static_cast<std::size_t>(part)];
  return {true, job->progress.filesDone.load(), job->progress.filesTotal.load(), job->progress.bytesInRam.load()};
}

}  // namespace spindle::session
