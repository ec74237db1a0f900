#pragma once
// What live playing looks like at this moment: xruns, process time against the
// budget, stream underruns, MIDI traffic and note-on latency, in one snapshot.
//
// Threads: the audio thread builds a LiveStatsSnapshot each cycle and publishes it
// through a Seqlock (never waits); the main thread, the GUI and OSC read copies of it
// (LiveProcessor::stats()). Counters that other threads raise (backend xruns from
// JACK's notification thread, MIDI-thread drops, reconnects) are std::atomic and
// folded into the snapshot by the audio thread.
//
// One NoteLatency record per note-on also travels, audio -> main thread, through a
// FIFO for the note log (--note-log).
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "engine/Commands.h"
#include "io/ProcessTimer.h"

namespace spindle::io {

enum class EventSource : uint8_t { Port = 0, MidiThread = 1 };

// One note-on, all frames on the backend's frame clock (JACK frame time, PipeWire
// clock position). Latency = first - event + the port's playback latency.
struct NoteLatency {
  uint64_t eventFrame = 0;      // the event's timestamp
  uint64_t scheduledFrame = 0;  // the frame the engine was asked to play it at
  uint64_t firstFrame = 0;      // where its first voice started rendering (engine-reported)
  uint32_t playbackLatency = 0; // frames from the output port to the speaker (max of the range)
  uint16_t voices = 0;          // voices the note started (0: no region matched)
  uint8_t channel = 0, key = 0, velocity = 0;
  EventSource source = EventSource::Port;
  // The cycle that played it followed an xrun: a frame gap before it, or an xrun the
  // backend reported since the previous cycle. A note may then be displaced (played a
  // cycle late or early), through no fault of Spindle's timing.
  bool afterXrun = false;

  int64_t queueFrames() const noexcept { return static_cast<int64_t>(scheduledFrame - eventFrame); }
  int64_t engineFrames() const noexcept { return static_cast<int64_t>(firstFrame - scheduledFrame); }
  int64_t totalFrames() const noexcept {
    return static_cast<int64_t>(firstFrame - eventFrame) + playbackLatency;
  }
};
static_assert(std::is_trivially_copyable_v<NoteLatency>);

struct LatencySummary {
  uint64_t notes = 0;  // note-ons that started a voice
  int64_t minFrames = std::numeric_limits<int64_t>::max(), maxFrames = 0, lastFrames = 0;
  int64_t sumFrames = 0;
  int64_t engineMinFrames = std::numeric_limits<int64_t>::max(), engineMaxFrames = 0;

  void add(const NoteLatency& note) noexcept SPINDLE_REALTIME;
};

// MIDI activity of one input: the channel messages it handed to the engine and the
// channel (0..15) of the last. Inputs: [0] the backend's midi_in port, then [1 + i] the
// LiveProcessor's thread input i (the MIDI device, the ALSA sequencer, OSC and the GUI).
struct InputActivity {
  uint64_t events = 0;
  uint8_t lastChannel = 0;
};
inline constexpr int kActivityInputs = 4;

struct LiveStatsSnapshot {
  double sampleRate = 0.0;
  uint32_t periodFrames = 0;
  uint32_t playbackLatencyFrames = 0;
  // On a NetJACK2 slave (io/NetworkLatency.h): frames from the master's MIDI output
  // through this host back to the master's audio input, and the slave's -l; 0: not a slave.
  uint32_t networkRoundTripFrames = 0, networkSlavePeriods = 0;
  uint64_t frames = 0;              // frames processed since start
  uint64_t backendXruns = 0;        // reported by the backend's xrun callback
  uint64_t detectedXruns = 0;       // frame-time gaps between consecutive cycles
  uint64_t gapFrames = 0;           // frames lost in those gaps
  uint64_t streamUnderruns = 0;     // engine source chunks the disk did not supply in time
  uint32_t activeVoices = 0, peakVoices = 0;
  uint32_t streams = 0;             // disk stream slots in use
  uint64_t midiEvents = 0;          // events handed to the engine
  uint64_t midiDropped = 0;         // lost: MIDI FIFO full, block full, malformed
  uint64_t lateEvents = 0;          // MIDI-thread events that missed their frame
  uint64_t noteOns = 0;             // note-on events processed
  uint64_t notesWithoutVoice = 0;   // note-ons no region answered
  uint64_t noteLogDropped = 0;      // note records the note-log FIFO could not take
  uint32_t reconnects = 0;
  bool connected = false, freewheeling = false;
  LatencySummary latency;
  ProcessHistogram process;
  // Per part: voices, the last engine call's peak, held keys (engine::PartStats).
  std::array<engine::PartStats, limits::kChannels> parts{};
  std::array<InputActivity, kActivityInputs> inputs{};
};
static_assert(std::is_trivially_copyable_v<LiveStatsSnapshot>);

// A multi-line human-readable report (the --headless summary). Not real-time.
std::string formatStats(const LiveStatsSnapshot& stats);
// One line of the note log: frames and milliseconds of one note-on.
std::string formatNoteLatency(const NoteLatency& note, double sampleRate);

// ---- implementation ---------------------------------------------------------

inline void LatencySummary::add(const NoteLatency& note) noexcept SPINDLE_REALTIME {
  const int64_t total = note.totalFrames(), engine = note.engineFrames();
  ++notes;
  lastFrames = total;
  sumFrames += total;
  if (total < minFrames) minFrames = total;
  if (total > maxFrames) maxFrames = total;
  if (engine < engineMinFrames) engineMinFrames = engine;
  if (engine > engineMaxFrames) engineMaxFrames = engine;
}

}  // namespace spindle::io
