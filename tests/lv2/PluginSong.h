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
#include "io/MidiFile.h"
#include "PluginRenders.h"
#include "stream/TestAudioFiles.h"

namespace spindle::test {

inline std::filesystem::path lv2Scratch(const std::string& name) { return pluginScratch("lv2", name); }

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
  return writeSong(dir,
                   {{0, 1200, 0, 60, 100}, {301, 900, 0, 64, 80}, {777, 3100, 0, 67, 110},
                    {1500, 1901, 0, 55, 60}, {2222, 4600, 0, 72, 127}, {3333, 3700, 0, 48, 90}},
                   {{1000, {0xB0, 7, 90}}, {2500, {0xE0, 0x00, 0x50}}});
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

}  // namespace spindle::test
