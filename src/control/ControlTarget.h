#pragma once
// ControlTarget: what the OSC layer (and NSM) drives. The app implements it over the
// engine's command FIFO, the loader thread and the live stats; tests implement it
// with a recorder. Nothing here knows about OSC, sockets or liblo.
//
// Threads: the control thread calls every ControlTarget method. load() returns at
// once; the loader thread then reports through the LoadListener it was given, from
// any thread (LoadListener implementations queue and wake the control thread).
//
// Numbering: parts and channels are 0-based here (0..15); the OSC wire uses 1..16.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "control/HostControl.h"
#include "control/ProblemLog.h"
#include "core/EffectParams.h"
#include "core/Limits.h"
#include "core/PartEffects.h"

namespace spindle::library {
class Index;
}

namespace spindle::control {

inline constexpr int kParts = limits::kChannels;

// A live snapshot for /spindle/status. Latencies are -1 until a note has sounded;
// -1 also marks a number this build does not measure.
struct ControlStatus {
  uint32_t voices = 0, peakVoices = 0;
  int32_t streams = -1;                 // disk streams playing now
  uint64_t backendXruns = 0;            // reported by JACK / PipeWire
  uint64_t detectedXruns = 0;           // frame-clock gaps between cycles
  uint64_t overBudget = 0;              // process calls that overran their period
  uint64_t streamUnderruns = 0;         // disk data not there in time
  double latencyLastMs = -1.0, latencyMinMs = -1.0, latencyMaxMs = -1.0;  // note-on, total
  double processLoad = 0.0;             // percent of the period, 99th percentile
  double aheadMinMs = -1.0;             // audio the stream closest to running dry holds; -1: none open
  uint64_t memoryBytes = 0;             // sample data held in RAM (preloads, whole samples)
  uint64_t bytesPerSample = 0;          // of that, per loaded sample on average
  int64_t pinnedBlocks = -1;            // decoded blocks streams hold pinned now
  uint64_t cacheBudgetBytes = 0;        // the block cache's budget (pinned blocks included)
  double cacheHitRate = -1.0;           // decoded-block cache: blocks found decoded, 0..1
  double decodedMBps = -1.0;            // frames decoded per second, MB of 16-bit stereo
  uint64_t cacheBytes = 0;              // decoded blocks held
  uint64_t commandsDropped = 0;         // the target's own FIFOs refused a command
  double sampleRate = 0.0;
  // On a NetJACK2 slave: the master's MIDI out -> this host -> its audio in; 0: not a slave.
  uint32_t netRoundTripFrames = 0, netRoundTripPeriods = 0;
  // MPE zones the engine plays now (by hand or by an MPE Configuration Message): member
  // channels of the lower zone and of the upper, 0 when off.
  int mpeLower = 0, mpeUpper = 0;
};

struct PartSettings {
  std::string instrument;  // .sfz path; empty: no instrument
  float volumeDb = 0.0f;
  float pan = 0.0f;        // -1 .. 1
  bool mute = false, solo = false;
  std::string scale, keymap;  // Scala .scl and .kbm paths; both empty: 12-TET
  int reverbSend = 0, chorusSend = 0;  // CC91 and CC93 on the part's channel, 0..127
  uint64_t effectBypass = 0;  // the player's bypass of the instrument's effects (core/PartEffects.h)

  bool operator==(const PartSettings&) const = default;
};

struct EngineSettings {
  int polyphony = limits::kDefaultPolyphony;
  int preloadFrames = 4096;   // frames of every sample kept in RAM (applies to later loads)
  int quality = 1;            // 0 linear, 1 hermite, 2 sinc, 3 high sinc
  float tempo = 0.0f;         // the set tempo, BPM (--tempo, /spindle/tempo); 0: none set
  // MPE zones set by hand (--mpe, /spindle/mpe, the window): member channels of the
  // lower zone (master channel 1) and of the upper (master 16); 0: off. Never overlapping.
  int mpeLower = 0, mpeUpper = 0;

