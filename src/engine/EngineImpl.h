#pragma once
// Engine::Impl: the audio thread's state. Private to src/engine.
//
//   Engine.cpp       construction, commands, Program lifetimes
//   EngineRender.cpp the process() loop: stretches between events, parts, mixing, stats
//   EngineMidi.cpp   MIDI semantics: notes, the controller slots notes write
//   EngineControllers.cpp  controllers, pedals, controller-started regions
//   EngineTempo.cpp  the tempo: its sources and the MIDI clock
//   EngineBuses.cpp  the parts' SFZ effect buses and their crossfade on a program change
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <unordered_map>
#include <vector>

#include "core/Limits.h"
#include "core/MidiEvent.h"
#include "core/Realtime.h"
#include "engine/Engine.h"
#include "engine/parts/Expression.h"
#include "engine/parts/Part.h"
#include "engine/voices/Random.h"
#include "engine/MidiClock.h"
#include "engine/parts/RegionMatcher.h"
#include "engine/Tempo.h"
#include "engine/voices/VoicePool.h"
#include "engine/dsp/Interpolators.h"
#include "rt/SpscFifo.h"

namespace spindle::engine {

// A sinc table with `halfTaps` taps a side when the config asks for them, else null.
inline std::unique_ptr<const dsp::SincInterpolator> sincTable(const EngineConfig& config, int halfTaps) {
  return config.sincTables ? std::make_unique<const dsp::SincInterpolator>(halfTaps) : nullptr;
}

struct Engine::Impl {
  static constexpr size_t kCommandCapacity = 256;
  static constexpr size_t kTrashCapacity = 256;
  // Programs let go of by every part and slot, waiting for their last voice to end.
  // The audio thread takes commands only while this has room for a full batch of
  // releases (each command releases at most 2 pointers, each program change 1, and a
  // pointer is here at most once), so it never overflows.
  static constexpr int kPendingCapacity = 512;
  static constexpr int kPendingReserve = 2 + limits::kChannels;

  explicit Impl(const EngineConfig& c);

  // ---- audio thread ----
  template <class Pace>
  void process(Pace pace, const MidiEvent* events, int eventCount, float* left, float* right, int frames) noexcept
      SPINDLE_REALTIME_IF(Pace::kRealtime);
  template <class Pace>
  void renderBlock(Pace pace, const MidiEvent* events, int eventCount, int& next, bool last, float* left,
                   float* right, int base, int frames) noexcept SPINDLE_REALTIME_IF(Pace::kRealtime);
  void renderVoices(float* left, float* right, int frames) noexcept SPINDLE_REALTIME;
  void renderPartVoices(int part, const PartMix& partMix, RenderContext& ctx, int frames) noexcept SPINDLE_REALTIME;
  void sortVoicesByPart() noexcept SPINDLE_REALTIME;
  void mixPart(int part, float* left, float* right, int frames) noexcept SPINDLE_REALTIME;
  void clearPartOutputs(int base, int frames) noexcept SPINDLE_REALTIME;
  const StereoOut* routedOutput(int part, const Voice& v) const noexcept SPINDLE_REALTIME;
  void renderRouted(Voice& v, const StereoOut& out, const PartMix& mix, RenderContext& ctx, int frames) noexcept
      SPINDLE_REALTIME;
  void sendPart(RenderContext& ctx, int frames) noexcept SPINDLE_REALTIME;
  // EngineBuses.cpp
  void runPartBuses(int part, RenderContext& ctx, int frames) noexcept SPINDLE_REALTIME;
  bool busTailSounds(int part) const noexcept SPINDLE_REALTIME;
  void runBusTail(int part, RenderContext& ctx, float* left, float* right, int frames) noexcept SPINDLE_REALTIME;
  void mixBuses(const Program* program, int part, float* left, float* right, FxBusInputs& fx, int frames,
                bool cut) noexcept SPINDLE_REALTIME;
  void crossfadeBuses(int part, int frames, bool cut) noexcept SPINDLE_REALTIME;
  void startBusFade(int part, const Program* from, const Program* to) noexcept SPINDLE_REALTIME;
  void endBusFade(int part) noexcept SPINDLE_REALTIME;
  void publishPartStats() noexcept SPINDLE_REALTIME;
  void publishMpeNotes() noexcept SPINDLE_REALTIME;
  void publishStats(int frames) noexcept SPINDLE_REALTIME;
  void openNoteStart(int channel, int key, int velocity) noexcept SPINDLE_REALTIME;
  void markFirstRender(const Voice& v) noexcept SPINDLE_REALTIME;

