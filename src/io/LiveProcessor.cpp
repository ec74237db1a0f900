#include "io/LiveProcessor.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <array>

#include "core/Limits.h"
#include "core/MidiTuning.h"
#include "io/RealtimeSetup.h"
#include "rt/StreamBank.h"

namespace spindle::io {

namespace {

bool isNoteOn(const MidiEvent& e) noexcept SPINDLE_REALTIME { return e.type() == midi::kNoteOn && e.data2 > 0; }

int messageLength(uint8_t status) noexcept SPINDLE_REALTIME {
  const int type = status & 0xF0;
  return type == 0xC0 || type == 0xD0 ? 2 : 3;
}

}  // namespace

LiveProcessor::LiveProcessor(engine::Engine& engine)
    : engine_(engine),
      streams_(engine.config().streams),
      pending_(static_cast<std::size_t>(limits::kMaxEventsPerBlock)),
      blockEvents_(static_cast<std::size_t>(limits::kMaxEventsPerBlock)) {}

// pthread_self() reads a thread register: real-time safe though not annotated.
// gettid() is a syscall, made only when the callback moves to another thread (the
// first cycle, a reconnect): the main thread needs the kernel id for the priority.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
void LiveProcessor::beginCycle(const CycleStart& cycle) noexcept SPINDLE_REALTIME {
  timer_.start();
  flushDenormals();
  const auto self = static_cast<unsigned long>(pthread_self());
  if (audioThread_.load(std::memory_order_relaxed) != self) {
    audioTid_.store(static_cast<int>(gettid()), std::memory_order_relaxed);
    audioThread_.store(self, std::memory_order_relaxed);
    prefaultStack();  // a new audio thread: its stack locked before any note needs it
  }
  cycle_ = cycle;
  if (cycle.tempo > 0.0) engine_.setTempo(static_cast<float>(cycle.tempo));
  pendingCount_ = 0;
  const bool freewheeling = freewheeling_.load(std::memory_order_relaxed);
  const uint64_t reported = backendXruns_.load(std::memory_order_relaxed);
  afterXrun_ = reported != backendXrunsSeen_;
  backendXrunsSeen_ = reported;
  if (haveExpected_ && !freewheeling && !cycle.newClock && cycle.frameTime != expectedFrame_) {
    ++local_.detectedXruns;
    local_.gapFrames += cycle.frameTime > expectedFrame_ ? cycle.frameTime - expectedFrame_
                                                         : expectedFrame_ - cycle.frameTime;
    afterXrun_ = true;
  }
  expectedFrame_ = cycle.frameTime + static_cast<uint64_t>(cycle.frames);
  haveExpected_ = true;
  clock_.publish(ClockPoint{cycle.frameTime, cycle.startNs, cycle.sampleRate, static_cast<uint32_t>(cycle.frames), 0});
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

bool LiveProcessor::append(const Pending& p) noexcept SPINDLE_REALTIME {
  if (pendingCount_ >= static_cast<int>(pending_.size())) return false;
  pending_[static_cast<std::size_t>(pendingCount_++)] = p;
  return true;
}

// Channel messages and the MIDI clock's (midi::isClockMessage) reach the engine, and MIDI
// Tuning Standard sysex as its tuning events (core/MidiTuning.h); other sysex and
// realtime events are skipped.
void LiveProcessor::addPortEvent(uint32_t offset, const uint8_t* bytes, std::size_t size) noexcept
    SPINDLE_REALTIME {
  if (size > 0 && bytes[0] == 0xF0 && offset < static_cast<uint32_t>(cycle_.frames)) return addPortTuning(offset, bytes, size);
  if (size > 0 && midi::isClockMessage(bytes[0])) return addPortClock(offset, bytes[0]);
  if (size == 0 || bytes[0] < 0x80 || bytes[0] >= 0xF0) return;
  if (static_cast<int>(size) < messageLength(bytes[0]) || offset >= static_cast<uint32_t>(cycle_.frames)) {
    ++local_.midiDropped;
    return;
  }
  Pending p;
  p.timestamp = cycle_.frameTime + offset;
  p.event = MidiEvent{offset, bytes[0], static_cast<uint8_t>(bytes[1] & 0x7F),
                      static_cast<uint8_t>(size > 2 ? bytes[2] & 0x7F : 0)};
  p.source = EventSource::Port;
  if (!append(p)) {
    ++local_.midiDropped;
    return;
  }
  ++local_.inputs[0].events;
  local_.inputs[0].lastChannel = static_cast<uint8_t>(bytes[0] & 0x0F);
}

// A clock message: no channel, so the input's last channel stays as it was.
void LiveProcessor::addPortClock(uint32_t offset, uint8_t status) noexcept SPINDLE_REALTIME {
  addPortEngineEvent(offset, MidiEvent{offset, status, 0, 0});
}

void LiveProcessor::addPortEngineEvent(uint32_t offset, const MidiEvent& event) noexcept SPINDLE_REALTIME {
  if (offset >= static_cast<uint32_t>(cycle_.frames)) {
    ++local_.midiDropped;
    return;
  }
  Pending p;
  p.timestamp = cycle_.frameTime + offset;
  p.event = event;
  p.event.frame = offset;
  p.source = EventSource::Port;
  if (!append(p)) {
    ++local_.midiDropped;
    return;
  }
  ++local_.inputs[0].events;
}

void LiveProcessor::addPortTuning(uint32_t offset, const uint8_t* bytes, std::size_t size) noexcept
    SPINDLE_REALTIME {
  std::array<MidiEvent, mts::kMaxEvents> tuning;
  const int n = mts::decode(bytes, size, offset, tuning.data(), static_cast<int>(tuning.size()));
  for (int i = 0; i < n; ++i) {
    Pending p;
    p.timestamp = cycle_.frameTime + offset;
    p.event = tuning[static_cast<std::size_t>(i)];
    p.source = EventSource::Port;
    if (!append(p)) {
      ++local_.midiDropped;
      return;
    }
    ++local_.inputs[0].events;
  }
}

// Moves the midi threads' events that fall due in this block into pending_; the first
// event not yet due waits in held_ for a later block.
void LiveProcessor::takeThreadEvents() noexcept SPINDLE_REALTIME {
  const uint64_t start = cycle_.frameTime, end = start + static_cast<uint64_t>(cycle_.frames);
  const auto delay = static_cast<uint64_t>(cycle_.frames);
  for (int i = 0; i < kMidiInputs; ++i) {
    const auto k = static_cast<std::size_t>(i);
    while (holding_[k] || midiInputs_[k].tryPop(held_[k])) {
      holding_[k] = true;
      const uint64_t due = held_[k].frame + delay;
      if (due >= end || pendingCount_ >= static_cast<int>(pending_.size())) break;
      if (due < start) ++local_.lateEvents;
      Pending p;
      p.timestamp = held_[k].frame;
      p.event = held_[k].event;
      p.event.frame = due < start ? 0 : static_cast<uint32_t>(due - start);
      p.source = EventSource::MidiThread;
      if (append(p)) {
        ++local_.inputs[k + 1].events;
        if (p.event.status < 0xF0) local_.inputs[k + 1].lastChannel = static_cast<uint8_t>(p.event.status & 0x0F);
      }
      holding_[k] = false;
    }
  }
}

// Stable insertion sort by offset: port events arrive sorted and each midi input is
// sorted, so this is close to linear.
void LiveProcessor::sortBlock() noexcept SPINDLE_REALTIME {
  for (int i = 1; i < pendingCount_; ++i) {
    const Pending p = pending_[static_cast<std::size_t>(i)];
    int j = i - 1;
    while (j >= 0 && pending_[static_cast<std::size_t>(j)].event.frame > p.event.frame) {
      pending_[static_cast<std::size_t>(j + 1)] = pending_[static_cast<std::size_t>(j)];
      --j;
    }
    pending_[static_cast<std::size_t>(j + 1)] = p;
  }
  for (int i = 0; i < pendingCount_; ++i)
    blockEvents_[static_cast<std::size_t>(i)] = pending_[static_cast<std::size_t>(i)].event;
}

void LiveProcessor::endCycle(float* left, float* right, const engine::PartOutputs* parts) noexcept SPINDLE_REALTIME {
  finishCycle<true>(left, right, parts);
}

void LiveProcessor::endCycleWaiting(float* left, float* right, const engine::PartOutputs* parts) noexcept {
  finishCycle<false>(left, right, parts);
}

template <bool Live>
void LiveProcessor::finishCycle(float* left, float* right, const engine::PartOutputs* parts) noexcept
    SPINDLE_REALTIME_IF(Live) {
  takeThreadEvents();
  sortBlock();
  const auto* events = blockEvents_.data();
  if constexpr (Live) {
    if (parts) engine_.process(events, pendingCount_, left, right, *parts, cycle_.frames);
    else engine_.process(events, pendingCount_, left, right, cycle_.frames);
  } else {
    if (parts) engine_.processWaiting(events, pendingCount_, left, right, *parts, cycle_.frames);
    else engine_.processWaiting(events, pendingCount_, left, right, cycle_.frames);
  }
  if (parts) addPartsToMain(left, right, *parts);
  local_.midiEvents += static_cast<uint64_t>(pendingCount_);
  local_.frames += static_cast<uint64_t>(cycle_.frames);
  collectNoteStarts();
  if (Live && cycle_.sampleRate > 0.0) timer_.stop(static_cast<uint64_t>(1e9 * cycle_.frames / cycle_.sampleRate));
  publish();
}

void LiveProcessor::addPartsToMain(float* left, float* right, const engine::PartOutputs& parts) noexcept
    SPINDLE_REALTIME {
  for (const engine::StereoOut& part : parts) {
    if (!part.left || !part.right) continue;
    for (int i = 0; i < cycle_.frames; ++i) {
      left[i] += part.left[i];
      right[i] += part.right[i];
    }
  }
}

// The engine reports one NoteStart per note-on, in event order: the i-th matches the
// i-th note-on of the block.
void LiveProcessor::collectNoteStarts() noexcept SPINDLE_REALTIME {
  const auto starts = engine_.noteStarts();
  const uint32_t playback = playbackLatency_.load(std::memory_order_relaxed);
  std::size_t s = 0;
  for (int i = 0; i < pendingCount_ && s < starts.size(); ++i) {
    const Pending& p = pending_[static_cast<std::size_t>(i)];
    if (!isNoteOn(p.event)) continue;
    const engine::NoteStart& start = starts[s++];
    NoteLatency note;
    note.eventFrame = p.timestamp;
    note.scheduledFrame = cycle_.frameTime + static_cast<uint64_t>(start.eventOffset);
    note.firstFrame = cycle_.frameTime + static_cast<uint64_t>(std::max(start.firstOffset, start.eventOffset));
    note.playbackLatency = playback;
    note.voices = start.voices;
    note.channel = start.channel;
    note.key = start.key;
    note.velocity = start.velocity;
    note.source = p.source;
    note.afterXrun = afterXrun_;
    ++local_.noteOns;
    if (start.voices == 0 || start.firstOffset < 0) {
      ++local_.notesWithoutVoice;
    } else {
      local_.latency.add(note);
    }
    if (!noteLog_.tryPush(note)) ++local_.noteLogDropped;
  }
}

void LiveProcessor::publish() noexcept SPINDLE_REALTIME {
  local_.sampleRate = cycle_.sampleRate;
  local_.periodFrames = static_cast<uint32_t>(cycle_.frames);
  local_.streams = streams_ ? static_cast<uint32_t>(streams_->slotsInUse()) : 0;
  local_.process = timer_.histogram();
  snapshot_.publish(local_);
}

int LiveProcessor::audioThreadPriority() const noexcept {
  return kernelThreadPriority(static_cast<pid_t>(audioTid_.load(std::memory_order_relaxed)));
}

LiveStatsSnapshot LiveProcessor::stats() const noexcept {
  LiveStatsSnapshot s;
  snapshot_.read(s);
  const engine::EngineStats e = engine_.stats();  // any thread
  s.streamUnderruns = e.sourceUnderruns;
  s.activeVoices = e.activeVoices;
  s.peakVoices = e.peakVoices;
  s.parts = e.parts;
  s.playbackLatencyFrames = playbackLatency_.load(std::memory_order_relaxed);
  const uint64_t network = network_.load(std::memory_order_relaxed);
  s.networkRoundTripFrames = static_cast<uint32_t>(network);
  s.networkSlavePeriods = static_cast<uint32_t>(network >> 32);
  s.backendXruns = backendXruns_.load(std::memory_order_relaxed);
  s.midiDropped += midiDropped_.load(std::memory_order_relaxed);
  s.reconnects = reconnects_.load(std::memory_order_relaxed);
  s.connected = connected_.load(std::memory_order_relaxed);
  s.freewheeling = freewheeling_.load(std::memory_order_relaxed);
  return s;
}

}  // namespace spindle::io
