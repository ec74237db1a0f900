#pragma once
// Builds Standard MIDI Files byte by byte for tests (tests/io and tests/app).
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

namespace spindle::test {

inline void appendVlq(std::vector<uint8_t>& out, uint32_t value) {
  uint8_t groups[5];
  int count = 0;
  do {
    groups[count++] = value & 0x7F;
    value >>= 7;
  } while (value);
  while (count > 1) out.push_back(groups[--count] | 0x80);
  out.push_back(groups[0]);
}

inline void appendBe(std::vector<uint8_t>& out, uint32_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

// One MTrk chunk: each call appends a delta time and the raw bytes of an event.
class TrackBuilder {
 public:
  TrackBuilder& event(uint32_t delta, std::initializer_list<uint8_t> bytes) {
    appendVlq(data_, delta);
    data_.insert(data_.end(), bytes.begin(), bytes.end());
    return *this;
  }
  TrackBuilder& tempo(uint32_t delta, uint32_t microsPerQuarter) {
    return event(delta, {0xFF, 0x51, 0x03, static_cast<uint8_t>(microsPerQuarter >> 16),
                         static_cast<uint8_t>(microsPerQuarter >> 8), static_cast<uint8_t>(microsPerQuarter)});
  }
  TrackBuilder& end(uint32_t delta = 0) { return event(delta, {0xFF, 0x2F, 0x00}); }
  // Appends bytes as they are, with no delta time (for malformed input).
  TrackBuilder& raw(std::initializer_list<uint8_t> bytes) {
    data_.insert(data_.end(), bytes.begin(), bytes.end());
    return *this;
  }
  const std::vector<uint8_t>& bytes() const { return data_; }

 private:
  std::vector<uint8_t> data_;
};

inline std::vector<uint8_t> buildSmf(int format, uint16_t division, const std::vector<TrackBuilder>& tracks) {
  std::vector<uint8_t> out{'M', 'T', 'h', 'd'};
  appendBe(out, 6, 4);
  appendBe(out, static_cast<uint32_t>(format), 2);
  appendBe(out, static_cast<uint32_t>(tracks.size()), 2);
  appendBe(out, division, 2);
  for (const TrackBuilder& track : tracks) {
    out.insert(out.end(), {'M', 'T', 'r', 'k'});
    appendBe(out, static_cast<uint32_t>(track.bytes().size()), 4);
    out.insert(out.end(), track.bytes().begin(), track.bytes().end());
  }
  return out;
}

inline void saveBytes(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace spindle::test
