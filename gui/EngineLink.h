#pragma once
// EngineLink: the window's view and controller of the session (session/Control.h), the
// one owner of the running Spindle that OSC drives too. What the user does goes to the
// session's Control exactly as an OSC command does; what the session holds (parts,
// loads, effects, settings, problems), whoever changed it, comes back as this object's
// copies and signals. It loads, tunes and posts nothing of its own.
//
//   gui thread                                   session::Control (any thread changes it)
//   setVolume/Pan/Mute/Solo, setTuning, panic, ──► commands, loads, tunings ──► pump():
//   loadLibrary, setEffect, ...                    this object pumps it (the gui thread is
//   noteOn/noteOff, sendMidi ──► its MIDI input     the engine's owner with the window)
//   poll() at up to 30 Hz ◄── the Control's parts, loads (progress, their events),
//        effects and settings (also at once, through its change listener);
//        LiveProcessor::stats() (seqlock snapshot), note-on latency records, the disk
//        counters, the problem log, the backend's ConnectionReport
//
// Threads: gui thread only, for every method. The Control outlives this object.
#include <QObject>
#include <QString>
#include <QTimer>
#include <array>
#include <atomic>
#include <bitset>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "control/ProblemLog.h"
#include "core/Limits.h"
#include "core/PartEffects.h"
#include "gui/HealthModel.h"
#include "gui/KeyMap.h"
#include "gui/NoteMarks.h"
#include "gui/ProblemsModel.h"
#include "io/Connections.h"
#include "session/Control.h"

namespace spindle::gui {

inline constexpr float kMeterFloorDb = -60.0f;
inline constexpr float kMeterFallDbPerSecond = 24.0f;

struct PartInfo {
  QString name;  // the loaded instrument; empty: nothing loaded
  QString path;
  KeyMap keys;
  float volumeDb = 0.0f, pan = 0.0f;
  bool mute = false, solo = false;
  std::bitset<128> heldHere;    // keys held through the window's MIDI input (its keyboard)
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
  // >= 0: the part plays the SoundFont loaded into that part (the session shares a font
  // with the empty parts); a session saves it as empty, and loading it shares it again.
  int sharedFrom = -1;
  // The loaded instrument's effects (its bus layout: type and bus, core/PartEffects.h)
  // and the player's bypass flags (bit i: effect i).
  std::vector<PartEffectInfo> effects;
  uint64_t effectBypass = 0;
};

class EngineLink : public QObject {
  Q_OBJECT

 public:
  static constexpr int kPollHz = 30;

  // `realtime`: the backend's kind and whether memory is locked, known at start.
  EngineLink(session::Control& control, const RealtimeStatus& realtime, QObject* parent = nullptr);
  ~EngineLink() override;

  void startPolling() { timer_.start(1000 / kPollHz); }
  session::Control& control() noexcept { return control_; }

  // A load already running for the part is cancelled (it reports failed) first.
  void loadLibrary(int part, const QString& sfzFile);
  void cancelLoad(int part) { control_.cancelLoad(part); }  // poll() reports it when the loader stops
  void unload(int part);
  bool loading(int part) const;
  // The SoundFont preset the part plays from now on: bank * 128 + program (what bank
  // select and program change choose; bank 128 included).
  void selectPreset(int part, int preset) {
    if (control_.selectPreset(part, preset)) commanded();
  }
  // The preview part (session::Control::preview): the library browser's audition.
  void preview(const QString& file, int preset) { control_.preview(file.toStdString(), preset); }
  void previewNote(int key, int velocity) {
    if (control_.previewNote(key, velocity)) commanded();
  }
  session::PreviewState previewState() const { return control_.previewState(); }

