#pragma once
// ClapHost: a small CLAP host for the plugin's tests. It dlopen()s the built
// spindle.clap, finds clap_entry, asks its factory for Spindle, and drives it as a DAW
// does on one thread: init, state, activate (rate, longest block), start_processing,
// process() block by block with its events, on_main_thread when the plugin asked for a
// callback. It offers the plugin log and thread-check (the audio thread is the one
// inside process()).
//
// Nothing the host does around process() allocates: the event list and the output
// buffers are sized up front, so an allocation counted inside the audio scope
// (RtGuard.h) is the plugin's.
#include <clap/clap.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "io/MidiFile.h"

namespace spindle::test {

// The plugin's parameter ids (src/clap/Plugin.h's ParamId; ClapParamsTests checks their names).
namespace param {
inline constexpr clap_id kLevel = 0, kVoices = 1, kUnderruns = 2, kLatency = 3, kCacheFill = 4, kFirstControl = 5,
                         kCount = 37;
}

struct ClapHostOptions {
  double sampleRate = 48000.0;
  uint32_t maxFrames = 4096;
  bool offline = true;  // the render extension's mode
  bool partOutputs = false;  // the audio-ports-config layout with the 16 part outputs
};

class ClapHost {
 public:
  explicit ClapHost(ClapHostOptions options = {});
  ~ClapHost();
  ClapHost(const ClapHost&) = delete;
  ClapHost& operator=(const ClapHost&) = delete;

  bool ok() const { return plugin_ != nullptr && error_.empty(); }
  const std::string& error() const { return error_; }
  const clap_plugin_t& plugin() const { return *plugin_; }
  template <typename Extension>
  const Extension* extension(const char* id) const {
    return static_cast<const Extension*>(plugin_->get_extension(plugin_, id));
  }

  // Main thread, before or after activate().
  bool loadState(const std::string& bytes);
  std::optional<std::string> saveState();
  bool activate();

  // Events of the next process(), added in frame order.
  void note(uint16_t type, uint32_t frame, int32_t noteId, int16_t channel, int16_t key, double velocity);
  void midi(uint32_t frame, const uint8_t* bytes, uint16_t port = 0);
  void param(uint32_t frame, clap_id id, double value);
  // A parameter modulation (CLAP_EVENT_PARAM_MOD) of note `noteId`, or of port/channel/key
  // (-1: any; all -1: the whole part's).
  void paramMod(uint32_t frame, clap_id id, double amount, int32_t noteId = -1, int16_t port = -1,
                int16_t channel = -1, int16_t key = -1);
  // A note expression (CLAP_NOTE_EXPRESSION_*) of note `noteId`, or of port/channel/key (-1: any).
  void expression(uint32_t frame, clap_note_expression id, int32_t noteId, int16_t port, int16_t channel, int16_t key,
                  double value);
  // One block: process(frames) (inside an AudioThreadScope when `audioScope`), then
  // on_main_thread if the plugin asked for it. Its output in left()/right().
  clap_process_status process(uint32_t frames, bool audioScope = false);
  const float* left() const { return left_.data(); }
  const float* right() const { return right_.data(); }
  // Part p's (0..15) own output, with ClapHostOptions::partOutputs.
  const float* partLeft(int p) const { return parts_.at(2 * static_cast<std::size_t>(p)).data(); }
  const float* partRight(int p) const { return parts_.at(2 * static_cast<std::size_t>(p) + 1).data(); }
  bool paramValue(clap_id id, double& value) const;
  // The parameter values the plugin sent in the last process() (its out_events).
  struct SentParam {
    clap_id id = 0;
    uint32_t frame = 0;
    double value = 0.0;
  };
  std::vector<SentParam> sentParams() const { return {sent_.begin(), sent_.begin() + static_cast<long>(sentCount_)}; }
  // The NOTE_END events the plugin sent in the last process().
  struct SentNoteEnd {
    int32_t noteId = -1;
    int16_t port = -1, channel = -1, key = -1;
    uint32_t frame = 0;
  };
  std::vector<SentNoteEnd> noteEnds() const {
    return {ends_.begin(), ends_.begin() + static_cast<long>(endCount_)};
  }
  void receive(const clap_event_header_t& event);

  std::vector<std::string> takeLog();
  // For the thread-check extension: whether the caller is inside process().
  bool inProcess() const { return inProcess_; }
  // Makes thread-check answer "audio thread" outside process() too (a misbehaving host).
  void pretendAudioThread(bool on) { inProcess_ = on; }
  void addLog(int severity, const char* message);
  void requestCallback() { callbackRequested_.store(true); }
  // How often the plugin said its note names changed (the host's note-name extension).
  int noteNamesChanged() const { return noteNamesChanged_; }
  void countNoteNamesChanged() { ++noteNamesChanged_; }  // any thread (the plugin's loader too)

 private:
  struct EventSlot {  // room for any event the host sends
    union {
      clap_event_header_t header;
      clap_event_note_t note;
      clap_event_midi_t midi;
      clap_event_param_value_t param;
      clap_event_param_mod_t mod;
      clap_event_note_expression_t expression;
    };
  };
  static uint32_t eventCount(const clap_input_events_t* list);
  static const clap_event_header_t* eventAt(const clap_input_events_t* list, uint32_t index);
  EventSlot& nextSlot(uint32_t frame);

  ClapHostOptions options_;
  std::string error_;
  clap_host_t host_{};
  const clap_plugin_t* plugin_ = nullptr;
  bool active_ = false;
  bool inProcess_ = false;
  std::atomic<bool> callbackRequested_{false};
  int noteNamesChanged_ = 0;
  std::mutex logMutex_;  // the plugin logs from its loader thread too
  std::vector<std::string> log_;
  std::vector<EventSlot> events_;
  std::size_t eventsUsed_ = 0;
  clap_input_events_t inEvents_{};
  clap_output_events_t outEvents_{};
  std::array<SentParam, 64> sent_{};
  std::size_t sentCount_ = 0;
  std::array<SentNoteEnd, 64> ends_{};
  std::size_t endCount_ = 0;
  static constexpr std::size_t kParts = 16;
  std::vector<float> left_, right_;
  std::array<std::vector<float>, 2 * kParts> parts_;
  std::array<float*, 2 * (1 + kParts)> channels_{};
  std::array<clap_audio_buffer_t, 1 + kParts> outputs_{};
};

// The song's channel messages as (frame, bytes) at `rate`, as spindle-render places them.
struct FramedMidi {
  int64_t frame = 0;
  std::array<uint8_t, 3> bytes{};
};
std::vector<FramedMidi> framedEvents(const io::MidiSong& song, double rate);

}  // namespace spindle::test
