#pragma once
// EngineLink: the GUI's only way to the engine, the same as any other control source:
// commands go in through FIFOs, stats come out as snapshots. Nothing here can make the
// audio thread wait.
//
//   gui thread                                          audio thread
//   setVolume/Pan/Mute/Solo, panic, SetProgram ──► Engine::postCommand (command FIFO)
//   setTuning ──► Engine::setPartTuning (the same FIFO)
//   noteOn/noteOff ──► the GUI's MIDI input FIFO (LiveProcessor::midiInput), timestamped
//                      on the audio clock like the midi thread's events
//   poll() at up to 30 Hz ◄── LiveProcessor::stats() (seqlock snapshot), note-on latency
//                             records (popNoteLatency), disk counters (atomics), the
//                             disk thread's errors (into the problem log)
//   loadLibrary() ──► loader thread (LibraryLoader) ──► poll() publishes the Program
//   setLink() ──► the backend's connection thread;  poll() ◄── its ConnectionReport
//                 (a copy under the backend's lock, kept when its serial is new)
//
// Threads: gui thread only, for every method. The gui thread is the engine's owner in
// the GUI: it posts commands, collects retired Programs and owns them. A command the
// FIFO refuses waits here and is retried on the next poll(), in order.
// Lifetime: destroy the EngineLink only after the audio thread has stopped for good
// (it hands every Program the engine still holds back to itself and frees them).
#include <QObject>
#include <QString>
#include <QTimer>
#include <array>
#include <bitset>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "control/ProblemLog.h"
#include "core/Limits.h"
#include "core/PartEffects.h"
#include "engine/Engine.h"
#include "gui/HealthModel.h"
#include "gui/KeyMap.h"
#include "gui/LibraryLoader.h"
#include "instrument/Scala.h"
#include "io/Connections.h"
#include "io/LiveProcessor.h"

namespace spindle::io {
class AudioBackend;
}
namespace spindle::stream {
class Streaming;
}

namespace spindle::gui {

inline constexpr float kMeterFloorDb = -60.0f;
inline constexpr float kMeterFallDbPerSecond = 24.0f;

struct PartInfo {
  QString name;  // the loaded instrument; empty: nothing loaded
  QString path;
  KeyMap keys;
  float volumeDb = 0.0f, pan = 0.0f;
  bool mute = false, solo = false;
  std::bitset<128> heldHere;    // keys held through the GUI's MIDI input (keyboard, OSC)
  // From the engine's stats (engine::PartStats), every MIDI input included: the keys the
  // engine took a note-on for and no note-off yet (keys released under the sustain pedal
  // are not held), the part's voices, and its level meter in dBFS: the engine's peak of
  // the last call, held and falling at kMeterFallDbPerSecond.
  std::bitset<128> held;
  int voices = 0;
  float meterDb = kMeterFloorDb;
  int regions = 0, missingSamples = 0;  // of the loaded instrument
  // The instrument's labelled controllers (label_cc) and named keys (label_key,
  // sw_label), and each control's value 0..1: its set_cc default at load, then the
  // engine's published value (Engine::controllerValue: any MIDI input moves it).
  std::vector<controllers::ControllerLabel> controls;
  std::vector<float> controlValues;  // parallel to controls
  std::vector<controllers::KeyLabel> keyLabels;
  const engine::Program* program = nullptr;  // the loaded one (compare only)
  // The part's Scala scale and keyboard map (empty: none) and the scale's name; both
  // paths empty: 12-TET.
  QString scalePath, keymapPath, scaleName;
  // >= 0: the part plays the SoundFont loaded into that part (EngineLink shares a font
  // with the empty parts); a session saves it as empty, and loading it shares it again.
  int sharedFrom = -1;
  // The loaded instrument's effects (its bus layout: type and bus, core/PartEffects.h),
  // built when the load finished, and the player's bypass flags (bit i: effect i).
  std::vector<PartEffectInfo> effects;
  uint64_t effectBypass = 0;
};

class EngineLink : public QObject {
  Q_OBJECT

 public:
  struct Wiring {
    engine::Engine* engine = nullptr;
    io::LiveProcessor* live = nullptr;
    io::MidiInputFifo* notes = nullptr;          // the GUI's own MIDI input; the gui thread produces
    LibraryLoader* loader = nullptr;
    stream::Streaming* streaming = nullptr;      // disk counters and ring memory; may be null
    RealtimeStatus realtime;                     // backend kind and mlock, known at start
    io::AudioBackend* backend = nullptr;         // its connections; null: no sound server (tests)
    EffectValues effects = {};                   // the reverb and chorus the engine was built with
  };
  static constexpr int kPollHz = 30;

  explicit EngineLink(const Wiring& wiring, QObject* parent = nullptr);
  ~EngineLink() override;

  void startPolling() { timer_.start(1000 / kPollHz); }

  // A load already running for the part is cancelled and reported as failed first.
  void loadLibrary(int part, const QString& sfzFile);
  void cancelLoad(int part);
  void unload(int part);
  bool loading(int part) const { return jobs_[index(part)] != nullptr; }

