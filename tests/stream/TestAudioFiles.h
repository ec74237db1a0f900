#pragma once
// Hand-built audio files for the stream tests, written byte by byte (no libsndfile),
// so what the pool decodes is checked against an independent writer.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace spindle::test {

class Bytes {
 public:
  void tag(const char* fourcc) { data_.insert(data_.end(), fourcc, fourcc + 4); }
  void le(uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) data_.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
  }
  void be(uint64_t value, int bytes) {
    for (int i = bytes - 1; i >= 0; --i) data_.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
  }
  void append(const Bytes& other) { data_.insert(data_.end(), other.data_.begin(), other.data_.end()); }
  std::size_t size() const { return data_.size(); }
  void save(const std::filesystem::path& path) const {
    std::ofstream(path, std::ios::binary).write(data_.data(), static_cast<std::streamsize>(data_.size()));
  }

 private:
  std::vector<char> data_;
};

// A mono WAV file of 32-bit integer frames with a forward smpl loop whose dwEnd
// (inclusive, as the WAV spec stores it) is loopEnd.
inline void writeWavInt32(const std::filesystem::path& path, const std::vector<int32_t>& frames,
                          uint32_t rate, uint32_t loopStart, uint32_t loopEnd) {
  Bytes body;
  body.tag("WAVE");
  body.tag("fmt ");
  body.le(16, 4);
  body.le(1, 2);  // PCM
  body.le(1, 2);  // channels
  body.le(rate, 4);
  body.le(rate * 4, 4);
  body.le(4, 2);
  body.le(32, 2);
  body.tag("smpl");
  body.le(36 + 24, 4);
  for (uint32_t v : {0u, 0u, 1000000000u / rate, 60u, 0u, 0u, 0u, 1u, 0u}) body.le(v, 4);
  for (uint32_t v : {0u, 0u, loopStart, loopEnd, 0u, 0u}) body.le(v, 4);
  body.tag("data");
  body.le(frames.size() * 4, 4);
  for (int32_t f : frames) body.le(static_cast<uint32_t>(f), 4);
  Bytes file;
  file.tag("RIFF");
  file.le(body.size(), 4);
  file.append(body);
  file.save(path);
}

// A 16-bit WAV file of `channels` interleaved channels, no smpl chunk.
inline void writeWav16(const std::filesystem::path& path, int channels, const std::vector<int16_t>& interleaved,
                       uint32_t rate) {
  const auto blockAlign = static_cast<uint32_t>(2 * channels);
  Bytes body;
  body.tag("WAVE");
  body.tag("fmt ");
  body.le(16, 4);
  body.le(1, 2);
  body.le(static_cast<uint64_t>(channels), 2);
  body.le(rate, 4);
  body.le(rate * blockAlign, 4);
  body.le(blockAlign, 2);
  body.le(16, 2);
  body.tag("data");
  body.le(interleaved.size() * 2, 4);
  for (int16_t v : interleaved) body.le(static_cast<uint16_t>(v), 2);
  Bytes file;
  file.tag("RIFF");
  file.le(body.size(), 4);
  file.append(body);
  file.save(path);
}

// A stereo 16-bit AIFF file; left and right interleaved per frame.
inline void writeAiff16(const std::filesystem::path& path, const std::vector<int16_t>& left,
                        const std::vector<int16_t>& right, uint32_t rate) {
  Bytes body;
  body.tag("AIFF");
  body.tag("COMM");
  body.be(18, 4);
  body.be(2, 2);
  body.be(left.size(), 4);
  body.be(16, 2);
  // 80-bit IEEE extended sample rate: exponent, then a 64-bit mantissa with explicit 1.
  const int exponent = static_cast<int>(std::floor(std::log2(rate)));
  body.be(16383 + static_cast<uint64_t>(exponent), 2);
  body.be(static_cast<uint64_t>(rate) << (63 - exponent), 8);
  body.tag("SSND");
  body.be(8 + left.size() * 4, 4);
  body.be(0, 4);
  body.be(0, 4);
  for (std::size_t i = 0; i < left.size(); ++i) {
    body.be(static_cast<uint16_t>(left[i]), 2);
    body.be(static_cast<uint16_t>(right[i]), 2);
  }
  Bytes file;
  file.tag("FORM");
  file.be(body.size(), 4);
  file.append(body);
  file.save(path);
}

// A fresh, empty folder under the build tree for one test's files.
inline std::filesystem::path scratchDir(const std::string& name) {
  const auto dir = std::filesystem::path(SPINDLE_BINARY_DIR) / "test-scratch" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace spindle::test
