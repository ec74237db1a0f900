// The decoder of a raw 16-bit PCM slice (a SoundFont sample): little-endian mono
// frames read with pread at the slice's offset, and, when the font has an sm24 chunk,
// each frame's low byte from there, making 24-bit samples. Scaled like libsndfile:
// 16-bit by 2^15, 24-bit by 2^23.
#include <sndfile.h>
#include <unistd.h>

#include <algorithm>
#include <array>

#include "stream/AudioDecoder.h"

namespace spindle::stream::detail {

namespace {

class Pcm16SliceDecoder final : public AudioDecoder {
 public:
  Pcm16SliceDecoder(int fd, const SampleSlice& slice) : fd_(fd), slice_(slice) {}

  int64_t readPlanar(float* left, float*, int64_t frames, std::string& error) override {
    int64_t done = 0;
    frames = std::min<int64_t>(frames, static_cast<int64_t>(slice_.count) - position_);
    while (done < frames) {
      const int64_t want = std::min<int64_t>(frames - done, kChunk);
      if (!readChunk(want, error)) break;
      float* out = left + done;
      for (int64_t i = 0; i < want; ++i) {
        const auto word = static_cast<int16_t>(words_[static_cast<size_t>(2 * i)] |
                                               (words_[static_cast<size_t>(2 * i + 1)] << 8));
        out[i] = slice_.offset24 ? static_cast<float>(word * 256 + lows_[static_cast<size_t>(i)]) / 8388608.0f
                                 : static_cast<float>(word) / 32768.0f;
      }
      done += want;
      position_ += want;
    }
    return done;
  }

  // Without sm24 the slice is 16-bit: its words are the frames (a sample pool keeps them so).
  bool reads16() const noexcept override { return !slice_.offset24; }
  int64_t readPlanar16(int16_t* left, int16_t*, int64_t frames, std::string& error) override {
    if (slice_.offset24) return -1;
    int64_t done = 0;
    frames = std::min<int64_t>(frames, static_cast<int64_t>(slice_.count) - position_);
    while (done < frames) {
      const int64_t want = std::min<int64_t>(frames - done, kChunk);
      if (!readChunk(want, error)) break;
      for (int64_t i = 0; i < want; ++i)
        left[done + i] = static_cast<int16_t>(words_[static_cast<size_t>(2 * i)] | (words_[static_cast<size_t>(2 * i + 1)] << 8));
      done += want;
      position_ += want;
    }
    return done;
  }

  bool seek(int64_t frame) override {
    if (frame < 0 || frame > static_cast<int64_t>(slice_.count)) return false;
    position_ = frame;
    return true;
  }

 private:
  static constexpr int64_t kChunk = 4096;

  bool readChunk(int64_t frames, std::string& error) {
    const auto bytes = static_cast<size_t>(frames * 2);
    const auto at = static_cast<off_t>(slice_.offset + static_cast<uint64_t>(position_) * 2);
    if (::pread(fd_, words_.data(), bytes, at) != static_cast<ssize_t>(bytes)) {
      error = "the SoundFont's sample data ended early (truncated?)";
      return false;
    }
    if (!slice_.offset24) return true;
    const auto at24 = static_cast<off_t>(slice_.offset24 + static_cast<uint64_t>(position_));
    if (::pread(fd_, lows_.data(), static_cast<size_t>(frames), at24) != static_cast<ssize_t>(frames)) {
      error = "the SoundFont's 24-bit sample data (sm24) ended early (truncated?)";
      return false;
    }
    return true;
  }

  int fd_;
  SampleSlice slice_;
  int64_t position_ = 0;
  std::array<uint8_t, kChunk * 2> words_{};
  std::array<uint8_t, kChunk> lows_{};
};

}  // namespace

std::unique_ptr<AudioDecoder> openPcm16Slice(int fd, const SampleSlice& slice, AudioFileInfo& info, std::string&) {
  info.format = slice.offset24 ? SF_FORMAT_PCM_24 : SF_FORMAT_PCM_16;  // no container: a slice of a font
  info.formatName = slice.offset24 ? "SoundFont PCM_24" : "SoundFont PCM_16";
  info.channels = 1;
  info.sampleRate = slice.rate;
  info.frames = static_cast<int64_t>(slice.count);
  return std::make_unique<Pcm16SliceDecoder>(fd, slice);
}

}  // namespace spindle::stream::detail
