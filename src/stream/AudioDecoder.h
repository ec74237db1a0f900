#pragma once
// AudioDecoder: the decoding behind one AudioFileReader (stream/AudioFile.h).
//
// Thread: whichever thread owns the reader (loader or disk); never the audio thread.
//
// Two decoders exist. Native FLAC files (they begin with "fLaC") go straight to libFLAC:
// libsndfile's FLAC reader allocates two FLAC__MAX_BLOCK_SIZE buffers (512 KiB) per open
// file whatever the file's block size, and the disk thread keeps one reader open per
// stream plus a cache of idle ones. Everything else goes through libsndfile.
//
// Both decode to planar float in [-1, 1] (integer samples divided by 2^(bits-1), as
// libsndfile does, so the two agree bit for bit on FLAC), first two channels only.
// Neither owns the file descriptor: the reader opens it and closes it after the
// decoder is gone.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stream/AudioFile.h"
#include "stream/SampleSlice.h"

namespace spindle::stream::detail {

class AudioDecoder {
 public:
  virtual ~AudioDecoder() = default;
  // Up to `frames` frames into `left` (and `right` when it is not null and the file
  // has two or more channels). Fewer only at the end of the file or on a decoding
  // error, which is then described in `error`.
  virtual int64_t readPlanar(float* left, float* right, int64_t frames, std::string& error) = 0;
  // Moves the read position to `frame`; false when the file cannot seek there.
  virtual bool seek(int64_t frame) = 0;

  // 16-bit frames, for a file whose samples fit them exactly (integer samples of 16
  // bits or fewer): readPlanar's floats are exactly these / 32768. Decoders that
  // cannot say so in reads16(), and readPlanar16 then returns -1.
  virtual bool reads16() const noexcept { return false; }
  virtual int64_t readPlanar16(int16_t* /*left*/, int16_t* /*right*/, int64_t /*frames*/, std::string& /*error*/) {
    return -1;
  }
  // Native FLAC (false elsewhere): when the read position is at the start of a FLAC
  // frame, that frame's first file frame and its byte offset in the file.
  virtual bool boundary(int64_t& /*frame*/, uint64_t& /*byte*/) { return false; }
  // Moves the read position to `frame`, the first frame of the FLAC frame at `byte`
  // (as boundary() reported it): no search through the file. Checked against the
  // frame's header; a mismatch (or any other decoder) falls back to seek(frame).
  virtual bool seekToBoundary(int64_t frame, uint64_t /*byte*/) { return seek(frame); }
};

// Both fill `info` from the file's header (frames = -1 when the header does not state
// the length); on failure they return nullptr and set `error`.
std::unique_ptr<AudioDecoder> openWithSndfile(int fd, AudioFileInfo& info, std::string& error);
std::unique_ptr<AudioDecoder> openFlac(int fd, AudioFileInfo& info, std::string& error);
// A slice of the file (stream/SampleSlice.h): raw 16-bit PCM (with its sm24 bytes), or
// any stream libsndfile reads, confined to [offset, offset + bytes) of the file; with a
// zero byte inserted at each of `pads` (offsets from `offset`, ascending), the RIFF pad
// bytes a writer left out (stream/RiffCheck.h).
std::unique_ptr<AudioDecoder> openPcm16Slice(int fd, const SampleSlice& slice, AudioFileInfo& info, std::string& error);
std::unique_ptr<AudioDecoder> openWithSndfileRange(int fd, uint64_t offset, uint64_t bytes, AudioFileInfo& info,
                                                   std::string& error, const std::vector<uint64_t>& pads = {});
// True when the file at `fd` begins with the native FLAC signature "fLaC".
bool isNativeFlac(int fd) noexcept;

}  // namespace spindle::stream::detail
