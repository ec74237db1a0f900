#pragma once
// SamplePool: every sample Spindle has loaded, each once, at a stable address.
//
// Thread: the loader thread only (one owner; not synchronised). The SampleData it
// hands out is immutable and stays valid until the pool is destroyed, so the pool
// must outlive every engine::Program that points into it.
//
// With PoolOptions::preloadFrames < 0 each file is decoded whole into RAM. With a
// preload N >= 0, a file keeps only its first frames in RAM (framesInRam < totalFrames,
// SampleData::path set) and the disk thread streams the rest: N frames for a sample its
// regions play at most at its own pitch from its start, more for one they play faster
// or start later into (PreloadNeed: the preload covers the same start-up time at every
// pitch and offset a note can have). A file no longer than its preload plus readFrames
// is held whole (streaming it would save less than one read).
//
// A reversed sample (SampleDirection::Reverse, for direction=reverse) is a record of
// its own beside the forward one of the same path: always decoded whole into RAM (never
// streamed, whatever the preload), its frames reversed (frame i = the file's frame
// total-1-i), counted against the memory budget like any other record. Its loop (smpl
// chunk, generator table) is mirrored: the same frames loop, in reversed frame numbers.
//
// Memory layout of one record's frames (planar, see core/SampleData.h), each value in
// the file's own format: 16-bit files as 16-bit integers, 24-bit ones packed in 3
// bytes, everything else (float, Ogg Vorbis, generators) as float:
//
//   storage: [ guard | left frames | guard ][ guard | right frames | guard ]
//              zeros                 zeros    (absent for a mono file: frames[1]
//                                              points at the left channel)
//
// Failures never throw: a missing or unreadable file, or one over the memory budget,
// gives a nullptr sample and one message naming the file (libsndfile's reason for
// unreadable ones); every other sample still loads. Asking again for a failed path returns nullptr silently.
// A reversed record that fails as its forward twin did adds no second message.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/SampleData.h"

namespace spindle::stream {

class AudioFileReader;

struct PoolOptions {
  int64_t preloadFrames = -1;  // frames decoded into RAM per file; < 0 = the whole file
  int64_t readFrames = 0;      // the disk thread's read: files up to preload + this are held whole
  // Sample data the pool may hold in RAM, bytes; 0 = defaultMemoryBudget(). A sample
  // that would cross it is not loaded (a degraded load): one Unreadable message names
  // the file, the bytes it needs and the budget; every sample that fits still loads.
  std::size_t memoryBudget = 0;
  // The rate of the engine the loaded Programs play at: a convolution effect's impulse
  // response is resampled to it (formats/ImpulseResponses.h).
  double outputRate = 48000.0;
};

// Half the machine's physical memory: a library larger than that fails sample by
// sample with a message instead of the kernel's out-of-memory killer ending Spindle.
std::size_t defaultMemoryBudget() noexcept;

enum class SampleDirection : uint8_t { Forward, Reverse };

// What the regions that play a sample ask of its preload: the fastest they may read it
// (from the key range, tuning, bend and pitch modulation; the pool adds the file's own
// rate against a 48 kHz output) and the furthest into the file a note of theirs starts.
// The default asks for the base preload as it is.
struct PreloadNeed {
  double cents = 0.0;        // the highest pitch above the file's own, in cents
  int64_t offsetFrames = 0;  // the largest start offset
  // The preload of a file at `fileRate` for a base preload of `frames`: `frames` at the
  // fastest speed (at most kMaxSpeed times), after the offset (at most kMaxOffsetFrames).
  static constexpr double kMaxSpeed = 8.0;
  static constexpr int64_t kMaxOffsetFrames = 65536;
  int64_t preloadFor(int64_t frames, double fileRate) const noexcept;
};

struct PoolMessage {
  enum class Kind : uint8_t { Missing, Unreadable, Warning };
  Kind kind = Kind::Warning;
  std::string path;
  std::string text;  // a complete sentence naming the file
};

// One distinct sample path and what became of it.
struct SampleRecord {
  std::string path;         // absolute file path or generator name ("*sine")
  SampleDirection direction = SampleDirection::Forward;
  std::string formatName;   // "WAV PCM_16", "generator", ... ; empty if unread
  int format = 0;           // libsndfile SF_FORMAT_*; 0 for generators
  int fileChannels = 0;     // as stored in the file (SampleData::channels is at most 2)
  SampleData data;          // valid when loaded
  bool loaded = false;
  bool missing = false;     // not loaded because the file does not exist
  std::string error;        // why it was not loaded (the message reported for it)
  std::unique_ptr<std::byte[]> storage;
  std::size_t storageBytes = 0;
  std::unique_ptr<float[]> tableStorage;  // makeTable(): channel 0 as float, guards included
};

class SamplePool {
 public:
  explicit SamplePool(PoolOptions options = {});
  ~SamplePool();
  SamplePool(const SamplePool&) = delete;
  SamplePool& operator=(const SamplePool&) = delete;

