// LiveControl, part two: loads on the loader thread.
#include <algorithm>
#include <utility>

#include "app/LiveControl.h"

namespace spindle::app {

void LiveControl::load(uint64_t ticket, int part, const std::string& path, control::LoadListener& listener) {
  Job job{ticket, part, path, &listener};
  loaderThread_->submit([this, job] { runLoad(job); });
}

Loader& LiveControl::loaderFor(int preloadFrames) {
  stream::PoolOptions options = pool_;
  if (options.preloadFrames >= 0) options.preloadFrames = preloadFrames;  // streaming on: the asked preload
  options.outputRate = engine_.config().sampleRate;  // convolution responses are resampled to it
  auto& loader = loaders_[options.preloadFrames];
  if (!loader) loader = std::make_unique<Loader>(options);
  return *loader;
}

// The sample data every load's pool holds, for /spindle/status.
void LiveControl::noteMemory() {
  uint64_t memory = 0, samples = 0;
  for (const auto& [frames, loader] : loaders_) {
    memory += loader->pool().bytesInRam();
    samples += loader->pool().loadedCount();
  }
  memoryBytes_.store(memory, std::memory_order_relaxed);
  memorySamples_.store(samples, std::memory_order_relaxed);
}

void LiveControl::runLoad(const Job& job) {
  using Kind = control::LoadEvent::Kind;
  job.listener->onLoadEvent({Kind::Progress, job.ticket, job.part, 0.0f, {}, 0, 0});
  Loader::Result result = loadWithSettings(job.path);
  if (!result.program) {
    std::string reason = "cannot load " + job.path;
    const auto& diagnostics = result.report.diagnostics;
    const auto error = std::find_if(diagnostics.begin(), diagnostics.end(), [](const instrument::Diagnostic& d) {
      return d.severity == instrument::Diagnostic::Severity::Error;
    });
    if (error != diagnostics.end()) reason += ": " + formatDiagnostic(*error);
    job.listener->onLoadEvent({Kind::Failed, job.ticket, job.part, 0.0f, reason, 0, 0});
    return;
  }
  if (!playOnPart(job, std::move(result.program))) {
    job.listener->onLoadEvent({Kind::Failed, job.ticket, job.part, 0.0f, "the command queue is full", 0, 0});
    return;
  }
  const LoadReport& r = result.report;
  job.listener->onLoadEvent({Kind::Done, job.ticket, job.part, 1.0f, r.name, static_cast<int>(r.regions),
                             static_cast<int>(r.missingFiles.size() + r.sampleErrors.size())});
}

// Loads `path` with the preload the settings ask for now. Before the reply: its sample
// errors go to the problems list and its memory to the status, so that a client that
// hears "done" can already list what was left out.
Loader::Result LiveControl::loadWithSettings(const std::string& path) {
  int preload = 0;
  {
    std::lock_guard lock(mutex_);
    preload = state_.settings.preloadFrames;
  }
  Loader::Result result = loaderFor(preload).load(path);
  for (const SampleError& error : result.report.sampleErrors)
    problems_.add(control::ProblemKind::Load, error.file, error.message);
  noteMemory();
  return result;
}

// Hands `program` to the engine for job.part and records what the part now plays (a
// SoundFont also on the free parts). False when the command queue is full: the program
// is disposed and the part keeps what it had.
bool LiveControl::playOnPart(const Job& job, std::unique_ptr<engine::Program> program) {
  engine::Command command = partCommand(engine::CommandType::SetProgram, job.part);
  command.program = program.get();
  const std::vector<controllers::ControllerLabel> labels = program->controllerLabels;
  std::vector<PartEffectInfo> effects = spindle::partEffects(program->busLayout, 0);
  {
    std::lock_guard lock(mutex_);
    owned_[command.program] = std::move(program);
  }
  if (!queue(command)) {
    dispose(command.program);
    return false;
  }
  {
    std::lock_guard lock(mutex_);
    state_.parts[static_cast<std::size_t>(job.part)].instrument = job.path;
    labels_[static_cast<std::size_t>(job.part)] = labels;
    effects_[static_cast<std::size_t>(job.part)] = std::move(effects);
    state_.parts[static_cast<std::size_t>(job.part)].effectBypass = 0;  // the engine clears its flags too
    sharedFont_[static_cast<std::size_t>(job.part)] = false;
  }
  if (!command.program->presets.empty()) shareSoundFont(job.part, command.program, labels);
  return true;
}

// A SoundFont also plays on every part with no instrument (or one shared before), each
// on its own channel with its own bank and program: a General MIDI song plays after one
// load. The parts share the Program; the engine frees it once no part plays it.
void LiveControl::shareSoundFont(int from, const engine::Program* font,
                                 const std::vector<controllers::ControllerLabel>& labels) {
  std::vector<int> parts;
  {
    std::lock_guard lock(mutex_);
    for (int p = 0; p < control::kParts; ++p) {
      const auto i = static_cast<std::size_t>(p);
      if (p != from && (state_.parts[i].instrument.empty() || sharedFont_[i])) parts.push_back(p);
    }
  }
  for (int p : parts) {
    engine::Command command = partCommand(engine::CommandType::SetProgram, p);
    command.program = font;
    if (!queue(command)) return;
    std::lock_guard lock(mutex_);
    labels_[static_cast<std::size_t>(p)] = labels;
    effects_[static_cast<std::size_t>(p)] = effects_[static_cast<std::size_t>(from)];
    state_.parts[static_cast<std::size_t>(p)].effectBypass = 0;
    sharedFont_[static_cast<std::size_t>(p)] = true;
  }
}

// Values: the engine's published controller values (Engine::controllerValue), current
// for the labelled controllers of the program the part plays.
std::vector<control::PartControl> LiveControl::partControls(int part) {
  std::vector<controllers::ControllerLabel> labels;
  {
    std::lock_guard lock(mutex_);
    labels = labels_[static_cast<std::size_t>(part)];
  }
  std::vector<control::PartControl> out;
  for (const controllers::ControllerLabel& l : labels) out.push_back({l.cc, l.label, engine_.controllerValue(part, l.cc)});
  return out;
}

}  // namespace spindle::app
