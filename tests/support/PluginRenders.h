#pragma once
// What the plugin tests of every host API share (tests/lv2, tests/clap): a song written
// as a MIDI file, spindle-render's render of it (the reference a plugin must equal) and
// the comparisons of two renders. Each host's own header adds its instrument and the
// render through its host.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "app/RunProcess.h"
#include "io/SmfBuilder.h"

namespace spindle::test {

struct Stereo {
  std::vector<float> left, right;
};

// An empty folder for one test's files under the build tree: test-scratch/KIND/NAME.
inline std::filesystem::path pluginScratch(const std::string& kind, const std::string& name) {
  const auto dir = std::filesystem::path(SPINDLE_BINARY_DIR) / "test-scratch" / kind / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

struct SongNote {
  uint32_t on, off;  // ticks
  uint8_t channel, key, velocity;
};
using SongEvent = std::pair<uint32_t, std::vector<uint8_t>>;  // a tick and a channel message

// song.mid in `dir`: the notes and the other messages at their ticks, 480 ticks a quarter,
// 120 bpm, one track.
inline std::filesystem::path writeSong(const std::filesystem::path& dir, const std::vector<SongNote>& notes,
                                       std::vector<SongEvent> events) {
  for (const SongNote& n : notes) {
    events.push_back({n.on, {static_cast<uint8_t>(0x90 | n.channel), n.key, n.velocity}});
    events.push_back({n.off, {static_cast<uint8_t>(0x80 | n.channel), n.key, 0}});
  }
  std::stable_sort(events.begin(), events.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  TrackBuilder track;
  uint32_t now = 0;
  for (const auto& [tick, b] : events) {
    track.event(tick - now, {b[0], b[1], b[2]});
    now = tick;
  }
  track.end();
  saveBytes(dir / "song.mid", buildSmf(0, 480, {track}));
  return dir / "song.mid";
}

// The frames of a 32-bit float WAV, deinterleaved; empty when it is not one.
inline Stereo readFloatWav(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
  Stereo out;
  for (std::size_t at = 12; at + 8 <= bytes.size();) {
    uint32_t size = 0;
    std::memcpy(&size, bytes.data() + at + 4, 4);
    if (std::string(bytes.data() + at, 4) == "data" && at + 8 + size <= bytes.size()) {
      std::vector<float> frames(size / 4);
      std::memcpy(frames.data(), bytes.data() + at + 8, frames.size() * 4);
      for (std::size_t i = 0; i + 1 < frames.size(); i += 2) {
        out.left.push_back(frames[i]);
        out.right.push_back(frames[i + 1]);
      }
      return out;
    }
    at += 8 + size + (size & 1);
  }
  return out;
}

// spindle-render with the engine a plugin builds: 48 kHz, Hermite (quality 1), 256
// voices, seed 1, 32-bit float output, the engine's blocks `block` frames long.
inline Stereo renderReference(const std::filesystem::path& instrument, const std::filesystem::path& song,
                              const std::filesystem::path& dir, int block = 256) {
  const auto wav = dir / ("reference-" + std::to_string(block) + ".wav");
  const ProcessResult run = runProcess({SPINDLE_RENDER_EXE, "--instrument", instrument.string(), "--midi",
                                        song.string(), "--wav", wav.string(), "--rate", "48000", "--quality", "1",
                                        "--polyphony", "256", "--seed", "1", "--format", "f32", "--block",
                                        std::to_string(block)}, dir);
  return run.exitCode == 0 ? readFloatWav(wav) : Stereo{};
}

// Frames where the two differ, over the reference's length; `first` the first of them.
inline std::size_t differingFrames(const Stereo& reference, const Stereo& plugin, std::size_t* first = nullptr) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < reference.left.size(); ++i)
    if (i >= plugin.left.size() || std::memcmp(&reference.left[i], &plugin.left[i], 4) != 0 ||
        std::memcmp(&reference.right[i], &plugin.right[i], 4) != 0) {
      if (first && count == 0) *first = i;
      ++count;
    }
  return count;
}

// The largest difference between the two, over the shorter one's length.
inline double largestDifference(const Stereo& reference, const Stereo& plugin) {
  double largest = 0.0;
  for (std::size_t i = 0; i < std::min(reference.left.size(), plugin.left.size()); ++i) {
    largest = std::max(largest, std::fabs(double{reference.left[i]} - double{plugin.left[i]}));
    largest = std::max(largest, std::fabs(double{reference.right[i]} - double{plugin.right[i]}));
  }
  return largest;
}

inline double peak(const std::vector<float>& frames, std::size_t begin, std::size_t end) {
  double p = 0.0;
  for (std::size_t i = begin; i < std::min(end, frames.size()); ++i) p = std::max(p, std::fabs(double{frames[i]}));
  return p;
}

}  // namespace spindle::test
