// Control: the command queue and the mixer, what the owner thread's pump() posts, and
// the readers views use. Loads: ControlLoad.cpp; tunings, effects, tempo and what OSC
// and session files read: ControlState.cpp.
#include "session/Control.h"

#include <algorithm>

#include "core/MidiEvent.h"
#include "engine/parts/Expression.h"
#include "io/ProcessTimer.h"
#include "stream/Streaming.h"

namespace spindle::session {

Control::Control(engine::Engine& engine, io::LiveProcessor& live, int midiInput, Library& library,
                 control::ProblemLog& problems, const EffectValues& effects)
    : engine_(engine), live_(live), midiInput_(midiInput), library_(library), problems_(problems), effects_(effects),
      loaderThread_(std::make_unique<stream::LoaderThread>()) {
  settings_.polyphony = engine.config().polyphony;
  settings_.quality = static_cast<int>(engine.config().quality);
  if (library.defaultPreload() >= 0) settings_.preloadFrames = static_cast<int>(library.defaultPreload());
}

Control::~Control() { stopLoads(); }

void Control::stopLoads() {
  {
    std::lock_guard lock(mutex_);
    for (const auto& job : jobs_)
      if (job) job->progress.cancel.store(true, std::memory_order_relaxed);
  }
  loaderThread_.reset();
}

void Control::takeBackAll() { library_.collectAll(engine_); }

void Control::setChangeListener(std::function<void()> listener) {
  std::lock_guard lock(listenerMutex_);
  listener_ = std::move(listener);
}

void Control::setLoadObserver(control::LoadListener* observer) {
  std::lock_guard lock(listenerMutex_);
  observer_ = observer;
}

void Control::changed() {
  std::lock_guard lock(listenerMutex_);
  if (listener_) listener_();
}

bool Control::queue(const engine::Command& command) {
  std::lock_guard lock(mutex_);
  return queueLocked(command);
}

bool Control::queueLocked(const engine::Command& command) {
  if (commands_.size() >= kControlQueueCapacity) {
    refused_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  commands_.push_back(command);
  return true;
}

// Commands and tunings to the engine (what its FIFO refuses waits for the next pump),
// the Programs it handed back freed, the disk thread's errors into the problem log.
void Control::pump() {
  postQueued();
  postTunings();
  library_.collect(engine_);
  takeDiskErrors();
}

void Control::postQueued() {
  for (;;) {
    engine::Command next;
    {
      std::lock_guard lock(mutex_);
      if (commands_.empty()) return;
      next = commands_.front();
    }
    if (!engine_.postCommand(next)) return;  // the engine's FIFO is full: next pump
    std::lock_guard lock(mutex_);
    commands_.pop_front();
  }
}

void Control::postTunings() {
  for (std::size_t part = 0; part < tunings_.size(); ++part) {
    std::optional<KeyTuning> next;
    uint64_t serial = 0;
    {
      std::lock_guard lock(mutex_);
      next = tunings_[part];
      serial = tuningSerials_[part];
    }
    if (!next || !engine_.setPartTuning(static_cast<int>(part), *next)) continue;  // the FIFO is full: next pump
    std::lock_guard lock(mutex_);
    if (tuningSerials_[part] == serial) tunings_[part].reset();  // else a newer one waits
  }
}

void Control::takeDiskErrors() {
  if (!streaming_) return;
  for (stream::DiskError& error : streaming_->takeDiskErrors())
    problems_.add(control::ProblemKind::Disk, std::move(error.file), std::move(error.message));
}

// Stamped with the audio clock's frame, exactly as the midi threads stamp theirs; before
// the first cycle there is no clock and it plays at the start of the first block.
bool Control::sendMidiAt(uint8_t status, uint8_t data1, uint8_t data2, std::optional<uint64_t> frame) {
  if (!frame) frame = live_.clock().frameAt(io::monotonicNs());
  const MidiEvent message{0, status, static_cast<uint8_t>(data1 & 0x7F), static_cast<uint8_t>(data2 & 0x7F)};
  std::lock_guard lock(midiMutex_);
  if (live_.midiInput(midiInput_).tryPush(io::TimedMidi{frame.value_or(0), message})) return true;
  live_.countMidiDropped(1);
  return false;
}

bool Control::setPartVolume(int part, float db) {
  engine::Command c = partCommand(engine::CommandType::SetPartVolume, part);
  c.value = db;
  return command(c, [&] {
    at(part).settings.volumeDb = db;
    ++at(part).serial;
  });
}

bool Control::setPartPan(int part, float pan) {
  engine::Command c = partCommand(engine::CommandType::SetPartPan, part);
  c.value = pan;
  return command(c, [&] {
    at(part).settings.pan = pan;
    ++at(part).serial;
  });
}

bool Control::setPartMute(int part, bool on) {
  engine::Command c = partCommand(engine::CommandType::SetPartMute, part);
  c.flag = on;
  return command(c, [&] {
    at(part).settings.mute = on;
    ++at(part).serial;
  });
}

bool Control::setPartSolo(int part, bool on) {
  engine::Command c = partCommand(engine::CommandType::SetPartSolo, part);
  c.flag = on;
  return command(c, [&] {
    at(part).settings.solo = on;
    ++at(part).serial;
  });
}

bool Control::setPolyphony(int voices) {
  engine::Command c = partCommand(engine::CommandType::SetPolyphony, 0);
  c.count = std::clamp(voices, 1, maxPolyphony());
  return command(c, [&] { settings_.polyphony = c.count; });
}

bool Control::setMpeZone(bool upper, int members) {
  engine::Command c = partCommand(engine::CommandType::SetMpeZone, 0);
  c.flag = upper;
  c.count = std::clamp(members, 0, engine::MpeLayout::kChannels - 1);
  return command(c, [&] {
    engine::MpeLayout zones;
    zones.configure(false, settings_.mpeLower);
    zones.configure(true, settings_.mpeUpper);
    zones.configure(upper, c.count);
    settings_.mpeLower = zones.members(false);
    settings_.mpeUpper = zones.members(true);
  });
}

// The preload of the loads from now on (a pool of that size; with streaming off, the
// value is kept for the session only).
bool Control::setPreloadFrames(int frames) {
  {
    std::lock_guard lock(mutex_);
    settings_.preloadFrames = frames;
  }
  changed();
  return true;
}

bool Control::setQuality(int quality) {
  engine::Command c = partCommand(engine::CommandType::SetQuality, 0);
  c.count = std::clamp(quality, 0, 3);
  return command(c, [&] { settings_.quality = c.count; });
}

bool Control::panic() { return queue(partCommand(engine::CommandType::Panic, 0)); }

PartState Control::part(int p) const {
  std::lock_guard lock(mutex_);
  return parts_[static_cast<std::size_t>(p)];
}

uint64_t Control::partSerial(int p) const {
  std::lock_guard lock(mutex_);
  return parts_[static_cast<std::size_t>(p)].serial;
}

EffectValues Control::effects() const {
  std::lock_guard lock(mutex_);
  return effects_;
}

control::EngineSettings Control::settings() const {
  std::lock_guard lock(mutex_);
  return settings_;
}

std::pair<uint64_t, uint64_t> Control::memory() const { return {library_.bytesInRam(), library_.samplesInRam()}; }

}  // namespace spindle::session
