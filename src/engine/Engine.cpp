// Engine: construction, the process() loop, commands and Program lifetimes.
// MIDI semantics are in EngineMidi.cpp.
#include "engine/Engine.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "engine/EngineImpl.h"
#include "rt/StreamBank.h"

namespace spindle::engine {

namespace {
EngineConfig sanitized(EngineConfig c) {
  c.sampleRate = c.sampleRate > 0.0 ? c.sampleRate : limits::kDefaultSampleRate;
  c.maxBlockFrames = std::clamp(c.maxBlockFrames, 1, limits::kMaxBlockFrames);
  c.polyphony = std::clamp(c.polyphony, 1, limits::kMaxVoices);
  return c;
}
}  // namespace

Engine::Impl::Impl(const EngineConfig& c)
    : config(sanitized(c)),
      pool(config.polyphony),
      scratch(config.maxBlockFrames, config.streams),
      quality(config.quality),
      rng(config.randomSeed),
      noteRng(config.randomSeed ^ 0x6E6F746552616E64ull),
      partLeft(static_cast<size_t>(config.maxBlockFrames)),
      partRight(static_cast<size_t>(config.maxBlockFrames)),
      byPart(static_cast<size_t>(pool.capacity())) { parts[limits::kPercussionPart].percussion = true; }

Engine::Engine(const EngineConfig& config) : impl_(std::make_unique<Impl>(config)) {}
Engine::~Engine() = default;

const EngineConfig& Engine::config() const noexcept { return impl_->config; }

namespace {

// How a process call treats the disk streams (rt/StreamBank.h). Live never waits: a voice
// plays what the disk has pushed. A waiting render (offline, freewheel) prepares each
// stretch of frames between events first, so no voice misses a frame.
struct LivePace {
  static constexpr bool kRealtime = true;
  void beforeStretch(int /*frames*/) const noexcept SPINDLE_REALTIME {}
};
struct WaitingPace {
  static constexpr bool kRealtime = false;
  rt::StreamBank* streams;
  void beforeStretch(int frames) const noexcept {
    if (streams) streams->prepare(frames);
  }
};

}  // namespace

void Engine::process(const MidiEvent* events, int eventCount, float* outLeft, float* outRight, int frames) noexcept
    SPINDLE_REALTIME {
  impl_->partOutputs = nullptr;
  impl_->process(LivePace{}, events, eventCount, outLeft, outRight, frames);
}

void Engine::process(const MidiEvent* events, int eventCount, float* outLeft, float* outRight,
                     const PartOutputs& parts, int frames) noexcept SPINDLE_REALTIME {
  impl_->partOutputs = &parts;
  impl_->process(LivePace{}, events, eventCount, outLeft, outRight, frames);
  impl_->partOutputs = nullptr;
}

void Engine::processWaiting(const MidiEvent* events, int eventCount, float* outLeft, float* outRight,
                            int frames) noexcept {
  impl_->partOutputs = nullptr;
  impl_->process(WaitingPace{impl_->config.streams}, events, eventCount, outLeft, outRight, frames);
}

void Engine::processWaiting(const MidiEvent* events, int eventCount, float* outLeft, float* outRight,
                            const PartOutputs& parts, int frames) noexcept {
  impl_->partOutputs = &parts;
  impl_->process(WaitingPace{impl_->config.streams}, events, eventCount, outLeft, outRight, frames);
  impl_->partOutputs = nullptr;
}

// ---- audio thread (a waiting render: the thread that renders) ------------------

template <class Pace>
void Engine::Impl::process(Pace pace, const MidiEvent* events, int eventCount, float* left, float* right,
                           int frames) noexcept SPINDLE_REALTIME_IF(Pace::kRealtime) {
  drainCommands();
  noteStartCount = 0;
  noteStartsPending = 0;
  partPeak.fill(0.0f);
  int next = 0;
  for (int done = 0; done < frames;) {
    const int n = std::min(frames - done, config.maxBlockFrames);
    const bool last = done + n >= frames;
    renderBlock(pace, events, eventCount, next, last, left + done, right + done, done, n);
    done += n;
  }
  flushPending();
  publishStats(frames);
  if (config.streams) config.streams->endBlock(frames);  // wakes the disk thread: at most one sem_post
}

// Renders frames [base, base + frames) of the block: each event is applied at its
// frame, the voices render the stretch before it. Events at or past the block's end
// (outside the contract) are applied at the last frame.
template <class Pace>
void Engine::Impl::renderBlock(Pace pace, const MidiEvent* events, int eventCount, int& next, bool last, float* left,
                               float* right, int base, int frames) noexcept SPINDLE_REALTIME_IF(Pace::kRealtime) {
  std::fill(left, left + frames, 0.0f);
  std::fill(right, right + frames, 0.0f);
  if (partOutputs) clearPartOutputs(base, frames);
  int at = 0;
  while (next < eventCount && (last || static_cast<int>(events[next].frame) < base + frames)) {
    const int f = std::clamp(static_cast<int>(std::min<uint32_t>(events[next].frame, INT32_MAX)) - base, at, frames - 1);
    if (f > at) {
      segmentOffset = base + at;
      pace.beforeStretch(f - at);
      renderVoices(left + at, right + at, f - at);
      at = f;
    }
    eventOffset = static_cast<int32_t>(std::min<uint32_t>(events[next].frame, INT32_MAX));
    handleMidi(events[next], frameCounter + static_cast<uint64_t>(at));
    ++next;
  }
  segmentOffset = base + at;
  if (frames > at) pace.beforeStretch(frames - at);
  renderVoices(left + at, right + at, frames - at);
  frameCounter += static_cast<uint64_t>(frames);
}

void Engine::Impl::renderVoices(float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  if (frames <= 0) return;
  bool soloActive = false;
  for (const Part& p : parts) soloActive = soloActive || p.solo;
  std::array<PartMix, limits::kChannels> mixes{};
  for (size_t i = 0; i < parts.size(); ++i) mixes[i] = makePartMix(parts[i], soloActive);
  const dsp::SincInterpolator* sinc = quality == Quality::SincHigh ? sinc16.get() : sinc8.get();
  RenderContext ctx{&scratch, quality, sinc, 0, sinc8.get(), sinc16.get()};
  sortVoicesByPart();
  for (int p = 0; p < limits::kChannels; ++p) {
    const auto begin = partBegin[static_cast<size_t>(p)], end = partBegin[static_cast<size_t>(p) + 1];
    if (begin == end) continue;
    std::fill_n(partLeft.begin(), frames, 0.0f);
    std::fill_n(partRight.begin(), frames, 0.0f);
    for (int i = begin; i < end; ++i) {
      Voice& v = pool.activeVoice(byPart[static_cast<size_t>(i)]);
      if (noteStartsPending > 0) markFirstRender(v);
      v.render(partLeft.data(), partRight.data(), frames, mixes[static_cast<size_t>(p)], ctx);
    }
    mixPart(p, left, right, frames);
  }
  underruns += ctx.underruns;
  pool.collectFinished();
}

// Counting sort of the active voices by part, stable (start order kept within a part),
// O(voices + parts).
void Engine::Impl::sortVoicesByPart() noexcept SPINDLE_REALTIME {
  std::array<int, limits::kChannels> next{};
  for (int i = 0; i < pool.activeCount(); ++i) ++next[static_cast<size_t>(pool.activeVoice(i).part())];
  int at = 0;
  for (size_t p = 0; p < next.size(); ++p) {
    partBegin[p] = at;
    at += std::exchange(next[p], at);
  }
  partBegin[next.size()] = at;
  for (int i = 0; i < pool.activeCount(); ++i) {
    int& slot = next[static_cast<size_t>(pool.activeVoice(i).part())];
    byPart[static_cast<size_t>(slot++)] = i;
  }
}

void Engine::Impl::clearPartOutputs(int base, int frames) noexcept SPINDLE_REALTIME {
  for (const StereoOut& out : *partOutputs) {
    if (!out.left || !out.right) continue;
    std::fill_n(out.left + base, frames, 0.0f);
    std::fill_n(out.right + base, frames, 0.0f);
  }
}

// Adds the part's mix to the output (its own, when the call gave it one: the segment
// starts at segmentOffset there) and raises its peak for this call.
void Engine::Impl::mixPart(int part, float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  if (partOutputs) {
    const StereoOut& own = (*partOutputs)[static_cast<size_t>(part)];
    if (own.left && own.right) {
      left = own.left + segmentOffset;
      right = own.right + segmentOffset;
    }
  }
  float peak = partPeak[static_cast<size_t>(part)];
  for (int f = 0; f < frames; ++f) {
    const auto i = static_cast<size_t>(f);
    left[f] += partLeft[i];
    right[f] += partRight[i];
    peak = std::max(peak, std::max(std::fabs(partLeft[i]), std::fabs(partRight[i])));
  }
  partPeak[static_cast<size_t>(part)] = peak;
}

void Engine::setTempo(float bpm) noexcept SPINDLE_REALTIME { impl_->setTempo(bpm); }

std::span<const NoteStart> Engine::noteStarts() const noexcept SPINDLE_REALTIME {
  return {impl_->noteStartList.data(), static_cast<size_t>(impl_->noteStartCount)};
}

// Opens the note-start entry of a note-on; a full list (more note-ons in one call than
// kMaxEventsPerBlock, outside the process() contract) leaves the note unrecorded.
void Engine::Impl::openNoteStart(int part, int key, int velocity) noexcept SPINDLE_REALTIME {
  openStart = -1;
  if (noteStartCount >= static_cast<int>(noteStartList.size())) return;
  openStart = noteStartCount++;
  NoteStart& n = noteStartList[static_cast<size_t>(openStart)];
  n = NoteStart{eventOffset, -1, 0, static_cast<uint8_t>(part), static_cast<uint8_t>(key),
                static_cast<uint8_t>(velocity)};
  noteStartVoice[static_cast<size_t>(openStart)] = nullptr;
}

// Called for every voice about to render while some note-on's first voice has not
// rendered yet: stamps those entries with the frame this segment starts at.
void Engine::Impl::markFirstRender(const Voice& v) noexcept SPINDLE_REALTIME {
  for (int i = noteStartCount - 1; i >= 0 && noteStartsPending > 0; --i) {
    const auto k = static_cast<size_t>(i);
    if (noteStartVoice[k] != &v || noteStartList[k].firstOffset >= 0) continue;
    noteStartList[k].firstOffset = segmentOffset;
    --noteStartsPending;
  }
}

void Engine::Impl::publishStats(int frames) noexcept SPINDLE_REALTIME {
  const auto active = static_cast<uint32_t>(pool.activeCount());
  peakVoices = std::max(peakVoices, active);
  shared.activeVoices.store(active, std::memory_order_relaxed);
  shared.peakVoices.store(peakVoices, std::memory_order_relaxed);
  shared.framesRendered.fetch_add(static_cast<uint64_t>(frames), std::memory_order_relaxed);
  shared.notesStarted.store(notesStarted, std::memory_order_relaxed);
  shared.voicesStolen.store(voicesStolen, std::memory_order_relaxed);
  shared.sourceUnderruns.store(underruns, std::memory_order_relaxed);
  publishPartStats();
}

// Voice counts after this call's finished voices left, the call's peaks, and the held
// keys from Part::keyDown (the note-ons and note-offs the engine actually took).
void Engine::Impl::publishPartStats() noexcept SPINDLE_REALTIME {
  std::array<uint32_t, limits::kChannels> voices{};
  for (int i = 0; i < pool.activeCount(); ++i) ++voices[static_cast<size_t>(pool.activeVoice(i).part())];
  for (size_t p = 0; p < parts.size(); ++p) {
    std::array<uint64_t, 2> held{};
    for (size_t k = 0; k < 128; ++k) held[k >> 6] |= static_cast<uint64_t>(parts[p].keyDown[k]) << (k & 63);
    shared.partVoices[p].store(voices[p], std::memory_order_relaxed);
    shared.partPeak[p].store(partPeak[p], std::memory_order_relaxed);
    shared.heldKeys[p][0].store(held[0], std::memory_order_relaxed);
    shared.heldKeys[p][1].store(held[1], std::memory_order_relaxed);
    shared.partProgram[p].store(parts[p].program, std::memory_order_relaxed);
    if (const Program* program = parts[p].program) {
      for (const uint16_t cc : program->publishedControllers)
        shared.controllers[p][cc].store(parts[p].controllers.value(cc), std::memory_order_relaxed);
    }
  }
}

void Engine::Impl::drainCommands() noexcept SPINDLE_REALTIME {
  Command c;
  while (pendingCount + kPendingReserve <= kPendingCapacity && commands.tryPop(c)) {
    ++commandsTaken;
    apply(c);
  }
}

void Engine::Impl::apply(const Command& c) noexcept SPINDLE_REALTIME {
  const bool partOk = c.part >= 0 && c.part < limits::kChannels;
  Part* part = partOk ? &parts[static_cast<size_t>(c.part)] : nullptr;
  switch (c.type) {
    case CommandType::SetProgram: if (part) setPartProgram(c.part, c.program, -1); break;
    case CommandType::SetPartVolume: if (part) part->volumeDb = c.value; break;
    case CommandType::SetPartPan: if (part) part->pan = std::clamp(c.value, -1.0f, 1.0f); break;
    case CommandType::SetPartMute: if (part) part->mute = c.flag; break;
    case CommandType::SetPartSolo: if (part) part->solo = c.flag; break;
    case CommandType::SetPolyphony: pool.setLimit(c.count); break;
    case CommandType::SetQuality: quality = static_cast<Quality>(std::clamp(c.count, 0, 3)); break;
    case CommandType::Panic:
      for (int p = 0; p < limits::kChannels; ++p) allSoundOff(p);
      break;
    case CommandType::SetSlotProgram: setSlot(c.count, c.program); break;
    case CommandType::SelectSlot: if (part) selectSlot(c.part, c.count); break;
    case CommandType::SetTempo: setTempo(c.value); break;
  }
}

void Engine::Impl::setSlot(int slot, const Program* p) noexcept SPINDLE_REALTIME {
  if (slot < 0 || slot >= limits::kProgramSlots) return;
  const Program* old = slots[static_cast<size_t>(slot)];
  slots[static_cast<size_t>(slot)] = p;
  for (int i = 0; i < limits::kChannels; ++i) {
    if (parts[static_cast<size_t>(i)].slot == slot) setPartProgram(i, p, slot);
  }
  letGo(old);
}

// Program change: an empty slot leaves the part as it is.
void Engine::Impl::selectSlot(int part, int slot) noexcept SPINDLE_REALTIME {
  if (slot < 0 || slot >= limits::kProgramSlots || !slots[static_cast<size_t>(slot)]) return;
  setPartProgram(part, slots[static_cast<size_t>(slot)], slot);
}

void Engine::Impl::setPartProgram(int part, const Program* p, int slot) noexcept SPINDLE_REALTIME {
  Part& target = parts[static_cast<size_t>(part)];
  const Program* old = target.program;
  if (old == p) {
    target.slot = slot;
    return;
  }
  target.setProgram(p, slot);
  pedalsMoved(part, -1, frameCounter);  // set_cc defaults may have moved a pedal
  letGo(old);
}

bool Engine::Impl::attached(const Program* p) const noexcept SPINDLE_REALTIME {
  for (const Part& part : parts) {
    if (part.program == p) return true;
  }
  for (const Program* s : slots) {
    if (s == p) return true;
  }
  return false;
}

// A part or slot stopped referring to p: if nothing else does, p waits in `pending`
// for its voices to end (flushPending).
void Engine::Impl::letGo(const Program* p) noexcept SPINDLE_REALTIME {
  if (!p || attached(p)) return;
  for (int i = 0; i < pendingCount; ++i) {
    if (pending[static_cast<size_t>(i)] == p) return;
  }
  if (pendingCount < kPendingCapacity) pending[static_cast<size_t>(pendingCount++)] = p;
}

// Hands pending Programs with no voice left to the trash FIFO; drops the ones that
// were attached again meanwhile. A full trash keeps them pending until collected.
void Engine::Impl::flushPending() noexcept SPINDLE_REALTIME {
  int kept = 0;
  for (int i = 0; i < pendingCount; ++i) {
    const Program* p = pending[static_cast<size_t>(i)];
    const bool gone = attached(p) || (!pool.uses(p) && trash.tryPush({p, commandsTaken}));
    if (!gone) pending[static_cast<size_t>(kept++)] = p;
  }
  pendingCount = kept;
}

// ---- control thread -------------------------------------------------------

bool Engine::postCommand(const Command& command) noexcept {
  Impl& s = *impl_;
  if (!s.commands.tryPush(command)) {
    s.shared.commandsDropped.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  ++s.commandsPosted;  // this command is the commandsPosted-th the audio thread takes
  const bool lends = command.type == CommandType::SetProgram || command.type == CommandType::SetSlotProgram;
  if (lends && command.program) s.lastPosted[command.program] = s.commandsPosted;
  return true;
}

// A pointer let go of before the audio thread took a later post of it is attached
// again (or will be): it is not disposed now and comes back when that use ends.
void Engine::collectGarbage(const ProgramDisposer& dispose) {
  Impl& s = *impl_;
  Impl::Retired r;
  while (s.trash.tryPop(r)) {
    const auto it = s.lastPosted.find(r.program);
    if (it != s.lastPosted.end() && it->second > r.commandsTaken) continue;
    if (it != s.lastPosted.end()) s.lastPosted.erase(it);
    if (dispose) dispose(r.program);
  }
}

void Engine::collectGarbage() {
  collectGarbage([](const Program* p) { delete p; });
}

void Engine::collectAllPrograms(const ProgramDisposer& dispose) {
  Impl& s = *impl_;
  std::vector<const Program*> all;
  const auto add = [&all](const Program* p) {
    if (p && std::find(all.begin(), all.end(), p) == all.end()) all.push_back(p);
  };
  for (Part& part : s.parts) {
    add(part.program);
    part.setProgram(nullptr, -1);
  }
  for (const Program*& slot : s.slots) add(std::exchange(slot, nullptr));
  for (int i = 0; i < s.pendingCount; ++i) add(s.pending[static_cast<size_t>(i)]);
  s.pendingCount = 0;
  for (int i = 0; i < s.pool.activeCount(); ++i) {
    add(s.pool.activeVoice(i).program());
    s.pool.activeVoice(i).kill();
  }
  s.pool.collectFinished();
  Impl::Retired r;
  while (s.trash.tryPop(r)) add(r.program);
  Command c;  // never taken: the audio thread has stopped, so this thread may pop
  while (s.commands.tryPop(c)) add(c.program);
  s.lastPosted.clear();
  for (const Program* q : all) {
    if (dispose) dispose(q);
  }
}

float Engine::controllerValue(int part, int cc) const noexcept {
  if (part < 0 || part >= limits::kChannels || cc < 0 || cc >= controllers::kCount) return 0.0f;
  return impl_->shared.controllers[static_cast<size_t>(part)][static_cast<size_t>(cc)].load(std::memory_order_relaxed);
}

EngineStats Engine::stats() const noexcept {
  const auto& sh = impl_->shared;
  EngineStats st;
  st.activeVoices = sh.activeVoices.load(std::memory_order_relaxed);
  st.peakVoices = sh.peakVoices.load(std::memory_order_relaxed);
  st.framesRendered = sh.framesRendered.load(std::memory_order_relaxed);
  st.notesStarted = sh.notesStarted.load(std::memory_order_relaxed);
  st.voicesStolen = sh.voicesStolen.load(std::memory_order_relaxed);
  st.commandsDropped = sh.commandsDropped.load(std::memory_order_relaxed);
  st.sourceUnderruns = sh.sourceUnderruns.load(std::memory_order_relaxed);
  for (size_t p = 0; p < st.parts.size(); ++p) {
    PartStats& part = st.parts[p];
    part.voices = sh.partVoices[p].load(std::memory_order_relaxed);
    part.peak = sh.partPeak[p].load(std::memory_order_relaxed);
    part.heldKeys = {sh.heldKeys[p][0].load(std::memory_order_relaxed), sh.heldKeys[p][1].load(std::memory_order_relaxed)};
    part.program = sh.partProgram[p].load(std::memory_order_relaxed);
  }
  return st;
}

}  // namespace spindle::engine
