// Engine: the process() loop. A block is rendered in stretches between its events (each
// event applied at its frame), the voices of each part into the part's buffer, then
// mixed; the stats and note starts are published for the control side. Construction,
// commands and Program lifetimes are in Engine.cpp, MIDI semantics in EngineMidi.cpp.
#include "engine/Engine.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "engine/EngineImpl.h"
#include "rt/StreamBank.h"

namespace spindle::engine {

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
  checkClock();
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
  tempoState.endCall();  // the transport's tempo holds for this call only
  refreshTempo();
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
  blockBase = base;
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
    eventCut = true;
    ++next;
  }
  segmentOffset = base + at;
  if (frames > at) pace.beforeStretch(frames - at);
  renderVoices(left + at, right + at, frames - at);
  effects.render(left, right, frames);
  songBeats = beatAt(frameCounter + static_cast<uint64_t>(frames));
  frameCounter += static_cast<uint64_t>(frames);
}

void Engine::Impl::renderVoices(float* left, float* right, int frames) noexcept SPINDLE_REALTIME {
  if (frames <= 0) return;
  bool soloActive = false;
  for (const Part& p : parts) soloActive = soloActive || p.solo;
  std::array<PartMix, limits::kEngineParts> mixes{};
  for (size_t i = 0; i < parts.size(); ++i) mixes[i] = makePartMix(parts[i], soloActive && i < limits::kChannels);
  const dsp::SincInterpolator* sinc = quality == Quality::SincHigh ? sinc16.get() : sinc8.get();
  RenderContext ctx{&scratch, quality, sinc, 0, sinc8.get(), sinc16.get()};
  ctx.cut = std::exchange(eventCut, false);
  for (size_t b = 0; b < partSend.size(); ++b)
    ctx.sends[b] = effects.input(static_cast<SendBus>(b)) ? partSend[b].data() : nullptr;
  sortVoicesByPart();
  for (int p = 0; p < limits::kEngineParts; ++p) {
    const auto begin = partBegin[static_cast<size_t>(p)], end = partBegin[static_cast<size_t>(p) + 1];
    if (begin == end) {
      endBusFade(p);  // nothing sounds through either program's buses
      if (busTailSounds(p)) runBusTail(p, ctx, left, right, frames);
      continue;
    }
    std::fill_n(partLeft.begin(), frames, 0.0f);
    std::fill_n(partRight.begin(), frames, 0.0f);
    const Part& part = parts[static_cast<size_t>(p)];
    const bool buses = (part.program && part.program->buses) || part.busFadeFrom;
    ctx.fxLeft = buses ? fxInputs.left : decltype(ctx.fxLeft){};
    ctx.fxRight = buses ? fxInputs.right : decltype(ctx.fxRight){};
    renderPartVoices(p, mixes[static_cast<size_t>(p)], ctx, frames);
    if (buses) runPartBuses(p, ctx, frames);
    mixPart(p, left, right, frames);
    sendPart(ctx, frames);
  }
  underruns += ctx.underruns;
  pool.collectFinished();
}

// Part p's voices into partLeft/partRight: an MPE note's with its own mix (noteMix).
void Engine::Impl::renderPartVoices(int p, const PartMix& partMix, RenderContext& ctx, int frames) noexcept
    SPINDLE_REALTIME {
  const auto begin = partBegin[static_cast<size_t>(p)], end = partBegin[static_cast<size_t>(p) + 1];
  for (int i = begin; i < end; ++i) {
    Voice& v = pool.activeVoice(byPart[static_cast<size_t>(i)]);
    if (noteStartsPending > 0) markFirstRender(v);
    const PartMix mix = v.expression() < 0 ? partMix : noteMix(partMix, p, v.expression());
    if (const StereoOut* out = partOutputs ? routedOutput(p, v) : nullptr) {
      renderRouted(v, *out, mix, ctx, frames);
    } else {
      v.render(partLeft.data(), partRight.data(), frames, mix, ctx);
    }
  }
}

// output=N: the voice plays to the output pair N after its part's own (part p's voices
// to part p + N's output), when this call gives that part an output; otherwise with its
// part. Such a voice is not part of its part's mix: the part's bus effects and peak do
// not see it (its effect1..4 sends still reach the part's fx buses).
const StereoOut* Engine::Impl::routedOutput(int part, const Voice& v) const noexcept SPINDLE_REALTIME {
  const Region* r = v.region();
  if (!r || r->output <= 0 || r->output >= limits::kChannels - part) return nullptr;
  const StereoOut& out = (*partOutputs)[static_cast<size_t>(part + r->output)];
  return out.left && out.right ? &out : nullptr;
}

