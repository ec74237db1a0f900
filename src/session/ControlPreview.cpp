// Control, part three: the preview part (limits::kPreviewPart), where the window's
// library browser auditions an instrument. Its load runs on the loader thread through
// the Library like a part's; its SetProgram, preset and notes are queued commands like
// every other, so the 16 parts and their state never change.
#include <algorithm>
#include <utility>

#include "session/Control.h"

namespace spindle::session {

namespace {

engine::Command previewCommand(engine::CommandType type, int count, float value = 0.0f) {
  engine::Command command;
  command.type = type;
  command.part = static_cast<int8_t>(limits::kPreviewPart);
  command.count = count;
  command.value = value;
  return command;
}

// The lowest and highest key the program's note regions play (a SoundFont: those of the
// preset `presetIndex`, when it has presets); a region whose sample did not load plays none.
std::pair<int, int> keyRange(const engine::Program& program, int presetIndex) {
  int lo = 128, hi = -1;
  for (const Region& r : program.regions) {
    const bool release = r.trigger == Trigger::Release || r.trigger == Trigger::ReleaseKey;
    const auto sample = static_cast<std::size_t>(r.sampleIndex);
    const bool silent = r.sampleIndex >= 0 && (sample >= program.samples.size() || !program.samples[sample]);
    if (release || silent || (presetIndex >= 0 && r.preset != presetIndex)) continue;
    lo = std::min<int>(lo, r.lokey);
    hi = std::max<int>(hi, r.hikey);
  }
  return hi < 0 ? std::pair{-1, -1} : std::pair{lo, hi};
}

}  // namespace

void Control::preview(const std::string& path, int preset) {
  auto progress = std::make_shared<LoadProgress>();
  {
    std::lock_guard lock(mutex_);
    if (previewLoad_) previewLoad_->cancel.store(true, std::memory_order_relaxed);
    previewLoad_ = progress;
    preview_.loading = true;
    preview_.error.clear();
    ++preview_.serial;
  }
  if (loaderThread_) loaderThread_->submit([this, path, preset, progress] { runPreview(path, preset, progress); });
  changed();
}

void Control::runPreview(const std::string& path, int preset, const std::shared_ptr<LoadProgress>& progress) {
  Loader::Result result = library_.load(path, settings().preloadFrames, progress.get());
  const bool cancelled = progress->cancel.load(std::memory_order_relaxed);
  if (!cancelled && result.program && playPreview(std::move(result.program), path, result.report, preset, progress)) return;
  {
    std::lock_guard lock(mutex_);
    if (previewLoad_ != progress) return;  // superseded: the newer one reports
    previewLoad_.reset();
    preview_.loading = false;
    preview_.error = cancelled ? "cancelled" : failureText(path, result.report);
    ++preview_.serial;
  }
  changed();
}

// The program goes to the preview part after the sound of the one before stops; false
// (the program freed) when a newer preview superseded this one or the queue is full.
bool Control::playPreview(std::unique_ptr<engine::Program> program, const std::string& path, const LoadReport& report, int preset,
                          const std::shared_ptr<LoadProgress>& progress) {
  const engine::Program* kept = library_.keep(std::move(program));
  engine::Command set = previewCommand(engine::CommandType::SetProgram, 0);
  set.program = kept;
  {
    std::lock_guard lock(mutex_);
    const bool current = previewLoad_ == progress;
    if (current && queueLocked(previewCommand(engine::CommandType::PreviewNote, -1)) && queueLocked(set)) {
      if (preset >= 0) queueLocked(previewCommand(engine::CommandType::SelectPreset, preset));
      const int index = preset >= 0 ? kept->presetFor(preset / 128, preset % 128) : -1;
      const auto [lo, hi] = keyRange(*kept, index);
      preview_ = {path, report.name, preset, lo, hi, false, {},
                  preview_.serial + 1};
      previewLoad_.reset();
    } else {
      kept = nullptr;
    }
  }
  if (!kept) {
    library_.release(set.program);
    return false;
  }
  changed();
  return true;
}

bool Control::selectPreset(int part, int preset) {
  if (part < 0 || part >= control::kParts || preset < 0 || preset >= 129 * 128) return false;
  engine::Command command = partCommand(engine::CommandType::SelectPreset, part);
  command.count = preset;
  return queue(command);
}

bool Control::previewNote(int key, int velocity) {
  return queue(previewCommand(engine::CommandType::PreviewNote, key, static_cast<float>(velocity)));
}

PreviewState Control::previewState() const {
  std::lock_guard lock(mutex_);
  return preview_;
}

}  // namespace spindle::session
