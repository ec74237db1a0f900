#include "session/Library.h"

#include <utility>

#include "core/Limits.h"

namespace spindle::session {

Library::Library(stream::PoolOptions options) : options_(options), outputRate_(options.outputRate) {}

// The Programs go before their pools (the loaders, declared earlier, outlive them).
Library::~Library() {
  std::lock_guard lock(mutex_);
  programs_.clear();
}

Loader& Library::loaderFor(std::optional<int64_t> preloadFrames) {
  stream::PoolOptions options = options_;
  if (options.preloadFrames >= 0 && preloadFrames) options.preloadFrames = *preloadFrames;  // streaming on
  auto& loader = loaders_[options.preloadFrames];
  if (!loader) loader = std::make_unique<Loader>(options);
  return *loader;
}

Loader::Result Library::load(const std::filesystem::path& file, std::optional<int64_t> preloadFrames,
                             LoadProgress* progress) {
  Loader& loader = loaderFor(preloadFrames);
  loader.setOutputRate(outputRate_.load(std::memory_order_relaxed));
  Loader::Result result = loader.load(file, progress);
  noteMemory();
  return result;
}

void Library::noteMemory() {
  uint64_t bytes = 0, samples = 0;
  for (const auto& [frames, loader] : loaders_) {
    bytes += loader->pool().bytesInRam();
    samples += loader->pool().loadedCount();
  }
  bytes_.store(bytes, std::memory_order_relaxed);
  samples_.store(samples, std::memory_order_relaxed);
}

const engine::Program* Library::keep(std::unique_ptr<engine::Program> program) {
  const engine::Program* kept = program.get();
  std::lock_guard lock(mutex_);
  programs_[kept] = std::move(program);
  return kept;
}

bool Library::release(const engine::Program* program) {
  std::unique_ptr<engine::Program> freed;  // freed outside the lock
  std::lock_guard lock(mutex_);
  const auto it = programs_.find(program);
  if (it == programs_.end()) return false;
  freed = std::move(it->second);
  programs_.erase(it);
  return true;
}

void Library::collect(engine::Engine& engine) {
  engine.collectGarbage([this](const engine::Program* p) { release(p); });
}

void Library::collectAll(engine::Engine& engine) {
  engine.collectAllPrograms([this](const engine::Program* p) { release(p); });
}

int postToEveryPart(engine::Engine& engine, const engine::Program* program) {
  int refused = 0;
  for (int part = 0; part < limits::kChannels; ++part) {
    engine::Command command;
    command.type = engine::CommandType::SetProgram;
    command.part = static_cast<int8_t>(part);
    command.program = program;
    if (!engine.postCommand(command)) ++refused;
  }
  return refused;
}

}  // namespace spindle::session
