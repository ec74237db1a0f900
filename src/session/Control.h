#pragma once
// Control: the one ControlTarget of a running Spindle (control/ControlTarget.h): what
// OSC and NSM drive, what the window drives and shows, what a session file saves.
// The headless run and the window differ only in who calls it and who pumps it.
//
//   control thread (OSC) ─┐                         ┌─► MIDI: the LiveProcessor input
//   gui thread (window) ──┼─► Control ── commands ──┤   (timestamped, one period later)
//   main (--scale, ...) ──┘   (mutex)  ── bounded ──┴─► pump(): Engine::postCommand,
//                                │        queue         setPartTuning ─► audio thread
//   loader thread ◄── load() ────┘ Library::load ─► SetProgram queued, the part's state,
//                                  LoadEvents to the caller's listener and the observer
//
// The engine's owner thread (main headless, gui with the window) calls pump(): it alone
// posts to the engine, frees the Programs it hands back (Library) and takes the disk
// thread's errors into the problem log. A full queue refuses a command (OSC counts and
// reports it); the engine's own FIFO, when full, keeps the rest queued for the next pump.
// One load runs at a time; a new load into a part cancels the one it supersedes there.
//
// Threads: every ControlTarget method and the readers below on any thread (a mutex
// guards the state; files are read on the calling thread); pump(), playEverywhere(),
// routeHosts() and takeBackAll() on the owner thread. The change listener and the load
// observer are called on any thread, never under the lock.
#include <array>
#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "control/ControlTarget.h"
#include "core/Tuning.h"
#include "engine/Engine.h"
#include "io/LiveProcessor.h"
#include "session/Connections.h"
#include "session/Library.h"
#include "stream/CacheRate.h"
#include "stream/LoaderThread.h"

namespace spindle::stream {
class Streaming;
}

namespace spindle::session {

inline constexpr std::size_t kControlQueueCapacity = 4096;

// One part as the session holds it: what a view shows and a session file saves.
struct PartState {
  control::PartSettings settings;  // instrument (empty when shared), mixer, tuning files, effect bypass
  std::string name, path;          // the instrument playing (shared included); empty: none
  const engine::Program* program = nullptr;  // the one playing (compare only)
  int sharedFrom = -1;             // >= 0: plays the SoundFont loaded into that part
  int regions = 0, missingSamples = 0;
  std::vector<controllers::ControllerLabel> controls;  // label_cc, in the instrument's order
  std::vector<float> controlDefaults;                  // parallel: their set_cc values, 0..1
  std::vector<controllers::KeyLabel> keyLabels;
  std::vector<PartEffectInfo> effects;  // the instrument's (bypass flags: settings.effectBypass)
  std::vector<Problem> problems;        // of the part's last load
  std::string scaleName;                // empty: 12-TET
  uint64_t serial = 0;                  // raised on every change of the above
};

// The preview part (limits::kPreviewPart), where the window's library browser auditions
// an instrument without touching the 16 parts: what plays there or is on its way.
struct PreviewState {
  std::string path, name;      // the instrument playing there; empty: none yet
  int preset = -1;             // bank * 128 + program of the SoundFont preset it plays; -1: none
  int loKey = -1, hiKey = -1;  // the lowest and highest key its note regions play
  bool loading = false;        // a preview load is on its way
  std::string error;           // the last preview load's failure; empty when it played
  uint64_t serial = 0;         // raised on every change of the above
};

// The part's load now or last: sample entries acquired of all, the pool's RAM.
struct LoadStatus {
  bool running = false;
  int filesDone = 0, filesTotal = 0;
  uint64_t bytesInRam = 0;
};

class Control final : public control::ControlTarget {
 public:
  // `midiInput`: the LiveProcessor input this object produces into (OSC and the window
  // share it). `library` and `problems` outlive it; loads add what they leave out to
  // `problems`. `effects`: the reverb and chorus the engine was built with.
  Control(engine::Engine& engine, io::LiveProcessor& live, int midiInput, Library& library,
          control::ProblemLog& problems, const EffectValues& effects = {});
  ~Control() override;  // cancels the loads, waits for the running one

