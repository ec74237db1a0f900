#pragma once
// LiveControl: the ControlTarget of `spindle --headless`: what OSC and NSM drive.
//
//   control thread ──► MIDI: LiveProcessor midi input (SPSC FIFO, timestamped on the
//                      audio clock, played one period later like the midi threads')
//                 ──► engine commands ─┐
//   loader thread  ──► SetProgram ─────┴─► bounded command queue ─► main thread pump()
//                                                 ─► Engine::postCommand ─► audio thread
//
// The main thread stays the Engine's only control-side caller (postCommand,
// collectGarbage), as LiveSession has it; the queue in front of it is bounded: a full
// queue refuses the command (the OSC layer counts and reports it). Loads run on the
// loader thread (stream::LoaderThread), one at a time, through app::Loader; the
// Programs they build are owned here and freed on the main thread when the engine
// hands them back.
//
// Threads: ControlTarget methods on the control thread; pump(), dispose() and
// shutdown() on the main thread; the loader thread runs load jobs and adds the samples
// a load leaves out (over the memory budget, unreadable) to the problem log.
#include <array>
#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "app/ConnectionControl.h"
#include "app/Loader.h"
#include "core/Tuning.h"
#include "control/ControlTarget.h"
#include "engine/Engine.h"
#include "io/LiveProcessor.h"
#include "stream/CacheRate.h"
#include "stream/LoaderThread.h"

namespace spindle::app {

inline constexpr std::size_t kControlQueueCapacity = 4096;

class LiveControl final : public control::ControlTarget {
 public:
  // `midiInput`: the LiveProcessor input this object alone produces into. `problems`:
  // the session's problem log (outlives this object); loads add the samples they leave
  // out, and OSC reads it through problems().
  LiveControl(engine::Engine& engine, io::LiveProcessor& live, int midiInput, stream::PoolOptions pool,
              control::ProblemLog& problems);
  ~LiveControl() override;  // waits for a running load

  // ---- main thread ----
  // The instrument every part starts with (--instrument), for sessionState().
  void setInitialInstrument(const std::string& path);
  // The effects of that instrument (its bus layout), for partEffects().
  void setInitialPartEffects(const BusLayout& layout);
  // The reverb and chorus settings the engine was built with, for sessionState().
  void setInitialEffects(const EffectValues& values);
  // Forwards queued commands to the engine (what it refuses stays queued) and frees
  // the Programs the engine handed back.
  void pump();
  // Whether `program` is one of ours (then it is freed); for the main thread's disposer.
  bool dispose(const engine::Program* program);
  // Sample memory held outside this object (the --instrument's Loader), for status().
  void setBaseMemory(uint64_t bytes, uint64_t samples) {
    baseMemory_.store(bytes, std::memory_order_relaxed);
    baseSamples_.store(samples, std::memory_order_relaxed);
  }
  // The disk thread's counters (null: streaming off), for status()'s block cache
  // figures. Set before the control thread starts; they outlive this object.
  void setDiskCounters(const stream::DiskCounters* counters, uint64_t cacheBudget) {
    diskCounters_ = counters;
    cacheBudget_ = cacheBudget;
  }
  // The backend whose connections OSC reads and a session restores, and the MIDI inputs
  // OSC reports. Set before the control thread starts; the backend outlives it.
  void setBackend(io::AudioBackend* backend, std::vector<ConnectionControl::Input> inputs) {
    connections_.attach(backend, &live_, std::move(inputs));
  }
  // Runs the loads already asked for and ends the loader thread. Call after the control
  // thread has stopped and before the listener it reports to goes away.
  void stopLoads() { loaderThread_.reset(); }