  bool operator==(const EngineSettings&) const = default;
};

// The engine's tempo now and where it comes from (engine/Tempo.h), for /spindle/tempo/get.
struct TempoStatus {
  float bpm = 120.0f;
  std::string source = "default";  // default, song, set, clock, transport

  bool operator==(const TempoStatus&) const = default;
};

// One link of Spindle's ports: its short name ("out_L", "midi_in") and the other
// port's full name ("system:playback_1").
struct ConnectionLink {
  std::string port, peer;

  bool operator==(const ConnectionLink&) const = default;
};

// One MIDI input of Spindle's (the server's midi_in, a MIDI device, the ALSA sequencer,
// OSC): its channel messages so far and the channel of the last, 1..16 (0: none yet).
struct MidiInputState {
  std::string name;
  uint64_t events = 0;
  int channel = 0;
};

// A host a master routes (--host NAME=ADDR@CLIENT): its NetJACK2 client present now
// (its name; empty: absent), to_NAME feeding its MIDI, its audio coming back.
struct HostRouteInfo {
  std::string name, client, present;
  bool midi = false, audio = false;
  std::string text;  // "spindle_host1: MIDI + audio", "client absent"
};

// What Spindle's ports are connected to now, for /spindle/connections.
struct ConnectionState {
  std::string server;  // "jack", "pipewire"; empty: no server
  std::string hint;    // "" when MIDI and audio are connected, else what is missing
  std::vector<ConnectionLink> links;
  std::vector<std::pair<std::string, bool>> midiSources;  // hardware sources, feeding midi_in or not
  std::vector<MidiInputState> inputs;
  uint64_t serial = 0;  // raised on every change of the links and sources (not of the inputs' counts)
  std::vector<HostRouteInfo> hostRoutes;  // the hosts a master routes (JACK)
};

// Everything a session file holds.
struct SessionState {
  std::array<PartSettings, kParts> parts{};
  EngineSettings settings;
  // The links of Spindle's ports; with `hasConnections` a load restores exactly these
  // instead of the defaults (a file without a [connections] section leaves them be).
  bool hasConnections = false;
  std::vector<ConnectionLink> connections;
  EffectValues effects;  // the shared reverb and chorus
  // The remote Spindles a master drives and what it asked of their parts (HostControl.h).
  std::vector<HostSettings> hosts;

  bool operator==(const SessionState&) const = default;
};

// One labelled controller of a part's instrument (label_cc), for /spindle/part/controls.
struct PartControl {
  int cc = 0;  // 0..511 (above 127: the instrument's own controls, set_hdcc)
  std::string label;
  float value = 0.0f;  // 0..1, as the engine holds it now (MIDI value / 127)

  bool operator==(const PartControl&) const = default;
};

struct LoadEvent {
  enum class Kind : uint8_t { Progress, Done, Failed };
  Kind kind = Kind::Progress;
  uint64_t ticket = 0;   // the one load() was given
  int part = 0;
  float progress = 0.0f; // Progress: 0..1
  std::string text;      // Done: the instrument's name; Failed: the reason
  int regions = 0;       // Done
  int missingSamples = 0;
};

class LoadListener {
 public:
  virtual void onLoadEvent(LoadEvent event) = 0;  // any thread; must not block long

 protected:
  ~LoadListener() = default;
};

// Every method: control thread. A `false` from a command means a bounded FIFO on the
// way to the audio thread was full: the command is dropped, never waited for.
class ControlTarget {
 public:
  virtual ~ControlTarget() = default;

