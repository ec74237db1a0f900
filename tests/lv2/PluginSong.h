#pragma once
// What the plugin's tests play: a generated instrument whose one long sample must
// stream (10 s, far past the 4096-frame preload), a song for it, spindle-render's
// render of the same (the reference), and the plugin's render through Lv2Host.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "Lv2Host.h"
#include "app/RunProcess.h"
#include "io/MidiFile.h"
#include "io/SmfBuilder.h"
#include "stream/TestAudioFiles.h"

namespace spindle::test {

struct Stereo {
  std::vector<float> left, right;
};

inline std::filesystem::path lv2Scratch(const std::string& name) {
  const auto dir = std::filesystem::path(SPINDLE_BINARY_DIR) / "test-scratch" / "lv2" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// long.sfz playing long.wav: 10 s of a stereo chord of sines with a slow tremolo, so
// every frame differs from its neighbours and a misplaced block shows.
inline std::filesystem::path writeStreamedInstrument(const std::filesystem::path& dir) {
  constexpr uint32_t kRate = 48000;
  std::vector<int16_t> frames(2 * 10 * kRate);
  for (std::size_t i = 0; i < frames.size() / 2; ++i) {
    const double t = static_cast<double>(i) / kRate;
    const double tremolo = 0.6 + 0.4 * std::sin(2 * M_PI * 0.7 * t);
    frames[2 * i] = static_cast<int16_t>(9000 * tremolo * (std::sin(2 * M_PI * 261.6 * t) + 0.5 * std::sin(2 * M_PI * 392 * t)));
    frames[2 * i + 1] = static_cast<int16_t>(9000 * tremolo * std::sin(2 * M_PI * 329.6 * t + 0.3));
  }
  writeWav16(dir / "long.wav", 2, frames, kRate);
  std::ofstream(dir / "long.sfz") << "<region> sample=long.wav pitch_keycenter=60 ampeg_release=0.25\n";
  return dir / "long.sfz";
}

// Overlapping notes of 0.3 to 2.5 s on several keys (each voice reads at its own
// speed), a volume change and a pitch bend: 480 ticks a quarter, 120 bpm.
inline std::filesystem::path writeSong(const std::filesystem::path& dir) {
  struct Note { uint32_t on, off; uint8_t key, velocity; };
  const std::vector<Note> notes{{0, 1200, 60, 100}, {301, 900, 64, 80},   {777, 3100, 67, 110},
                                {1500, 1901, 55, 60}, {2222, 4600, 72, 127}, {3333, 3700, 48, 90}};
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> events;
  for (const Note& n : notes) {
    events.push_back({n.on, {0x90, n.key, n.velocity}});
    events.push_back({n.off, {0x80, n.key, 0}});
  }
  events.push_back({1000, {0xB0, 7, 90}});
  events.push_back({2500, {0xE0, 0x00, 0x50}});
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

// spindle-render with the engine the plugin builds: the host's rate, Hermite (quality 1),
// 256 voices, seed 1, 32-bit float output, the engine's blocks `block` frames long.
inline Stereo renderReference(const std::filesystem::path& instrument, const std::filesystem::path& song,
                              const std::filesystem::path& dir, int block = 256) {
  const auto wav = dir / ("reference-" + std::to_string(block) + ".wav");
  const ProcessResult run = runProcess({SPINDLE_RENDER_EXE, "--instrument", instrument.string(), "--midi",
                                        song.string(), "--wav", wav.string(), "--rate", "48000", "--quality", "1",
                                        "--polyphony", "256", "--seed", "1", "--format", "f32", "--block",
                                        std::to_string(block)}, dir);
  return run.exitCode == 0 ? readFloatWav(wav) : Stereo{};
}

// Loads `instrument` with a patch:Set (the worker runs the load after that run()),
// then renders `frames` frames of `song`, block lengths from nextBlock().
template <typename NextBlock>
Stereo renderPlugin(Lv2Host& host, const std::filesystem::path& instrument, const std::filesystem::path& song,
                    std::size_t frames, NextBlock nextBlock) {
  host.setInstrument(instrument.string());
  host.run(0);
  Stereo out;
  renderThrough(host, framedEvents(io::readMidiFile(song.string()), 48000.0), static_cast<int64_t>(frames),
                nextBlock, out.left, out.right);
  return out;
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

// The largest difference between the two, over the reference's length.
inline double largestDifference(const Stereo& reference, const Stereo& plugin) {
  double largest = 0.0;
  for (std::size_t i = 0; i < std::min(reference.left.size(), plugin.left.size()); ++i) {
    largest = std::max(largest, std::fabs(static_cast<double>(reference.left[i]) - static_cast<double>(plugin.left[i])));
    largest = std::max(largest, std::fabs(static_cast<double>(reference.right[i]) - static_cast<double>(plugin.right[i])));
  }
  return largest;
}

inline double peak(const std::vector<float>& frames, std::size_t begin, std::size_t end) {
  double p = 0.0;
  for (std::size_t i = begin; i < std::min(end, frames.size()); ++i) p = std::max(p, std::fabs(static_cast<double>(frames[i])));
  return p;
}

}  // namespace spindle::test