  void setVolume(int part, float db);
  void setPan(int part, float pan);
  void setMute(int part, bool on);
  void setSolo(int part, bool on);
  // The part's Scala scale and keyboard map (either may be empty; both empty: 12-TET),
  // read now: empty on success, else "file:line: message" and the part keeps its tuning.
  QString setTuning(int part, const QString& scale, const QString& keymap);
  // The same with the files already read (GuiControlTarget reads them on its thread).
  void applyTuning(int part, const QString& scale, const QString& keymap, const instrument::TuningResult& tuning);
  void panic();
  void setPolyphony(int voices);  // up to the engine's configured polyphony
  void setQuality(int quality);   // engine::Quality
  void setTempo(float bpm);       // the set tempo (engine/Tempo.h)
  // The shared reverb and chorus (EngineLinkEffects.cpp): one setting, clamped to its
  // range; the part's send to one of them (CC91 or CC93 on its channel, 0..127).
  void setEffect(EffectParam param, float value);
  void setSend(int part, int cc, int value);
  const EffectValues& effects() const noexcept { return effects_; }
  // The part's send level for CC91 or CC93 as the engine holds it now, 0..127.
  int send(int part, int cc) const;
  // The player's bypass of effect `effect` (0-based) of the part's instrument
  // (PartInfo::effects), crossfaded by the engine; one it does not have is ignored.
  void setEffectBypass(int part, int effect, bool on);
  // The part's effects with their bypass flags.
  std::vector<PartEffectInfo> partEffects(int part) const;
  void noteOn(int part, int key, int velocity);
  void noteOff(int part, int key);
  // Any channel message into the GUI's MIDI input. `frame`: the audio-clock frame it
  // was received at (another thread may stamp it, e.g. the control thread for OSC);
  // empty: now. False when the FIFO is full (the event is dropped and counted).
  bool sendMidi(uint8_t status, uint8_t data1, uint8_t data2, std::optional<uint64_t> frame = std::nullopt);
  // One of Spindle's ports connected or disconnected by hand (the backend does it on its
  // connection thread; the next report shows it). Nothing without a backend.
  void setLink(const io::PortLink& link, bool on);

  const PartInfo& part(int p) const { return parts_[index(p)]; }
  const std::vector<Problem>& problems(int p) const { return problems_[index(p)]; }
  // The session's runtime problems: the disk thread's errors (taken on every poll) and
  // the samples a load left out. Thread-safe: OSC reads it on the control thread.
  control::ProblemLog& problemLog() noexcept { return problemLog_; }
  // The problem log's disk errors, newest last (at most ProblemLog::kKept), for the
  // problems panel; the samples a load left out are among problems(part) already.
  const std::vector<Problem>& runtimeProblems() const noexcept { return runtime_; }
  const HealthModel& health() const noexcept { return health_; }
  // What Spindle's ports are connected to, as of the last poll (empty without a backend).
  const io::ConnectionReport& connections() const noexcept { return connections_; }
  // Keys lit on the keyboard for a part: the keys the engine holds (any MIDI input).
  std::bitset<128> litKeys(int part) const { return parts_[index(part)].held; }
  std::size_t pendingCommands() const noexcept { return pending_.size(); }
  const engine::Engine& engine() const noexcept { return *wiring_.engine; }
  const io::LiveProcessor& live() const noexcept { return *wiring_.live; }
  int polyphony() const noexcept { return polyphony_; }
  int quality() const noexcept { return quality_; }
  float tempo() const noexcept { return tempo_; }  // the set tempo; 0: none set
  double now() const;  // seconds on the monotonic clock the link uses

 public slots:
  void poll();

 signals:
  void loadProgress(int part, int filesDone, int filesTotal, double megabytes);
  void loadFinished(int part, bool ok, const QString& name);
  void problemsChanged(int part);
  void runtimeProblemsChanged();  // problemLog() has new problems (of any kind)
  void connectionsChanged();      // connections() has a new serial
  void effectsChanged();          // effects() changed (the window, OSC or a session)
  void partChanged(int part);
  void statsUpdated();

 private:
  static std::size_t index(int part) { return static_cast<std::size_t>(part); }
  void post(const engine::Command& command);
  void retryPending();
  void retryTunings();
  void pollLoads();
  void finishLoad(int part, LoadOutcome outcome);
  void shareSoundFont(int from);
  void pollNotes();
  void pollProblems();
  void pollStats(double nowSeconds);
  void pollConnections();
  void updateParts(const io::LiveStatsSnapshot& live, double nowSeconds);
  void trackHeld(const MidiEvent& message);

  Wiring wiring_;
  std::array<PartInfo, limits::kChannels> parts_;
  std::array<std::shared_ptr<LoadJob>, limits::kChannels> jobs_;
  std::array<std::vector<Problem>, limits::kChannels> problems_;
  control::ProblemLog problemLog_;
  uint64_t problemsSeen_ = 0;  // serial of the newest problem announced
  std::vector<Problem> runtime_;
  std::unordered_map<const engine::Program*, std::unique_ptr<engine::Program>> programs_;
  std::deque<engine::Command> pending_;
  std::array<std::optional<KeyTuning>, limits::kChannels> pendingTunings_;  // refused by a full FIFO
  HealthModel health_;
  io::ConnectionReport connections_;
  int ticks_ = 0;
  double lastPoll_ = 0.0;
  int polyphony_ = 0, quality_ = 0;
  float tempo_ = 0.0f;
  EffectValues effects_;
  int realtimePriority_ = 0;
  bool audioThreadKnown_ = false;
  QTimer timer_;
};

}  // namespace spindle::gui