  // Asynchronous: parses and preloads on the loader thread, then swaps the program in.
  // Reports Progress events, then exactly one Done or Failed, all with `ticket`.
  virtual void load(uint64_t ticket, int part, const std::string& path, LoadListener& listener) = 0;
  [[nodiscard]] virtual bool unload(int part) = 0;
  // One channel message (status byte with channel, data bytes).
  [[nodiscard]] virtual bool sendMidi(uint8_t status, uint8_t data1, uint8_t data2) = 0;
  [[nodiscard]] virtual bool setPartVolume(int part, float db) = 0;
  [[nodiscard]] virtual bool setPartPan(int part, float pan) = 0;
  [[nodiscard]] virtual bool setPartMute(int part, bool on) = 0;
  [[nodiscard]] virtual bool setPartSolo(int part, bool on) = 0;
  // The part's Scala scale and keyboard map (either may be empty; both empty: 12-TET),
  // read here. False with `error` = "file:line: message" for a bad file (the part keeps
  // its tuning), false with `error` empty when the FIFO was full.
  [[nodiscard]] virtual bool setPartTuning(int part, const std::string& scale, const std::string& keymap,
                                           std::string& error) = 0;
  [[nodiscard]] virtual bool setPolyphony(int voices) = 0;
  // An MPE zone (MIDI Polyphonic Expression): `members` member channels (0 switches it
  // off, at most 15) for the lower zone (master channel 1) or the upper (master 16). A
  // zone it now overlaps shrinks, as the MPE Configuration Message does.
  [[nodiscard]] virtual bool setMpeZone(bool upper, int members) = 0;
  [[nodiscard]] virtual bool setPreloadFrames(int frames) = 0;
  [[nodiscard]] virtual bool setQuality(int quality) = 0;
  [[nodiscard]] virtual bool panic() = 0;
  // One setting of the shared reverb or chorus, in its range (core/EffectParams.h);
  // sessionState().effects holds them as set.
  [[nodiscard]] virtual bool setEffect(EffectParam param, float value) = 0;
  // The set tempo in BPM, which plays unless the JACK transport rolls or MIDI clocks
  // arrive (engine/Tempo.h); sessionState().settings.tempo holds it.
  [[nodiscard]] virtual bool setTempo(float bpm) = 0;
  virtual TempoStatus tempo() = 0;  // as the engine's last process() call had it
  // The part's reverb and chorus send levels, 0..1: its channel's CC91 and CC93 as the
  // engine holds them now (/spindle/cc sets them).
  virtual std::array<float, 2> partSends(int part) = 0;
  // The part's instrument effects (core/PartEffects.h), in file order, with the player's
  // bypass flags; empty when its instrument has none or it has no instrument. Built
  // when the instrument loads, never by the audio thread.
  virtual std::vector<PartEffectInfo> partEffects(int part) = 0;
  // Bypasses (or plays again) effect `index` (0-based) of partEffects(part), with a
  // short crossfade; loading another instrument into the part clears its flags.
  // Callers check the index against partEffects() first; a wrong one is ignored.
  [[nodiscard]] virtual bool setPartEffectBypass(int part, int index, bool on) = 0;

  virtual int maxPolyphony() const = 0;  // the ceiling setPolyphony accepts
  virtual ControlStatus status() = 0;
  virtual SessionState sessionState() = 0;  // instruments and settings as they are now
  // The session's runtime problems (disk errors, samples a load left out). The log is
  // thread-safe; the control thread reads it when asked and pushes what is new.
  virtual const ProblemLog& problems() = 0;
  // The labelled controllers (label_cc) of the part's instrument, in the instrument's
  // order, with their current values; empty when the part has none or no instrument.
  virtual std::vector<PartControl> partControls(int part) = 0;
  // Spindle's connections (any sound server): the state, a session's links restored
  // (instead of the defaults, each as soon as its peer exists), one link made or broken.
  virtual ConnectionState connections() = 0;
  virtual void restoreConnections(const std::vector<ConnectionLink>& links) = 0;
  virtual void setConnection(const ConnectionLink& link, bool on) = 0;
  // The other machines' Spindles this one drives (--host), or null when it drives none.
  virtual HostControl* hostControl() { return nullptr; }
  // The index of the instruments installed here (OscLibrary.h), or null when none is kept.
  virtual library::Index* libraryIndex() { return nullptr; }
};

}  // namespace spindle::control