void Engine::Impl::renderRouted(Voice& v, const StereoOut& out, const PartMix& mix, RenderContext& ctx,
                                int frames) noexcept SPINDLE_REALTIME {
  std::fill_n(routedLeft.begin(), frames, 0.0f);
  std::fill_n(routedRight.begin(), frames, 0.0f);
  v.render(routedLeft.data(), routedRight.data(), frames, mix, ctx);
  for (int f = 0; f < frames; ++f) {
    out.left[segmentOffset + f] += routedLeft[static_cast<size_t>(f)];
    out.right[segmentOffset + f] += routedRight[static_cast<size_t>(f)];
  }
}

// Counting sort of the active voices by part, stable (start order kept within a part),
// O(voices + parts).
void Engine::Impl::sortVoicesByPart() noexcept SPINDLE_REALTIME {
  std::array<int, limits::kEngineParts> next{};
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

// Adds the part's send buses its voices wrote to the effects' inputs, at the segment's
// frame in the block, and empties them for the next part.
void Engine::Impl::sendPart(RenderContext& ctx, int frames) noexcept SPINDLE_REALTIME {
  for (size_t b = 0; b < partSend.size(); ++b) {
    if (!std::exchange(ctx.sent[b], false)) continue;
    const auto bus = static_cast<SendBus>(b);
    float* in = effects.input(bus) + (segmentOffset - blockBase);
    float* send = partSend[b].data();
    for (int f = 0; f < frames; ++f) in[f] += send[f];
    std::fill_n(send, frames, 0.0f);
    effects.fed(bus);
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
  if (partOutputs && part < limits::kChannels) {  // the preview part: always the main pair
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

void Engine::setSongTempo(float bpm) noexcept SPINDLE_REALTIME {
  impl_->tempoState.setSong(bpm);
  impl_->refreshTempo();
}

std::span<const NoteStart> Engine::noteStarts() const noexcept SPINDLE_REALTIME {
  return {impl_->noteStartList.data(), static_cast<size_t>(impl_->noteStartCount)};
}

// Opens the note-start entry of a note-on; a full list (more note-ons in one call than
// kMaxEventsPerBlock, outside the process() contract) leaves the note unrecorded.
void Engine::Impl::openNoteStart(int channel, int key, int velocity) noexcept SPINDLE_REALTIME {
  openStart = -1;
  if (noteStartCount >= static_cast<int>(noteStartList.size())) return;
  openStart = noteStartCount++;
  NoteStart& n = noteStartList[static_cast<size_t>(openStart)];
  n = NoteStart{eventOffset, -1, 0, static_cast<uint8_t>(channel), static_cast<uint8_t>(key),
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
  bool tails = false;
  int tail = effects.memoryFrames();
  for (int p = 0; p < limits::kEngineParts; ++p) {
    tails = tails || busTailSounds(p);
    if (const Program* program = parts[static_cast<size_t>(p)].program; program && program->buses)
      tail = std::max(tail, program->buses->memoryFrames(p));
  }
  shared.effectsSounding.store(effects.sounding() || tails, std::memory_order_relaxed);
  shared.tailFrames.store(tail, std::memory_order_relaxed);
  shared.tempo.store(tempo, std::memory_order_relaxed);
  shared.tempoSource.store(tempoState.source(), std::memory_order_relaxed);
  shared.mpeLower.store(mpe.members(false), std::memory_order_relaxed);
  shared.mpeUpper.store(mpe.members(true), std::memory_order_relaxed);
  shared.previewNotes.store(previewNotes, std::memory_order_relaxed);
  publishMpeNotes();
  publishPartStats();
}

// Voice counts after this call's finished voices left, the call's peaks, and the held
// keys from Part::keyDown (the note-ons and note-offs the engine actually took).
void Engine::Impl::publishPartStats() noexcept SPINDLE_REALTIME {
  std::array<uint32_t, limits::kEngineParts> voices{};
  for (int i = 0; i < pool.activeCount(); ++i) ++voices[static_cast<size_t>(pool.activeVoice(i).part())];
  for (size_t p = 0; p < parts.size(); ++p) {
    std::array<uint64_t, 2> held{};
    for (size_t k = 0; k < 128; ++k) held[k >> 6] |= static_cast<uint64_t>(parts[p].keyDown[k]) << (k & 63);
    shared.partVoices[p].store(voices[p], std::memory_order_relaxed);
    shared.partPeak[p].store(partPeak[p], std::memory_order_relaxed);
    shared.heldKeys[p][0].store(held[0], std::memory_order_relaxed);
    shared.heldKeys[p][1].store(held[1], std::memory_order_relaxed);
    shared.partProgram[p].store(parts[p].program, std::memory_order_relaxed);
    shared.partBypass[p].store(parts[p].effectBypass, std::memory_order_relaxed);
    for (const uint16_t cc : {controllers::kReverbSend, controllers::kChorusSend})  // every part's sends
      shared.controllers[p][cc].store(parts[p].controllers.value(cc), std::memory_order_relaxed);
    if (const Program* program = parts[p].program) {
      for (const uint16_t cc : program->publishedControllers)
        shared.controllers[p][cc].store(parts[p].controllers.value(cc), std::memory_order_relaxed);
    }
  }
}

}  // namespace spindle::engine