  // Returns the sample for `path` (absolute path or generator name) played in
  // `direction`, loading it on first request with the preload `need` asks; nullptr when
  // it cannot be loaded (see messages()). A sample already loaded stays as it is.
  const SampleData* acquire(const std::string& path, SampleDirection direction = SampleDirection::Forward,
                            const PreloadNeed& need = {});
  // acquire() for each path, in order; the result is indexed like `paths`.
  std::vector<const SampleData*> acquireAll(const std::vector<std::string>& paths);

  const SampleRecord* find(const std::string& path, SampleDirection direction = SampleDirection::Forward) const;
  const SampleRecord& record(uint32_t id) const { return *records_[id]; }
  std::size_t size() const noexcept { return records_.size(); }
  std::size_t loadedCount() const noexcept;
  std::size_t streamedCount() const noexcept;  // loaded samples only partly in RAM
  std::size_t bytesInRam() const noexcept { return bytesInRam_; }
  // Bytes of frames in RAM per loaded sample, on average (0 before the first).
  std::size_t bytesPerSample() const noexcept;

  // The first channel of a sample held whole in RAM as float (SampleData::table), for a
  // region that plays it as an oscillator table; made once, counted in bytesInRam(). Only
  // for a sample no published Program plays as a table yet (the loader asks before it
  // publishes the Program that needs it). Null when the sample is not held whole.
  const float* makeTable(const SampleData* sample);
  std::size_t memoryBudget() const noexcept { return budget_; }
  const PoolOptions& options() const noexcept { return options_; }
  // Loader thread: the engine's rate changed (a window's engine starts after its pool).
  void setOutputRate(double rate) noexcept { options_.outputRate = rate; }

  // Every error and warning so far, in load order; each failed path appears once.
  const std::vector<PoolMessage>& messages() const noexcept { return messages_; }

 private:
  void load(SampleRecord& record, const PreloadNeed& need);
  bool loadGenerator(SampleRecord& record);
  bool loadFile(SampleRecord& record, const PreloadNeed& need);
  std::unique_ptr<AudioFileReader> openFile(SampleRecord& record);
  bool decodedEnough(SampleRecord& record, const AudioFileReader& reader, int64_t got, int64_t wanted);
  static void describeFrames(SampleRecord& record, AudioFileReader& reader, int64_t got, bool streamed);
  int64_t readFrames(SampleRecord& record, AudioFileReader& reader, int64_t wanted);
  bool fitsBudget(SampleRecord& record, std::size_t needed);
  static void reverseFrames(SampleRecord& record);
  std::array<void*, 2> allocate(SampleRecord& record, int channels, int64_t frames, SampleFormat format);
  void report(SampleRecord& record, PoolMessage::Kind kind, std::string text);

  PoolOptions options_;
  std::vector<std::unique_ptr<SampleRecord>> records_;  // index = SampleData::id
  std::array<std::unordered_map<std::string, uint32_t>, 2> byPath_;  // indexed by SampleDirection
  std::vector<PoolMessage> messages_;
  std::size_t bytesInRam_ = 0;
  std::size_t budget_ = 0;
};

}  // namespace spindle::stream