  void drainCommands() noexcept SPINDLE_REALTIME;
  void apply(const Command& c) noexcept SPINDLE_REALTIME;
  void setSlot(int slot, const Program* p) noexcept SPINDLE_REALTIME;
  void selectSlot(int part, int slot) noexcept SPINDLE_REALTIME;
  void setPartProgram(int part, const Program* p, int slot) noexcept SPINDLE_REALTIME;
  void previewNote(int key, int velocity) noexcept SPINDLE_REALTIME;  // CommandType::PreviewNote
  void letGo(const Program* p) noexcept SPINDLE_REALTIME;
  bool attached(const Program* p) const noexcept SPINDLE_REALTIME;
  void flushPending() noexcept SPINDLE_REALTIME;

  // EngineMidi.cpp
  void handleMidi(const MidiEvent& e, uint64_t frame) noexcept SPINDLE_REALTIME;
  // slot: the note's expression slot (an MPE member channel), -1 for the part's own notes.
  void noteOn(int part, int key, int velocity, uint64_t frame, int slot = -1) noexcept SPINDLE_REALTIME;
  void noteOff(int part, int key, uint64_t frame, int velocity = 0, int slot = -1) noexcept SPINDLE_REALTIME;
  void writeNoteControllers(Part& part, int key, int velocity) noexcept SPINDLE_REALTIME;
  void startExpression(NoteExpression& own, const Part& part, size_t key, int slot, NoteContext& note) noexcept
      SPINDLE_REALTIME;
  void pitchBend(int part, int value) noexcept SPINDLE_REALTIME;
  void polyPressure(int part, int key, int value) noexcept SPINDLE_REALTIME;
  // keyReleases: trigger=release_key regions start; pedalReleases: trigger=release ones.
  void fireReleaseTriggers(int part, int key, uint64_t frame, bool keyReleases, bool pedalReleases,
                           int slot = -1) noexcept SPINDLE_REALTIME;
  void startRegions(int part, const NoteContext& note, uint64_t frame) noexcept SPINDLE_REALTIME;
  void startFound(int part, const NoteContext& note, const Region* const* found, int count, uint64_t frame) noexcept
      SPINDLE_REALTIME;
  void startVoice(int part, const NoteContext& note, const Region& r, float extraDb, uint64_t frame) noexcept
      SPINDLE_REALTIME;

  // EngineMpe.cpp: MPE zones (parts/Expression.h). A member channel's messages go to
  // its zone's master part, its bend, pressure and CC74 to its expression slot.
  void memberMessage(int master, int channel, const MidiEvent& e, uint64_t frame) noexcept SPINDLE_REALTIME;
  void memberControl(int master, int channel, int cc, int value, uint64_t frame) noexcept SPINDLE_REALTIME;
  void memberNotesOff(int master, int channel, bool fade) noexcept SPINDLE_REALTIME;
  void configureZone(bool upper, int members) noexcept SPINDLE_REALTIME;
  // The zone's controllers (its master part's) into each member's slot, after a master message.
  void followZone(int master) noexcept SPINDLE_REALTIME;
  // A member channel of the zone of `master` holds `key`.
  bool zoneHolds(int master, int key) const noexcept SPINDLE_REALTIME;
  // EngineNoteSlots.cpp: note slots (parts/Expression.h), claimed and moved by a
  // plugin's notes (midi::kNoteSlot events).
  void noteSlotEvent(const MidiEvent& e, uint64_t frame) noexcept SPINDLE_REALTIME;
  void claimSlot(int part, int slot, int key) noexcept SPINDLE_REALTIME;
  void setSlotValue(NoteExpression& own, int action, float value) noexcept SPINDLE_REALTIME;
  // The part's controllers into the slots its notes claimed, after a message on the part.
  void followNoteSlots(int part) noexcept SPINDLE_REALTIME;
  bool noteSounding(int part, int key, int slot) const noexcept SPINDLE_REALTIME;  // slot: an expressions index or -1
  // The mix of an MPE note (or a note slot's note) of `part`: the part's, with the
  // note's controllers and bend (and a note slot's gain and pan).
  PartMix noteMix(const PartMix& partMix, int part, int slot) const noexcept SPINDLE_REALTIME;
  PartMix startMix(int part, const NoteContext& note) const noexcept SPINDLE_REALTIME;  // EngineMidi.cpp