  // ---- set up before the control thread starts (they outlive this object) ----
  void attach(io::AudioBackend* backend, std::vector<Connections::Input> inputs) {
    connections_.attach(backend, &live_, std::move(inputs));
    backend_ = backend;
  }
  void setStreaming(stream::Streaming* streaming) { streaming_ = streaming; }  // disk figures and errors
  void setHosts(control::HostControl* hosts) { hosts_ = hosts; }
  void setLibraryIndex(library::Index* index) { libraryIndex_ = index; }  // OSC's /spindle/library/...
  // Called after every change of the parts, the settings or a load (a view refreshes).
  void setChangeListener(std::function<void()> listener);
  // Receives every load's events as well as the listener each load was given.
  void setLoadObserver(control::LoadListener* observer);

  // ---- the engine's owner thread ----
  void pump();
  // The program every part plays from the start (--instrument, loaded from `path`
  // through the Library): queued for every part; the owner pumps it to the engine.
  void playEverywhere(Loader::Result loaded, const std::string& path);
  void routeHosts(const std::vector<control::HostSettings>& hosts) { connections_.routeHosts(hosts); }
  void stopLoads();    // cancels what is queued, ends the loader thread
  void takeBackAll();  // every Program the engine holds, once the audio thread has stopped for good

  // ---- any thread: what views read and do beyond the ControlTarget ----
  PartState part(int p) const;
  uint64_t partSerial(int p) const;
  LoadStatus loadStatus(int part) const;
  bool loading(int part) const;
  void cancelLoad(int part);  // the load reports Failed once the loader thread stops it
  EffectValues effects() const;
  control::EngineSettings settings() const;
  // Any channel message; `frame`: the audio-clock frame it arrived at (empty: now).
  bool sendMidiAt(uint8_t status, uint8_t data1, uint8_t data2, std::optional<uint64_t> frame);
  std::pair<uint64_t, uint64_t> memory() const;  // sample data in RAM and the samples it holds
  // The preview part (ControlPreview.cpp). preview(): loads `path` on the loader thread
  // (a preview on its way is cancelled), silences the one before, then plays it there;
  // `preset`: bank * 128 + program of a SoundFont's preset, -1: as loaded. previewNote():
  // a note there (velocity 0: its note-off; key -1: all its sound off), queued like every
  // command; false when the queue is full.
  void preview(const std::string& path, int preset = -1);
  // The SoundFont preset part `part` plays (bank * 128 + program, bank 128 included),
  // queued after its load; false when the queue is full.
  bool selectPreset(int part, int preset);
  bool previewNote(int key, int velocity);
  PreviewState previewState() const;
  control::ProblemLog& problemLog() noexcept { return problems_; }
  engine::Engine& engine() noexcept { return engine_; }
  io::LiveProcessor& live() noexcept { return live_; }
  stream::Streaming* streaming() const noexcept { return streaming_; }
  io::AudioBackend* backend() const noexcept { return backend_; }

  // ---- ControlTarget ----
  void load(uint64_t ticket, int part, const std::string& path, control::LoadListener& listener) override;
  bool unload(int part) override;
  bool sendMidi(uint8_t status, uint8_t data1, uint8_t data2) override { return sendMidiAt(status, data1, data2, {}); }
  bool setPartVolume(int part, float db) override;
  bool setPartPan(int part, float pan) override;
  bool setPartMute(int part, bool on) override;
  bool setPartSolo(int part, bool on) override;
  bool setPartTuning(int part, const std::string& scale, const std::string& keymap, std::string& error) override;
  bool setPolyphony(int voices) override;
  bool setMpeZone(bool upper, int members) override;
  bool setPreloadFrames(int frames) override;
  bool setQuality(int quality) override;
  bool panic() override;
  bool setEffect(EffectParam param, float value) override;
  std::array<float, 2> partSends(int part) override;
  bool setTempo(float bpm) override;
  control::TempoStatus tempo() override;
  std::vector<PartEffectInfo> partEffects(int part) override;
  bool setPartEffectBypass(int part, int index, bool on) override;
  int maxPolyphony() const override { return engine_.config().polyphony; }
  control::ControlStatus status() override;
  control::SessionState sessionState() override;
  const control::ProblemLog& problems() override { return problems_; }
  std::vector<control::PartControl> partControls(int part) override;
  control::ConnectionState connections() override { return connections_.state(); }
  void restoreConnections(const std::vector<control::ConnectionLink>& links) override { connections_.restore(links); }
  void setConnection(const control::ConnectionLink& link, bool on) override { connections_.set(link, on); }
  control::HostControl* hostControl() override { return hosts_; }
  library::Index* libraryIndex() override { return libraryIndex_; }