  // ---- control thread: ControlTarget ----
  void load(uint64_t ticket, int part, const std::string& path, control::LoadListener& listener) override;
  bool unload(int part) override;
  bool sendMidi(uint8_t status, uint8_t data1, uint8_t data2) override;
  bool setPartVolume(int part, float db) override;
  bool setPartPan(int part, float pan) override;
  bool setPartMute(int part, bool on) override;
  bool setPartSolo(int part, bool on) override;
  bool setPartTuning(int part, const std::string& scale, const std::string& keymap, std::string& error) override;
  bool setPolyphony(int voices) override;
  bool setPreloadFrames(int frames) override;
  bool setQuality(int quality) override;
  bool panic() override;
  bool setEffect(EffectParam param, float value) override;  // LiveControlEffects.cpp
  std::array<float, 2> partSends(int part) override;
  bool setTempo(float bpm) override;  // LiveControlTempo.cpp
  control::TempoStatus tempo() override;
  std::vector<PartEffectInfo> partEffects(int part) override;                  // LiveControlPartEffects.cpp
  bool setPartEffectBypass(int part, int index, bool on) override;             // LiveControlPartEffects.cpp
  int maxPolyphony() const override { return engine_.config().polyphony; }
  control::ControlStatus status() override;
  control::SessionState sessionState() override;
  const control::ProblemLog& problems() override { return problems_; }
  std::vector<control::PartControl> partControls(int part) override;
  control::ConnectionState connections() override { return connections_.state(); }
  void restoreConnections(const std::vector<control::ConnectionLink>& links) override { connections_.restore(links); }
  void setConnection(const control::ConnectionLink& link, bool on) override { connections_.set(link, on); }
  // Main thread: the hosts this master routes (ConnectionControl::routeHosts).
  void routeHosts(const std::vector<control::HostSettings>& hosts) { connections_.routeHosts(hosts); }
  control::HostControl* hostControl() override { return hosts_; }
  // The remote Spindles this one drives (cluster::Hosts), for OSC and sessions. Set before
  // the control thread starts; they outlive this object.
  void setHosts(control::HostControl* hosts) { hosts_ = hosts; }

 private:
  struct Job {
    uint64_t ticket;
    int part;
    std::string path;
    control::LoadListener* listener;
  };
  bool queue(const engine::Command& command);
  void pumpTunings();  // main thread
  void addSends(control::SessionState& state);  // the engine's CC91 and CC93 of every part
  engine::Command partCommand(engine::CommandType type, int part) const;
  void runLoad(const Job& job);  // loader thread
  Loader::Result loadWithSettings(const std::string& path);                   // loader thread
  bool playOnPart(const Job& job, std::unique_ptr<engine::Program> program);  // loader thread
  Loader& loaderFor(int preloadFrames);  // loader thread
  void noteMemory();                     // loader thread

  engine::Engine& engine_;
  io::LiveProcessor& live_;
  int midiInput_;
  stream::PoolOptions pool_;
  control::ProblemLog& problems_;

  std::mutex mutex_;  // guards everything below up to the loader (control, loader, main threads)
  std::deque<engine::Command> commands_;
  std::deque<std::pair<int, KeyTuning>> tunings_;  // part and table, for Engine::setPartTuning
  std::map<const engine::Program*, std::unique_ptr<engine::Program>> owned_;
  control::SessionState state_;
  // The label_cc lines of each part's instrument, set when its load is posted.
  std::array<std::vector<controllers::ControllerLabel>, control::kParts> labels_;
  // The effects of each part's instrument (flags in state_'s parts), set when its load is posted.
  std::array<std::vector<PartEffectInfo>, control::kParts> effects_;
  // Parts playing a SoundFont loaded into another part (shareSoundFont): saved as empty.
  std::array<bool, control::kParts> sharedFont_{};
  std::atomic<uint64_t> memoryBytes_{0}, baseMemory_{0}, refused_{0};
  std::atomic<uint64_t> memorySamples_{0}, baseSamples_{0};  // loaded samples those bytes hold
  const stream::DiskCounters* diskCounters_ = nullptr;
  uint64_t cacheBudget_ = 0;
  stream::CacheRate cacheRate_;  // control thread (status())
  ConnectionControl connections_;
  control::HostControl* hosts_ = nullptr;

  // Loader thread only (after construction): one Loader per preload size, all kept:
  // the Programs they built point into their pools.
  std::map<int64_t, std::unique_ptr<Loader>> loaders_;
  void shareSoundFont(int from, const engine::Program* font, const std::vector<controllers::ControllerLabel>& labels);
  std::unique_ptr<stream::LoaderThread> loaderThread_;  // last: stops first, runs what is queued
};

}  // namespace spindle::app