  // EngineTuning.cpp: a tuning event (core/MidiTuning.h) on its parts; realtime: the
  // key's sounding voices follow.
  void tune(const MidiEvent& e) noexcept SPINDLE_REALTIME;
  void retuneKey(int part, int key, double cents, bool realtime) noexcept SPINDLE_REALTIME;

  // EngineControllers.cpp
  void controlChange(int part, int cc, int value, uint64_t frame) noexcept SPINDLE_REALTIME;
  void controllerMoved(int part, int cc, float before, uint64_t frame) noexcept SPINDLE_REALTIME;
  void startByController(int part, int cc, float before, uint64_t frame) noexcept SPINDLE_REALTIME;
  void stopByController(int part, int cc) noexcept SPINDLE_REALTIME;
  void pedalsMoved(int part, int cc, uint64_t frame) noexcept SPINDLE_REALTIME;
  void refreshPartPedal(int part, uint64_t frame) noexcept SPINDLE_REALTIME;
  void holdOrRelease(const Part& part, Voice& v) noexcept SPINDLE_REALTIME;
  // EngineTempo.cpp
  void setTempo(float bpm) noexcept SPINDLE_REALTIME;
  void clockEvent(uint8_t status, uint64_t frame) noexcept SPINDLE_REALTIME;
  void checkClock() noexcept SPINDLE_REALTIME;
  void refreshTempo() noexcept SPINDLE_REALTIME;
  void allNotesOff(int part) noexcept SPINDLE_REALTIME;
  void allSoundOff(int part) noexcept SPINDLE_REALTIME;

  EngineConfig config;
  rt::SpscFifo<Command, kCommandCapacity> commands;
  // A let-go Program and how many commands the audio thread had taken by then: the
  // control side disposes it only if it has not posted it again since (Engine.cpp).
  struct Retired {
    const Program* program = nullptr;
    uint64_t commandsTaken = 0;
  };
  rt::SpscFifo<Retired, kTrashCapacity> trash;
  uint64_t commandsTaken = 0;  // audio thread
  std::atomic<uint64_t> commandsTakenShared{0};  // commandsTaken, published after each drain

  // Control thread only: the tuning tables SetPartTuning commands point to, each with the
  // serial of its command; freed once the audio thread has taken (and copied) it.
  std::vector<std::pair<uint64_t, std::unique_ptr<KeyTuning>>> lentTunings;

  // Control thread only: commands posted, and the serial of each Program's last post.
  uint64_t commandsPosted = 0;
  std::unordered_map<const Program*, uint64_t> lastPosted;

  std::array<Part, limits::kEngineParts> parts{};  // the MIDI parts, then the preview part
  MpeLayout mpe;
  std::array<NoteExpression, kExpressionSlots> expressions{};  // per MPE member channel, then note slots
  std::array<const Program*, limits::kProgramSlots> slots{};
  std::array<const Program*, kPendingCapacity> pending{};
  int pendingCount = 0;

  VoicePool pool;
  RenderScratch scratch;
  // Null unless config.sincTables (declared above, so initialised first).
  std::unique_ptr<const dsp::SincInterpolator> sinc8 = sincTable(config, 8), sinc16 = sincTable(config, 16);
  Quality quality;
  Prng rng;
  Prng noteRng;          // controllers 135/136: its own sequence, so rng's draws stay as they were
  Tempo tempoState;
  MidiClock midiClock;
  float tempo = Tempo::kDefaultBpm;  // tempoState.bpm(), kept current: lobpm/hibpm, the bus delays
  uint64_t frameCounter = 0;  // engine frames rendered, the clock of note-on times
  // The song position in beats at frameCounter (sync_beats): counted at the tempo from
  // the engine's start, and from 0 again at each MIDI Start.
  double songBeats = 0.0;
  double beatAt(uint64_t frame) const noexcept SPINDLE_REALTIME;
  uint64_t notesStarted = 0, voicesStolen = 0, underruns = 0;
  uint64_t previewNotes = 0;  // note-ons the preview part took (CommandType::PreviewNote)
  uint32_t peakVoices = 0;

