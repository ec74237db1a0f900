#pragma once
// Plugin: Spindle as a CLAP instrument, a door onto the plugin core (plugin/Core.h: the
// engine, the disk thread and the Library, as the LV2 plugin owns them). The host's
// clap_plugin calls (Entry.cpp) forward here.
//
//   process() ──► in_events: CLAP notes and MIDI at their frames ──► Core chunks
//        │        param value (level) ──► level_, then the main thread posts it
//        │        param mod of a control ──► the part's CC (no note named) or the
//        │        named notes' slots (Notes.h)
//        │        (blocks cut at the engine's max; offline render: waits for the disk)
//        ▼        health written after each block, read back as read-only params
//   main thread: activate (the Core; the instrument and level a state or the
//        environment named, loaded there), state save/load (the instrument's path and
//        the level; into a running core through the loader thread, LoadWorker.h),
//        on_main_thread (a level the audio thread took, a load's end), get_value.
//
// Threads, by CLAP's contexts:
//   - audio (process, and params' flush while active): no allocation, lock, wait, log or
//     file I/O; an offline render (render extension) goes through
//     Engine::processWaiting and may wait for the disk.
//   - main (everything else) and the loader thread: loads and levels under the core's
//     controlMutex(); main never waits for a load there but in activate(). The core
//     exists from the first activate() to destroy(); the audio thread only runs between
//     start_processing and stop_processing, inside activate/deactivate. An offline
//     process() waits for a load under way, so a render plays the library it was given.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <clap/clap.h>

#include "clap/LoadWorker.h"
#include "clap/Notes.h"
#include "core/Realtime.h"
#include "plugin/Core.h"

namespace spindle::clap {

inline constexpr const char* kPluginId = "spindle.sampler";
// Where a user picks the instrument an instance plays before a saved state names one.
inline constexpr const char* kInstrumentVariable = "SPINDLE_CLAP_INSTRUMENT";

// The parameters, by id: part 0's level, the health (read-only), then the library's
// labelled controls (plugin/ControlMap.h), each a MIDI CC value or unset.
enum ParamId : clap_id {
  kLevelParam = 0, kVoicesParam, kUnderrunsParam, kLatencyParam, kCacheFillParam,
  kFirstControlParam, kParamCount = kFirstControlParam + plugin::kControlPorts
};
inline constexpr float kControlUnset = -1.0f;  // a control's default: the library's own value

// What a state stream holds: the instrument's path (empty: none) and the same path
// relative to the user's home when it lies there (empty: it does not), part 0's level and
// the controls' values.
struct SavedState {
  SavedState() { controls.fill(kControlUnset); }
  std::string instrument;
  std::string instrumentInHome;
  float levelDb = 0.0f;
  std::array<float, plugin::kControlPorts> controls{};
};
std::string writeState(const SavedState& state);
bool readState(const std::string& text, SavedState& state);
// The path relative to $HOME of `path` when it lies under it, else empty.
std::string homeRelative(const std::string& path);
// Where a saved instrument is now: its absolute path when that file exists, else its
// home-relative path under this $HOME when that one does (a project and its library
// moved to another machine or user), else the absolute path as it was.
std::string findInstrument(const SavedState& state);

class Plugin {
 public:
  explicit Plugin(const clap_host_t* host);
  Plugin(const Plugin&) = delete;
  Plugin& operator=(const Plugin&) = delete;

  clap_plugin_t* clapPlugin() noexcept { return &plugin_; }

  // Main thread.
  bool init();
  bool activate(double sampleRate, uint32_t maxFrames);
  void deactivate() { active_ = false; }
  // The audio ports' layout (Ports.h): the parts' own outputs or not. Chosen while inactive.
  bool partOutputs() const { return partOutputs_; }
  bool selectPartOutputs(bool on);
  void onMainThread();
  bool saveState(const clap_ostream_t& stream);
  bool loadState(const clap_istream_t& stream);
  // note-name: what the library playing names its keys (label_key, keyswitches).
  uint32_t noteNameCount() const { return static_cast<uint32_t>(noteNames_.size()); }
  bool noteName(uint32_t index, clap_note_name_t& name) const;
  bool paramInfo(uint32_t index, clap_param_info_t& info) const;
  bool paramValue(clap_id id, double& value) const;
  int polyphony() const { return core_ && active_ ? core_->polyphony() : 0; }  // 0: not active
  // The effects' tail as of the last block (frames). Main or audio thread.
  uint32_t tailFrames() const noexcept { return tail_.load(std::memory_order_relaxed); }
  void setOffline(bool offline) noexcept { offline_.store(offline, std::memory_order_relaxed); }

  // Audio thread (or, for flush, the main thread while inactive).
  clap_process_status process(const clap_process_t& block) noexcept;
  void flushParams(const clap_input_events_t& events) noexcept SPINDLE_REALTIME;

