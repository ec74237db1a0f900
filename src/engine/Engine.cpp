// Engine: construction, commands and Program lifetimes. The process() loop is in
// EngineRender.cpp, MIDI semantics in EngineMidi.cpp.
#include "engine/Engine.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "core/PartEffects.h"
#include "engine/EngineImpl.h"

namespace spindle::engine {

bool sincWanted(const Program& program, Quality quality) noexcept {
  if (quality == Quality::Sinc || quality == Quality::SincHigh) return true;
  const auto& regions = program.regions;
  return std::any_of(regions.begin(), regions.end(), [](const Region& r) { return r.sampleQuality >= 3; });
}

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
      routedLeft(static_cast<size_t>(config.maxBlockFrames)),
      routedRight(static_cast<size_t>(config.maxBlockFrames)),
      byPart(static_cast<size_t>(pool.capacity())),
      effects(config.sampleRate, config.maxBlockFrames, config.effects) {
  parts[limits::kPercussionPart].percussion = true;
  for (auto& send : partSend) send.assign(static_cast<size_t>(config.maxBlockFrames), 0.0f);
  for (size_t n = 0; n < fxLeft.size(); ++n) {
    fxLeft[n].assign(static_cast<size_t>(config.maxBlockFrames), 0.0f);
    fxRight[n].assign(static_cast<size_t>(config.maxBlockFrames), 0.0f);
    fxInputs.left[n] = fxLeft[n].data();
    fxInputs.right[n] = fxRight[n].data();
    fadeFxLeft[n].assign(static_cast<size_t>(config.maxBlockFrames), 0.0f);
    fadeFxRight[n].assign(static_cast<size_t>(config.maxBlockFrames), 0.0f);
    fadeInputs.left[n] = fadeFxLeft[n].data();
    fadeInputs.right[n] = fadeFxRight[n].data();
  }
  fadeLeft.assign(static_cast<size_t>(config.maxBlockFrames), 0.0f);
  fadeRight.assign(static_cast<size_t>(config.maxBlockFrames), 0.0f);
}

Engine::Engine(const EngineConfig& config) : impl_(std::make_unique<Impl>(config)) {}
Engine::~Engine() = default;

const EngineConfig& Engine::config() const noexcept { return impl_->config; }

void Engine::Impl::drainCommands() noexcept SPINDLE_REALTIME {
  Command c;
  while (pendingCount + kPendingReserve <= kPendingCapacity && commands.tryPop(c)) {
    ++commandsTaken;
    apply(c);
  }
  // After the copies SetPartTuning made: the control side may free those tables now.
  commandsTakenShared.store(commandsTaken, std::memory_order_release);
}

void Engine::Impl::apply(const Command& c) noexcept SPINDLE_REALTIME {
  const bool partOk = c.part >= 0 && c.part < limits::kEngineParts;
  Part* part = partOk ? &parts[static_cast<size_t>(c.part)] : nullptr;
  switch (c.type) {
    case CommandType::SetProgram: if (part) setPartProgram(c.part, c.program, -1); break;
    case CommandType::SetPartVolume: if (part) part->volumeDb = c.value; break;
    case CommandType::SetPartPan: if (part) part->pan = std::clamp(c.value, -1.0f, 1.0f); break;
    case CommandType::SetPartMute: if (part) part->mute = c.flag; break;
    case CommandType::SetPartSolo: if (part) part->solo = c.flag; break;
    case CommandType::SetPolyphony: pool.setLimit(c.count); break;
    case CommandType::SetMpeZone: configureZone(c.flag, c.count); break;
    case CommandType::SetQuality: quality = static_cast<Quality>(std::clamp(c.count, 0, 3)); break;
    case CommandType::Panic:
      for (int p = 0; p < limits::kEngineParts; ++p) allSoundOff(p);
      break;
    case CommandType::PreviewNote: previewNote(c.count, static_cast<int>(c.value)); break;
    case CommandType::SelectPreset:
      if (part) {
        part->bank = std::clamp(c.count / 128, 0, 128);
        part->programNumber = std::clamp(c.count % 128, 0, 127);
        part->choosePreset();
      }
      break;
    case CommandType::SetSlotProgram: setSlot(c.count, c.program); break;
    case CommandType::SelectSlot: if (part) selectSlot(c.part, c.count); break;
    case CommandType::SetTempo:
      tempoState.set(c.value);
      refreshTempo();
      break;
    case CommandType::SetEffect:
      if (c.count >= 0 && c.count < static_cast<int32_t>(kEffectParams))
        effects.set(static_cast<EffectParam>(c.count), c.value);
      break;
    case CommandType::SetPartTuning: if (part && c.tuning) part->tuning = *c.tuning; break;
    case CommandType::SetPartEffectBypass:
      if (part) part->effectBypass = withEffectBypass(part->effectBypass, c.count, c.flag);
      break;
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
  target.effectBypass = 0;
  if (p && p->buses) p->buses->start(part, &target.controllers, config.sampleRate);
  startBusFade(part, old, p);
  pedalsMoved(part, -1, frameCounter);  // set_cc defaults may have moved a pedal
  letGo(old);
}

// The preview part's notes come as commands, not MIDI: no note start is recorded (the
// live latency figures pair note starts with MIDI events).
void Engine::Impl::previewNote(int key, int velocity) noexcept SPINDLE_REALTIME {
  if (key < 0) return allSoundOff(limits::kPreviewPart);
  if (key > 127) return;
  if (velocity <= 0) return noteOff(limits::kPreviewPart, key, frameCounter);
  ++previewNotes;
  noteOn(limits::kPreviewPart, key, std::min(velocity, 127), frameCounter);
}

bool Engine::Impl::attached(const Program* p) const noexcept SPINDLE_REALTIME {
  for (const Part& part : parts) {
    if (part.program == p || part.busFadeFrom == p) return true;
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
    add(std::exchange(part.busFadeFrom, nullptr));
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

EngineStats Engine::stats() const noexcept SPINDLE_REALTIME {
  const auto& sh = impl_->shared;
  EngineStats st;
  st.activeVoices = sh.activeVoices.load(std::memory_order_relaxed);
  st.peakVoices = sh.peakVoices.load(std::memory_order_relaxed);
  st.framesRendered = sh.framesRendered.load(std::memory_order_relaxed);
  st.notesStarted = sh.notesStarted.load(std::memory_order_relaxed);
  st.voicesStolen = sh.voicesStolen.load(std::memory_order_relaxed);
  st.commandsDropped = sh.commandsDropped.load(std::memory_order_relaxed);
  st.sourceUnderruns = sh.sourceUnderruns.load(std::memory_order_relaxed);
  st.effectsSounding = sh.effectsSounding.load(std::memory_order_relaxed);
  st.tailFrames = sh.tailFrames.load(std::memory_order_relaxed);
  st.tempo = sh.tempo.load(std::memory_order_relaxed);
  st.tempoSource = sh.tempoSource.load(std::memory_order_relaxed);
  st.mpeLower = sh.mpeLower.load(std::memory_order_relaxed);
  st.mpeUpper = sh.mpeUpper.load(std::memory_order_relaxed);
  for (size_t c = 0; c < st.mpeNotes.size(); ++c) {
    NoteExpressionStats& note = st.mpeNotes[c];
    note.key = sh.mpeKey[c].load(std::memory_order_relaxed) - 1;
    note.bendCents = sh.mpeValues[c][0].load(std::memory_order_relaxed);
    note.pressure = sh.mpeValues[c][1].load(std::memory_order_relaxed);
    note.timbre = sh.mpeValues[c][2].load(std::memory_order_relaxed);
  }
  for (size_t p = 0; p < st.parts.size(); ++p) {
    PartStats& part = st.parts[p];
    part.voices = sh.partVoices[p].load(std::memory_order_relaxed);
    part.peak = sh.partPeak[p].load(std::memory_order_relaxed);
    part.heldKeys = {sh.heldKeys[p][0].load(std::memory_order_relaxed), sh.heldKeys[p][1].load(std::memory_order_relaxed)};
    part.program = sh.partProgram[p].load(std::memory_order_relaxed);
    part.effectBypass = sh.partBypass[p].load(std::memory_order_relaxed);
  }
  const auto q = static_cast<size_t>(limits::kPreviewPart);
  st.preview.voices = sh.partVoices[q].load(std::memory_order_relaxed);
  st.preview.peak = sh.partPeak[q].load(std::memory_order_relaxed);
  st.preview.heldKeys = {sh.heldKeys[q][0].load(std::memory_order_relaxed), sh.heldKeys[q][1].load(std::memory_order_relaxed)};
  st.preview.program = sh.partProgram[q].load(std::memory_order_relaxed);
  st.previewNotes = sh.previewNotes.load(std::memory_order_relaxed);
  return st;
}

}  // namespace spindle::engine