  // Note starts of the current process() call (Engine::noteStarts). A note-on opens an
  // entry; startVoice() records its first voice; renderVoices() stamps firstOffset the
  // first time it renders that voice (segmentOffset: the segment's frame in the call).
  std::array<NoteStart, limits::kMaxEventsPerBlock> noteStartList{};
  std::array<const Voice*, limits::kMaxEventsPerBlock> noteStartVoice{};
  int noteStartCount = 0, noteStartsPending = 0;
  int openStart = -1;         // the entry of the note-on being handled, or -1
  int32_t eventOffset = 0;    // requested frame of the event being handled
  int32_t segmentOffset = 0;  // frame of the segment renderVoices() is rendering
  // A MIDI event was handled at the first frame of the segment renderVoices() renders
  // next: the control steps under way end there (RenderContext::cut, ProgramBuses).
  bool eventCut = false;
  // The current process() call's per-part outputs, or null (all parts to the main pair).
  const PartOutputs* partOutputs = nullptr;

  // Per-part mixing (renderVoices): a part's voices render into partLeft/partRight, which
  // are measured (partPeak) and added to the output. byPart holds active-voice indices
  // grouped by part, in start order within a part; part p's are [partBegin[p], partBegin[p + 1]).
  std::vector<float> partLeft, partRight;  // maxBlockFrames each, sized in the constructor
  // A voice of a region with output=N (routedOutput) renders here first.
  std::vector<float> routedLeft, routedRight;
  std::vector<int> byPart;                 // pool capacity, sized in the constructor
  std::array<int, limits::kEngineParts + 1> partBegin{};
  std::array<float, limits::kEngineParts> partPeak{};  // of the current process() call
  // The effect sends: a part's voices add to partSend (maxBlockFrames each), which
  // mixPart adds to the effects' inputs at the segment's frame in the block (blockBase:
  // the block's first frame in the process() call).
  std::array<std::vector<float>, kSendBuses> partSend;
  // The inputs of the part's fx buses (maxBlockFrames each), used in turn by every part
  // whose program has a bus layout (engine/effects/PartBuses.h).
  std::array<std::vector<float>, kFxBuses> fxLeft, fxRight;
  FxBusInputs fxInputs;
  // While a part crossfades from its previous program's buses (Part::busFadeFrom): a
  // copy of its main bus and fx bus inputs, which that program's buses run over.
  static constexpr double kBusFadeSeconds = 0.01;
  std::vector<float> fadeLeft, fadeRight;
  std::array<std::vector<float>, kFxBuses> fadeFxLeft, fadeFxRight;
  FxBusInputs fadeInputs;
  EffectsStage effects;
  int blockBase = 0;

  // Published once per process() with relaxed stores; stats() reads them.
  struct {
    std::atomic<uint32_t> activeVoices{0}, peakVoices{0};
    std::atomic<uint64_t> framesRendered{0}, notesStarted{0}, voicesStolen{0}, commandsDropped{0};
    std::atomic<uint64_t> sourceUnderruns{0};
    std::atomic<bool> effectsSounding{false};
    std::atomic<int> tailFrames{0};
    std::atomic<float> tempo{Tempo::kDefaultBpm};
    std::atomic<TempoSource> tempoSource{TempoSource::Default};
    std::atomic<int> mpeLower{0}, mpeUpper{0};
    std::array<std::atomic<int>, limits::kChannels> mpeKey{};  // NoteExpressionStats::key + 1 (0: none), by channel
    std::array<std::array<std::atomic<float>, 3>, limits::kChannels> mpeValues{};  // bend, pressure, timbre
    // Per part; stats() may see one part's fields from two neighbouring calls (harmless
    // for a meter and a keyboard; each value is itself whole).
    std::array<std::atomic<uint32_t>, limits::kEngineParts> partVoices{};
    std::array<std::atomic<float>, limits::kEngineParts> partPeak{};
    std::array<std::array<std::atomic<uint64_t>, 2>, limits::kEngineParts> heldKeys{};
    // Controller values 0..1 per part, kept current for the program's labelled
    // controllers only (Program::publishedControllers); the other slots hold stale values.
    std::array<std::array<std::atomic<float>, controllers::kCount>, limits::kEngineParts> controllers{};
    std::array<std::atomic<const Program*>, limits::kEngineParts> partProgram{};
    std::array<std::atomic<uint64_t>, limits::kEngineParts> partBypass{};
    std::atomic<uint64_t> previewNotes{0};
  } shared;
  static_assert(std::atomic<float>::is_always_lock_free && std::atomic<uint64_t>::is_always_lock_free);
};

}  // namespace spindle::engine