 private:
  struct Job {
    uint64_t ticket = 0;
    int part = 0;
    std::string path;
    control::LoadListener* listener = nullptr;
    LoadProgress progress;
  };
  PartState& at(int part) { return parts_[static_cast<std::size_t>(part)]; }  // mutex_ held
  // Control.cpp
  bool queue(const engine::Command& command);          // takes the lock
  bool queueLocked(const engine::Command& command);    // mutex_ held
  template <typename Change>
  bool command(const engine::Command& command, Change change);  // queues, then changes the state
  static engine::Command partCommand(engine::CommandType type, int part) {
    engine::Command command;
    command.type = type;
    command.part = static_cast<int8_t>(part);
    return command;
  }
  void changed();
  void postQueued();
  void postTunings();
  void takeDiskErrors();
  // ControlLoad.cpp
  void runLoad(Job& job);  // loader thread
  void finishLoad(Job& job, control::LoadEvent event, std::vector<Problem> problems);
  bool playOnPart(const Job& job, std::unique_ptr<engine::Program> program, const LoadReport& report);
  void shareSoundFont(int from);  // mutex_ held
  void notify(const Job& job, const control::LoadEvent& event);
  // ControlPreview.cpp
  void runPreview(const std::string& path, int preset, const std::shared_ptr<LoadProgress>& progress);  // loader thread
  bool playPreview(std::unique_ptr<engine::Program> program, const std::string& path, const LoadReport& report, int preset,
                   const std::shared_ptr<LoadProgress>& progress);
  // ControlState.cpp
  void addSends(control::SessionState& state);
  void addDiskStatus(control::ControlStatus& out);

  engine::Engine& engine_;
  io::LiveProcessor& live_;
  const int midiInput_;
  Library& library_;
  control::ProblemLog& problems_;

  mutable std::mutex mutex_;  // guards everything below up to the connections
  std::deque<engine::Command> commands_;
  std::array<std::optional<KeyTuning>, control::kParts> tunings_;  // for Engine::setPartTuning; the newest wins
  std::array<uint64_t, control::kParts> tuningSerials_{};          // raised with each one set
  std::array<PartState, control::kParts> parts_;
  std::array<std::shared_ptr<Job>, control::kParts> jobs_;  // each part's load, queued or running
  std::array<LoadStatus, control::kParts> lastLoads_;       // each part's last finished load
  control::EngineSettings settings_;
  EffectValues effects_;
  PreviewState preview_;
  std::shared_ptr<LoadProgress> previewLoad_;  // the preview load on its way; null: none

  std::mutex midiMutex_;  // orders the producers of the one MIDI input (OSC, the window)
  std::atomic<uint64_t> refused_{0};
  Connections connections_;
  io::AudioBackend* backend_ = nullptr;
  stream::Streaming* streaming_ = nullptr;
  control::HostControl* hosts_ = nullptr;
  library::Index* libraryIndex_ = nullptr;
  stream::CacheRate cacheRate_;  // status(): the control thread
  std::mutex listenerMutex_;     // guards the listener and the observer
  std::function<void()> listener_;
  control::LoadListener* observer_ = nullptr;
  std::unique_ptr<stream::LoaderThread> loaderThread_;  // last: stops first
};

// Queues `command`; when the queue took it, `change` updates the state (the lock held)
// and the change listener hears of it.
template <typename Change>
bool Control::command(const engine::Command& command, Change change) {
  {
    std::lock_guard lock(mutex_);
    if (!queueLocked(command)) return false;
    change();
  }
  changed();
  return true;
}

}  // namespace spindle::session
