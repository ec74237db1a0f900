#pragma once
// Plugin: Spindle as an LV2 instrument, a door onto the plugin core (plugin/Core.h: the
// engine, the disk thread and the Library, as the JACK backend's session owns them);
// run() is the process callback.
//
//   host run() ──► atom sequence: MIDI at its frame ──► io::LiveProcessor ──► Engine
//        │         control ports: CC to part 0 ──┤        (blocks split at the engine's
//        │         patch:Set instrument / level ─┐        max; freewheel: waits for disk)
//        │         patch:Get ──► reply on notify │         health ports written after
//        ▼                                        ▼        each cycle
//   work():  Library::load, SetProgram on every part, the Programs handed back freed
//            (the session room's Library, session/Library.h; the worker thread)
//   work_response(): the new path, sent back on the notify port (audio thread)
//
// Threads, by LV2's contexts:
//   - audio (run, workResponse): no allocation, lock, wait, log or file I/O; a
//     freewheeling run() renders through Engine::processWaiting (it may wait for the disk).
//   - the host's worker (work) and state calls (save, restore): the control side. They
//     may run on different threads, so they take the core's controlMutex(): one at a time
//     posts commands (Engine::postCommand) and frees the Programs the engine hands back.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include <lv2/atom/forge.h>
#include <lv2/core/lv2.h>
#include <lv2/log/log.h>
#include <lv2/state/state.h>
#include <lv2/worker/worker.h>

#include "core/Limits.h"
#include "core/Realtime.h"
#include "engine/Engine.h"
#include "lv2/Uris.h"
#include "lv2/WorkMessage.h"
#include "plugin/Core.h"

namespace spindle::lv2 {

inline constexpr uint32_t kMaxPathBytes = 4096;  // an instrument path, NUL included
inline constexpr float kMinLevelDb = plugin::kMinLevelDb, kMaxLevelDb = plugin::kMaxLevelDb;

// The ports, by index (spindle.ttl): kControlPorts "Control N" inputs from
// kFirstControlPort, then the health outputs, then each part's optional stereo output
// (left, right) from kFirstPartPort: the part alone, while the main pair carries the mix.
enum Port : uint32_t {
  kControlPort = 0, kNotifyPort, kLeftPort, kRightPort, kFreewheelPort,
  kFirstControlPort, kVoicesPort = kFirstControlPort + kControlPorts, kUnderrunsPort, kLatencyPort, kCacheFillPort,
  kFirstPartPort, kPortCount = kFirstPartPort + 2 * limits::kChannels
};
inline constexpr float kControlUnset = -1.0f;  // a control port's default: the library's own value

// What the host passed to instantiate() that the plugin keeps.
struct HostFeatures {
  LV2_URID_Map* map = nullptr;
  LV2_Worker_Schedule* schedule = nullptr;
  LV2_Log_Log* log = nullptr;
  int maxBlockFrames = 0;  // buf-size's maxBlockLength (else nominalBlockLength); 0: unknown
};
// Reads the features; empty `missing` when every required one is there.
HostFeatures readFeatures(const LV2_Feature* const* features, std::string& missing);

class Plugin {
 public:
  Plugin(double sampleRate, const HostFeatures& host);
  Plugin(const Plugin&) = delete;
  Plugin& operator=(const Plugin&) = delete;

  void connect(uint32_t port, void* data) noexcept;
  // Audio thread (or the freewheeling process thread).
  void run(uint32_t frames) noexcept;
  LV2_Worker_Status workResponse(uint32_t size, const void* data) noexcept SPINDLE_REALTIME;

  // Worker thread.
  LV2_Worker_Status work(LV2_Worker_Respond_Function respond, LV2_Worker_Respond_Handle handle, uint32_t size,
                         const void* data);
  // The host's state calls (not the audio thread).
  LV2_State_Status save(LV2_State_Store_Function store, LV2_State_Handle handle, const LV2_Feature* const* features);
  LV2_State_Status restore(LV2_State_Retrieve_Function retrieve, LV2_State_Handle handle,
                           const LV2_Feature* const* features);

 private:
  template <bool Live>
  void process(uint32_t frames) noexcept SPINDLE_REALTIME_IF(Live);
  void handleEvent(const LV2_Atom_Event& event, uint32_t chunkStart) noexcept SPINDLE_REALTIME;
  void handlePatch(const LV2_Atom_Object& object) noexcept SPINDLE_REALTIME;
  // False when the host's worker queue refused the request.
  bool schedule(uint32_t kind, float value, const char* path, uint32_t pathBytes) noexcept SPINDLE_REALTIME;
  void retryRefused() noexcept SPINDLE_REALTIME;
  void writeReplies() noexcept SPINDLE_REALTIME;
  void scheduleCollect(uint32_t frames) noexcept SPINDLE_REALTIME;
  // The control ports (PluginPorts.cpp): changed values, or all after a load, as CCs to
  // part 0 at the cycle's first frame; the instrument's labels on notify; the health.
  void sendControls() noexcept SPINDLE_REALTIME;
  void takeControlMap(const ControlMap& map) noexcept SPINDLE_REALTIME;
  void writeControlLabels() noexcept SPINDLE_REALTIME;
  void writeHealth() noexcept SPINDLE_REALTIME;

  // Control side (the core's controlMutex() held).
  void saveControls(LV2_State_Store_Function store, LV2_State_Handle handle);
  void restoreControls(LV2_State_Retrieve_Function retrieve, LV2_State_Handle handle);
  void logLine(bool error, const std::string& text);

  HostFeatures host_;
  Uris uris_;
  plugin::Core core_;

  // Ports (audio thread).
  const LV2_Atom_Sequence* control_ = nullptr;
  LV2_Atom_Sequence* notify_ = nullptr;
  float* left_ = nullptr;
  float* right_ = nullptr;
  const float* freewheel_ = nullptr;
  std::array<const float*, kControlPorts> controlPorts_{};
  float* voicesOut_ = nullptr;
  float* underrunsOut_ = nullptr;
  float* latencyOut_ = nullptr;
  float* cacheFillOut_ = nullptr;
  std::array<engine::StereoOut, limits::kChannels> partPorts_{};  // either may be null

  // Audio thread state.
  LV2_Atom_Forge forge_{};
  LV2_Atom_Forge_Frame notifyFrame_{};  // the notify port's sequence, open during run()
  char path_[kMaxPathBytes] = {};  // the instrument playing (also written by restore: never concurrent)
  uint32_t pathBytes_ = 0;
  bool replyPending_ = false;
  uint64_t framesSinceCollect_ = 0;
  int collectRounds_ = 0;
  char pendingPath_[kMaxPathBytes] = {};  // a load the worker's queue refused, asked again each cycle
  uint32_t pendingPathBytes_ = 0;
  bool levelPending_ = false;
  // The control ports: the CC each plays (-1: none), the value each port showed last,
  // whether every set value goes out again (a new instrument), its labels for notify.
  ControlMap controlMap_{};
  std::array<float, kControlPorts> portSeen_{};
  bool resendControls_ = false;
  std::atomic<float> level_{0.0f};  // part 0's level in dB: audio thread writes, save reads
  // Each control port's value in effect (kControlUnset: none): audio thread writes, save reads.
  std::array<std::atomic<float>, kControlPorts> controlValues_;
};

}  // namespace spindle::lv2
