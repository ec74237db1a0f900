#pragma once
// Lv2Host: a small LV2 host on liblilv for the plugin's tests. It loads the built
// spindle.lv2 bundle (and nothing else: LV2_PATH is the build's lib/lv2 and the system's
// specifications), instantiates Spindle with urid:map, options (block lengths), log and
// a worker, and drives run() block by block.
//
// The worker runs its jobs on the test's thread after each run() (as a host working
// synchronously in freewheel would); the jobs' responses reach the plugin at the start
// of the next cycle, inside the same scope as run(). Nothing the host does around run()
// allocates: the worker's queue and the port buffers are sized up front, so an
// allocation counted inside the scope is the plugin's.
#include <lilv/lilv.h>
#include <lv2/atom/forge.h>
#include <lv2/log/log.h>
#include <lv2/options/options.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "io/MidiFile.h"

namespace spindle::test {

struct HostOptions {
  double sampleRate = 48000.0;
  int maxBlockFrames = 4096;  // 0: no options feature at all
  bool freewheel = true;
};

class Lv2Host {
 public:
  explicit Lv2Host(HostOptions options = {});
  ~Lv2Host();
  Lv2Host(const Lv2Host&) = delete;
  Lv2Host& operator=(const Lv2Host&) = delete;

  bool ok() const { return instance_ != nullptr; }
  const std::string& error() const { return error_; }

  // Queues a patch:Set of the instrument (a path) or the level (dB), or a patch:Get,
  // for the next run().
  void setInstrument(const std::string& path);
  void setLevel(float db);
  void getParameters();
  // Queues a MIDI message at `frame` of the next run().
  void midi(uint32_t frame, const uint8_t* bytes, uint32_t size);
  // The "Control N" input port n (1..kControls): its value from the next run() on.
  static constexpr int kControls = 32;
  void setControl(int n, float value) { controls_.at(static_cast<std::size_t>(n - 1)) = value; }
  // The health output ports as the last run() wrote them.
  struct Health {
    float voices = -1.0f, underruns = -1.0f, latencyMs = -1.0f, cacheFill = -1.0f;
  };
  const Health& health() const { return health_; }
  // Connects part p's (0..15) optional stereo output; its frames of the last run().
  void connectPart(int p);
  // Connects every part output to one scratch buffer, as a host does with the outputs
  // it does not use (Ardour).
  void connectPartsToScratch();
  const float* partLeft(int p) const { return partLeft_.at(static_cast<std::size_t>(p)).data(); }
  const float* partRight(int p) const { return partRight_.at(static_cast<std::size_t>(p)).data(); }

  // One cycle: worker responses, run(frames), then the worker's jobs. The output is in
  // left()/right() until the next call. `audioScope`: run it inside an AudioThreadScope.
  void run(uint32_t frames, bool audioScope = false);
  const float* left() const { return left_.data(); }
  const float* right() const { return right_.data(); }
  // The patch:Set replies of the last run(): property URI -> path or level as text, or a
  // tuple's strings each ended by a newline.
  const std::map<std::string, std::string>& replies() const { return replies_; }
  // While set, schedule_work refuses every request (a full worker queue).
  void refuseWork(bool refuse) { refuseWork_ = refuse; }
  // What the plugin logged (log:log), one line each.
  std::vector<std::string> takeLog();

  // State: saved to a new directory `dir` (lilv_state_new_from_instance, then
  // lilv_state_save; external files are linked from there), and restored from the
  // file saved there into this instance.
  bool saveState(const std::filesystem::path& dir);
  bool restoreState(const std::filesystem::path& dir);

  LV2_URID map(const char* uri);
  const char* unmap(LV2_URID urid);

 private:
  void instantiate();
  static LV2_Worker_Status schedule(LV2_Worker_Schedule_Handle handle, uint32_t size, const void* data);
  static LV2_Worker_Status respond(LV2_Worker_Respond_Handle handle, uint32_t size, const void* data);
  void startSequence();
  void readReplies();
  void runWork();

  struct Message {
    uint32_t size = 0;
    std::array<char, 8192> bytes{};
  };
  struct Queue {
    std::vector<Message> slots = std::vector<Message>(64);
    std::size_t count = 0;
    bool push(uint32_t size, const void* data);
  };

  HostOptions options_;
  std::string error_;
  std::mutex mapMutex_;
  std::map<std::string, LV2_URID> ids_;
  std::vector<std::string> uris_;
  LV2_URID_Map map_{};
  LV2_URID_Unmap unmap_{};
  LV2_Worker_Schedule schedule_{};
  LV2_Log_Log log_{};
  std::vector<std::string> logLines_;
  int32_t maxBlock_ = 0;
  std::array<LV2_Options_Option, 3> optionList_{};
  std::array<LV2_Feature, 5> features_{};
  std::array<const LV2_Feature*, 6> featureList_{};

  LilvWorld* world_ = nullptr;
  const LilvPlugin* plugin_ = nullptr;
  LilvInstance* instance_ = nullptr;
  const LV2_Worker_Interface* worker_ = nullptr;
  Queue requests_, responses_;
  std::vector<uint64_t> control_, notify_;  // atom sequences, 8-byte aligned
  std::vector<float> left_, right_;
  float freewheel_ = 1.0f;
  std::array<float, kControls> controls_;
  std::array<std::vector<float>, 16> partLeft_, partRight_;
  std::vector<float> scratch_;
  Health health_;
  bool refuseWork_ = false;
  LV2_Atom_Forge forge_{};
  LV2_Atom_Forge_Frame sequenceFrame_{};
  std::map<std::string, std::string> replies_;
};

// The song's channel messages as (frame, bytes) at `rate`, as spindle-render places them.
struct FramedMidi {
  int64_t frame = 0;
  std::array<uint8_t, 3> bytes{};
  uint32_t size = 0;
};
std::vector<FramedMidi> framedEvents(const io::MidiSong& song, double rate);

// Renders `frames` frames of `events` through the host, each block's length from
// nextBlock(); appends the output to left/right.
template <typename NextBlock>
void renderThrough(Lv2Host& host, const std::vector<FramedMidi>& events, int64_t frames, NextBlock nextBlock,
                   std::vector<float>& left, std::vector<float>& right) {
  std::size_t next = 0;
  for (int64_t done = 0; done < frames;) {
    const auto length = static_cast<uint32_t>(std::min<int64_t>(nextBlock(), frames - done));
    for (; next < events.size() && events[next].frame < done + length; ++next)
      host.midi(static_cast<uint32_t>(events[next].frame - done), events[next].bytes.data(), events[next].size);
    host.run(length);
    left.insert(left.end(), host.left(), host.left() + length);
    right.insert(right.end(), host.right(), host.right() + length);
    done += length;
  }
}

}  // namespace spindle::test
