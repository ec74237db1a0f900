#pragma once
// AudioFileReader: one audio file opened through libsndfile, decoded in chunks.
//
// Thread: the loader thread (SamplePool) or the disk thread (one reader per open
// stream, seek()ed along the stream's loop map). Never the audio thread.
//
// Reads planar float in [-1, 1] from WAV (16/24/32-bit int, float, double), FLAC,
// Ogg Vorbis, AIFF and whatever else the installed libsndfile decodes. Only the
// first two channels are delivered; a mono file fills the left buffer only.
// Native FLAC is decoded by libFLAC directly, one FLAC frame at a time; everything
// else through libsndfile and a small interleaved chunk (kChunkFrames frames). Never
// a whole-file interleaved copy. (stream/AudioDecoder.h says why.)
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "stream/SampleSlice.h"

namespace spindle::stream {

struct AudioFileInfo {
  int format = 0;           // libsndfile SF_FORMAT_* (container | subtype)
  std::string formatName;   // e.g. "WAV PCM_24", "FLAC PCM_16", "OGG VORBIS"
  int channels = 0;         // the file's channel count (may exceed 2)
  // As the file's header reports; counted by decoding when the header does not say
  // (a FLAC stream written to a pipe). Never more than AudioFileReader::kMaxFileFrames.
  int64_t frames = 0;
  double sampleRate = 0.0;
  // The file's first sustain loop (WAV smpl, AIFF markers), frames, end inclusive
  // as in SFZ's loop_end; -1 when the file has none.
  int64_t loopStart = -1, loopEnd = -1;
  int rootKey = -1;  // smpl/instrument base note; -1 = none
  // What was read in a way the file did not quite ask for (a RIFF pad byte the writer
  // left out): a sentence, empty when nothing was.
  std::string warning;
};

namespace detail {
class AudioDecoder;
}

class AudioFileReader {
 public:
  static constexpr int64_t kChunkFrames = 4096;
  // Longest file accepted: 2^31 frames (12 hours at 48 kHz). A header claiming more is
  // corrupt, and a whole-file load sized by it could never fit in memory.
  static constexpr int64_t kMaxFileFrames = int64_t{1} << 31;

  // Opens `path` (a file, or a slice of one: stream/SampleSlice.h); on failure returns
  // nullptr and sets `error` to libsndfile's reason.
  static std::unique_ptr<AudioFileReader> open(const std::filesystem::path& path, std::string& error);
  ~AudioFileReader();
  AudioFileReader(const AudioFileReader&) = delete;
  AudioFileReader& operator=(const AudioFileReader&) = delete;

  const AudioFileInfo& info() const noexcept { return info_; }

  // Reads up to `frames` frames from the current position into `left` (and `right`
  // when the file has two or more channels; `right` may be null for mono files).
  // Returns the frames read: fewer than asked only at the end of the file or on a
  // decoding error (then lastError() says why).
  int64_t readPlanar(float* left, float* right, int64_t frames);
  // Moves the read position to `frame`; false when the file cannot seek there.
  bool seek(int64_t frame);
  // False for Ogg Vorbis and Opus: libsndfile's seek there is not sample-exact (a seek
  // near a file's end landed 704 frames off), so such a file is read forward from frame
  // 0 to where it is wanted. True for PCM and FLAC.
  bool seeksExactly() const noexcept;
  const std::string& lastError() const noexcept { return lastError_; }

  // True when readPlanar16 can deliver the file's samples exactly as 16-bit integers
  // (16-bit or narrower integer samples, through libFLAC or libsndfile): readPlanar's
  // floats are exactly those integers / 32768.
  bool reads16() const noexcept;
  // readPlanar as 16-bit integers; -1 when reads16() is false.
  int64_t readPlanar16(int16_t* left, int16_t* right, int64_t frames);
  // Native FLAC: at the start of a FLAC frame, its first file frame and byte offset
  // (false otherwise, and for every other format).
  bool boundary(int64_t& frame, uint64_t& byte);
  // seek(frame) without a search, to where boundary() once reported `frame` starts.
  bool seekToBoundary(int64_t frame, uint64_t byte);

  // Page-cache hints (posix_fadvise on the file's descriptor; failures are ignored).
  // Byte ranges are estimated from the file's mean bytes per frame, which is exact
  // enough for PCM and a fair guess for FLAC and Ogg.
  void adviseSequential() noexcept;
  void adviseWillNeed(int64_t frame, int64_t frames) noexcept;
  // Drops the file's pages from the page cache (benchmarks: a cold start).
  void dropCache() noexcept;

 private:
  AudioFileReader() = default;
  bool settleLength(std::string& error);
  bool openSlice(const SampleSlice& slice, uint64_t fileBytes, std::string& error);
  bool openWhole(uint64_t fileBytes, std::string& error);

  int fd_ = -1;  // ours: closed after decoder_ is gone
  std::unique_ptr<detail::AudioDecoder> decoder_;
  AudioFileInfo info_;
  uint64_t rangeOffset_ = 0, rangeBytes_ = 0;  // the bytes decoded: the whole file, or a slice
  double bytesPerFrame_ = 0.0;  // rangeBytes_ / frames
  std::string lastError_;
};

}  // namespace spindle::stream