  void setVolume(int part, float db);
  void setPan(int part, float pan);
  void setMute(int part, bool on);
  void setSolo(int part, bool on);
  // The part's Scala scale and keyboard map (either may be empty; both empty: 12-TET),
  // read now: empty on success, else "file:line: message" and the part keeps its tuning.
  QString setTuning(int part, const QString& scale, const QString& keymap);
  void panic();
  void setPolyphony(int voices);  // up to the engine's configured polyphony
  void setQuality(int quality);   // engine::Quality
  void setTempo(float bpm);       // the set tempo (engine/Tempo.h)
  // The shared reverb and chorus: one setting, clamped to its range; the part's send to
  // one of them (CC91 or CC93 on its channel, 0..127, through the window's MIDI input).
  void setEffect(EffectParam param, float value);
  void setSend(int part, int cc, int value);
  const EffectValues& effects() const noexcept { return effects_; }
  // The part's send level for CC91 or CC93 as the engine holds it now, 0..127.
  int send(int part, int cc) const;
  // The player's bypass of effect `effect` (0-based) of the part's instrument
  // (PartInfo::effects), crossfaded by the engine; one it does not have is ignored.
  void setEffectBypass(int part, int effect, bool on);
  std::vector<PartEffectInfo> partEffects(int part) const { return control_.partEffects(part); }
  // The MPE zone whose master is part 1 (lower) or part 16 (upper): `members` member
  // channels, 0: off (Control::setMpeZone; a zone it overlaps shrinks).
  void setMpeZone(bool upper, int members);
  // The zone the part is the master of as the engine plays it (set here, by OSC, --mpe or
  // an MPE Configuration Message), and its member notes sounding, as of the last poll.
  MpeChannels mpeChannels(int part) const { return mpeChannelsOf(engineStats_, part); }
  std::vector<NoteMark> noteMarks(int part) const { return noteMarksOf(engineStats_, part); }
  void noteOn(int part, int key, int velocity);
  void noteOff(int part, int key);
  // Any channel message into the window's MIDI input. `frame`: the audio-clock frame it
  // was received at; empty: now. False when the FIFO is full (dropped and counted).
  bool sendMidi(uint8_t status, uint8_t data1, uint8_t data2, std::optional<uint64_t> frame = std::nullopt);
  // One of Spindle's ports connected or disconnected by hand (the backend does it on its
  // connection thread; the next report shows it). Nothing without a backend.
  void setLink(const io::PortLink& link, bool on) { control_.setConnection({link.port, link.peer}, on); }

  const PartInfo& part(int p) const { return parts_[index(p)]; }
  const std::vector<Problem>& problems(int p) const { return problems_[index(p)]; }
  // The session's problem log: disk errors, samples a load left out, a lost server.
  // Thread-safe: OSC reads it on the control thread.
  control::ProblemLog& problemLog() noexcept { return control_.problemLog(); }
  // The problem log's problems met while playing, newest last (at most
  // ProblemLog::kKept), for the problems panel; a load's are among problems(part).
  const std::vector<Problem>& runtimeProblems() const noexcept { return runtime_; }
  const HealthModel& health() const noexcept { return health_; }
  // What Spindle's ports are connected to, as of the last poll (empty without a backend).
  const io::ConnectionReport& connections() const noexcept { return connections_; }
  // Keys lit on the keyboard for a part: the keys the engine holds (any MIDI input).
  std::bitset<128> litKeys(int part) const { return parts_[index(part)].held; }
  const engine::Engine& engine() const noexcept { return control_.engine(); }
  const io::LiveProcessor& live() const noexcept { return control_.live(); }
  int polyphony() const noexcept { return settings_.polyphony; }
  int quality() const noexcept { return settings_.quality; }
  float tempo() const noexcept { return settings_.tempo; }  // the set tempo; 0: none set
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
  // Every load's events, from the loader thread, for poll(): the loads the window starts
  // report here, and those OSC starts are observed (Control::setLoadObserver).
  class Loads final : public control::LoadListener {
   public:
    void onLoadEvent(control::LoadEvent event) override;
    std::vector<control::LoadEvent> take();  // the finished loads' events since the last call
    int started(int part) const { return started_[index(part)].load(); }

   private:
    std::mutex mutex_;
    std::vector<control::LoadEvent> finished_;
    std::array<std::atomic<int>, limits::kChannels> started_{};
  };

  static std::size_t index(int part) { return static_cast<std::size_t>(part); }
  void commanded();  // after a command of the window's: to the engine now, and shown
  void sync();       // the session's parts, effects and settings, and what changed is announced
  bool syncPart(int part);
  void pollLoads();
  void finishLoad(const control::LoadEvent& event);
  void pollNotes();
  void pollProblems();
  void pollStats(double nowSeconds);
  void pollConnections();
  void updateParts(const io::LiveStatsSnapshot& live, double nowSeconds);
  void trackHeld(const MidiEvent& message);

  session::Control& control_;
  RealtimeStatus realtime_;
  std::array<PartInfo, limits::kChannels> parts_;
  std::array<uint64_t, limits::kChannels> partSerials_{};     // of the session's part each copy is
  std::array<std::vector<Problem>, limits::kChannels> problems_;
  std::array<int, limits::kChannels> finishedLoads_{};        // the loads whose end poll() announced
  Loads loads_;
  uint64_t problemsSeen_ = 0;  // serial of the newest problem announced
  std::vector<Problem> runtime_;
  HealthModel health_;
  io::ConnectionReport connections_;
  int ticks_ = 0;
  double lastPoll_ = 0.0;
  control::EngineSettings settings_;
  EffectValues effects_;
  engine::EngineStats engineStats_;
  std::atomic<bool> syncQueued_{false};
  int realtimePriority_ = 0;
  bool audioThreadKnown_ = false;
  QTimer timer_;
};

}  // namespace spindle::gui
