#pragma once
// Engine: renders the 16 parts' voices into a stereo block, sample-accurately.
//
// Threads:
//   - audio thread: process() only.
//   - one control thread (the owner: offline renderer, live wiring, OSC or GUI
//     through the app's command router): postCommand(), collectGarbage(), stats().
// The constructor allocates everything (voice pool, scratch buffers); after it
// nothing on the audio thread allocates, locks, waits, logs or touches a file.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "core/Limits.h"
#include "core/MidiEvent.h"
#include "core/Realtime.h"
#include "core/Tuning.h"
#include "engine/Commands.h"
#include "engine/dsp/Interpolators.h"
#include "engine/effects/Effects.h"
#include "engine/parts/Program.h"

namespace spindle::rt {
class StreamBank;
}

namespace spindle::engine {

// One note-on event handled by the last process() call, for note-on latency: the live
// wiring adds its own clock and the port latency (io::LiveProcessor).
struct NoteStart {
  int32_t eventOffset = 0;  // the frame the event asked for, from the block's start
  int32_t firstOffset = -1; // the frame its first voice began rendering; -1 if no voice did
  uint16_t voices = 0;      // voices the note-on started
  uint8_t channel = 0, key = 0, velocity = 0;  // the MIDI channel it came on (an MPE member's, not its part's)
};

// Separate outputs per part (JACK's --multi-out): part k renders into parts[k] when
// both its pointers are set, into the main pair otherwise. Each given buffer holds the
// call's `frames` and is written (not added to), like the main pair.
struct StereoOut {
  float* left = nullptr;
  float* right = nullptr;
};
using PartOutputs = std::array<StereoOut, limits::kChannels>;

struct EngineConfig {
  double sampleRate = 48000.0;
  int maxBlockFrames = 256;
  int polyphony = 256;
  Quality quality = Quality::Hermite;
  uint32_t randomSeed = 1;  // lorand/hirand, offset_random: reproducible renders
  // Disk streams for samples only partly in RAM (owned by the caller, who runs the
  // disk thread; must outlive the Engine). Null: frames past a preload are missing.
  rt::StreamBank* streams = nullptr;
  // Build the two sinc tables (1.6 MiB, written at construction). Without them a voice
  // asked for sinc (the quality, SetQuality, a region's sample_quality) plays Hermite:
  // false only when nothing will ask (sincWanted), as in spindle-render at --quality 1.
  bool sincTables = true;
  // The shared reverb and chorus the parts send to (engine/effects/Effects.h); their buffers
  // are sized here. A program that sends nothing renders as with both off.
  EffectsSettings effects = {};
};

// Whether rendering `program` at `quality` may ask for sinc: the quality itself, or a
// region's own sample_quality of 3 and up (Voice.cpp). For EngineConfig::sincTables.
bool sincWanted(const Program& program, Quality quality) noexcept;

class Engine {
 public:
  explicit Engine(const EngineConfig& config);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Audio thread. `events` sorted by frame, each frame < frames <= maxBlockFrames.
  // Writes (does not add to) outLeft/outRight.
  void process(const MidiEvent* events, int eventCount, float* outLeft, float* outRight,
               int frames) noexcept SPINDLE_REALTIME;
  // The same, with the parts that have their own output rendered there instead.
  void process(const MidiEvent* events, int eventCount, float* outLeft, float* outRight, const PartOutputs& parts,
               int frames) noexcept SPINDLE_REALTIME;

  // Offline renders and JACK's freewheel: the same, except that before each stretch of
  // frames between events it waits until every disk stream holds what its voice can read
  // in it (rt::StreamBank::prepare), so no voice misses a frame and the output equals an
  // all-in-RAM render. It may block, so it is not a real-time function: never call it
  // on a live audio thread.
  void processWaiting(const MidiEvent* events, int eventCount, float* outLeft, float* outRight, int frames) noexcept;
  void processWaiting(const MidiEvent* events, int eventCount, float* outLeft, float* outRight,
                      const PartOutputs& parts, int frames) noexcept;

  // Control thread. False when the command FIFO is full (the caller retries later).
  // The audio thread stops taking commands while too many retired Programs wait for
  // collectGarbage(), so a control thread that never collects sees this fail.
  // postCommand() may allocate (it records which Programs are lent).
  [[nodiscard]] bool postCommand(const Command& command) noexcept;

  // Control thread: part's key pitches from now on (12-TET: KeyTuning::equalTemperament()).
  // The engine copies `tuning`; false when the command FIFO is full. Sounding voices
  // keep their pitch. May allocate (the copy in flight).
  [[nodiscard]] bool setPartTuning(int part, const KeyTuning& tuning);

  // Program ownership. The Engine never owns, copies or frees a Program: whoever posts
  // a pointer (SetProgram, SetSlotProgram) keeps owning it and lends it to the audio
  // thread. The audio thread lets go of a pointer when no part and no slot refers to it
  // and no voice of it still sounds; it then hands the pointer back once, through the
  // trash FIFO. collectGarbage(dispose) calls dispose(p) for every pointer handed back
  // (the owner frees it there). A pointer is never handed back while it is attached,
  // nor while a command posting it again is still in the FIFO: re-posting a lent
  // pointer (the same instrument on two parts, a slot and a part) is always safe.
  // Control thread.
  using ProgramDisposer = std::function<void(const Program*)>;
  void collectGarbage(const ProgramDisposer& dispose);
  // Shorthand for owners that create Programs with `new` and give them up on posting:
  // collectGarbage([](const Program* p) { delete p; }).
  void collectGarbage();
  // Shutdown: hands back every Program the engine still holds (parts, slots, sounding
  // voices, the trash, commands never taken), each once, and detaches it. Control
  // thread, only once the audio thread has stopped calling process() for good (and
  // that stop is synchronised with this thread, e.g. by joining it).
  void collectAllPrograms(const ProgramDisposer& dispose);

  // Audio thread, before process(): the host's tempo in beats per minute (JACK transport
  // BBT while rolling), for that call only; call it before every call while the
  // transport rolls. Ignored unless 0 < bpm < 10000. The control side sets a tempo with
  // CommandType::SetTempo; MIDI clocks in the events set one too. Which one plays:
  // engine/Tempo.h. 120 until one says otherwise.
  void setTempo(float bpm) noexcept SPINDLE_REALTIME;
  // Offline renders, before process(): a MIDI file's tempo from now on (engine/Tempo.h).
  void setSongTempo(float bpm) noexcept SPINDLE_REALTIME;

  // Audio thread, after process(): that call's note-on events in event order (at most
  // limits::kMaxEventsPerBlock), valid until the next process(). Measured, not assumed:
  // firstOffset is where the render loop actually began rendering the note's voice.
  std::span<const NoteStart> noteStarts() const noexcept SPINDLE_REALTIME;
  // Audio thread, after process(): a voice of part's `key` sounds in note slot `noteSlot`
  // (0 .. kNoteSlots-1, parts/Expression.h; -1: the voices with no slot).
  bool noteSounding(int part, int key, int noteSlot) const noexcept SPINDLE_REALTIME;

  EngineStats stats() const noexcept SPINDLE_REALTIME;  // any thread; a consistent-enough snapshot
  // Any thread: part's controller `cc` (0..511) as of the last process() call, 0..1.
  // Kept current for the controllers the part's program labels (label_cc); 0 for a bad
  // part or cc. For the player's control strip and /spindle/part/controls.
  float controllerValue(int part, int cc) const noexcept;
  const EngineConfig& config() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace spindle::engine