 private:
  template <bool Live>
  void render(const clap_process_t& block, float* left, float* right,
              const engine::PartOutputs* parts) noexcept SPINDLE_REALTIME_IF(Live);
  // The parts' outputs of this block (null: none, or the main-only layout).
  const engine::PartOutputs* partPorts(const clap_process_t& block) noexcept SPINDLE_REALTIME;
  // `list` and `index`: where the event is in the host's list (null for a flush's).
  void handleEvent(const clap_event_header_t& event, uint32_t chunkStart, const clap_input_events_t* list = nullptr,
                   uint32_t index = 0) noexcept SPINDLE_REALTIME;
  void noteEvent(const clap_event_note_t& note, uint32_t offset, const clap_input_events_t* list,
                 uint32_t index) noexcept SPINDLE_REALTIME;
  void midiEvent(const clap_event_midi_t& midi, uint32_t offset) noexcept SPINDLE_REALTIME;
  void setParam(const clap_event_param_value_t& event, uint32_t offset) noexcept SPINDLE_REALTIME;
  // A control's modulation (LibraryControls.cpp): naming notes, theirs (Notes.h); else an
  // amount added to the control's value for the whole part, kept while its value moves.
  void modulateParam(const clap_event_param_mod_t& event, uint32_t offset) noexcept SPINDLE_REALTIME;
  // The controls (LibraryControls.cpp): a set value plays as its CC on part 0 at its
  // frame, and every set value again from the first frame after a library loaded.
  void setControl(std::size_t n, double value, uint32_t offset) noexcept SPINDLE_REALTIME;
  void takeControls() noexcept SPINDLE_REALTIME;
  void sendControl(std::size_t n, uint32_t offset) noexcept SPINDLE_REALTIME;
  void publishControls(const plugin::ControlMap& map) noexcept;  // the core's controlMutex() held
  std::string controlName(std::size_t n) const;
  // The health as read-only params: kept for get_value, and each changed value sent to
  // the host as a param value event at the block's last frame, so its display follows.
  void publishHealth(const clap_output_events_t* out, uint32_t frames) noexcept SPINDLE_REALTIME;

  // Main thread.
  bool mayLoad(const char* what);
  void playInstrument(const std::string& path);
  void takeLibraryNames();  // note and control names; the core's controlMutex() held
  void log(clap_log_severity severity, const std::string& text) const;

  clap_plugin_t plugin_{};
  const clap_host_t* host_;
  const clap_host_log_t* hostLog_ = nullptr;
  const clap_host_thread_check_t* threadCheck_ = nullptr;
  const clap_host_params_t* hostParams_ = nullptr;
  const clap_host_note_name_t* hostNoteName_ = nullptr;
  const clap_host_tail_t* hostTail_ = nullptr;
  std::unique_ptr<plugin::Core> core_;
  std::unique_ptr<LoadWorker> worker_;  // after core_: it stops before the core goes
  double activeRate_ = 0.0;
  uint32_t activeMaxFrames_ = 0;
  bool active_ = false;
  bool partOutputs_ = false;  // main thread, while inactive; the audio thread reads it
  engine::PartOutputs partPorts_{};  // audio thread: the part ports' buffers of this block
  Notes notes_;                      // audio thread (activate() clears it before a new core plays)
  bool mpeZoneSent_ = false;         // audio thread: the MPE port's zone configured in this core

  std::string instrument_;         // main thread: the path playing, or to play once active
  std::vector<controllers::KeyLabel> noteNames_;  // main thread: the library's, as last read
  std::atomic<float> level_{0.0f};  // part 0's level in dB: the audio thread or main writes
  std::atomic<bool> levelSet_{false};      // a level was set (else the engine's own stands)
  std::atomic<bool> levelPending_{false};  // the audio thread took a level: main posts it
  std::atomic<bool> offline_{false};
  std::atomic<uint32_t> tail_{0};  // the audio thread writes it after each block
  std::atomic<bool> newInstrument_{false};  // one loaded: the audio thread counts its underruns
  std::atomic<bool> loadEnded_{false};      // the loader thread finished: main reads the path playing
  std::array<std::atomic<float>, kFirstControlParam> health_{};  // the read-only params, by id
  std::array<float, kFirstControlParam> healthSent_{};           // audio thread: as last sent to the host
  // The controls: their CCs and initial values as the control side published them (a new
  // version each time), the audio thread's copy (with the values the part holds), their
  // values (kControlUnset: none), their monophonic modulation (audio thread), their names.
  std::array<std::atomic<int16_t>, plugin::kControlPorts> controlCc_{};
  std::array<std::atomic<float>, plugin::kControlPorts> controlInitial_{};
  std::atomic<uint32_t> controlsVersion_{0};
  uint32_t controlsSeen_ = 0;
  bool inChunk_ = false;         // audio thread: between the core's beginChunk and endChunk
  bool resendControls_ = false;  // audio thread: a value set outside a chunk plays at the next
  ModTargets playing_{};
  std::array<std::atomic<float>, plugin::kControlPorts> controlValues_{};
  std::array<float, plugin::kControlPorts> monoMod_{};
  plugin::ControlMap controlLabels_{};  // main thread
};

// The Plugin behind a clap_plugin_t the host hands back to a callback.
inline Plugin& self(const clap_plugin_t* plugin) { return *static_cast<Plugin*>(plugin->plugin_data); }

}  // namespace spindle::clap
