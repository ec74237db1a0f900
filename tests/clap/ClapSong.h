#pragma once
// What the CLAP plugin's tests play: a generated instrument whose one long sample must
// stream (8 s, far past the 4096-frame preload), a song for it, spindle-render's render
// of the same (the reference) and the plugin's render through ClapHost.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ClapHost.h"
#include "app/RunProcess.h"
#include "io/MidiFile.h"
#include "io/SmfBuilder.h"
#include "stream/TestAudioFiles.h"

namespace spindle::test {

struct Stereo {
  std::vector<float> left, right;
};

inline std::filesystem::path clapScratch(const std::string& name) {
  const auto dir = std::filesystem::path(SPINDLE_BINARY_DIR) / "test-scratch" / "clap" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// long.sfz playing long.wav: 8 s of a stereo pair of sines under a slow tremolo, so
// every frame differs from its neighbours and a misplaced block shows.
inline std::filesystem::path writeStreamedInstrument(const std::filesystem::path& dir) {
  constexpr uint32_t kRate = 48000;
  std::vector<int16_t> frames(2 * 8 * kRate);
  for (std::size_t i = 0; i < frames.size() / 2; ++i) {
    const double t = static_cast<double>(i) / kRate;
    const double tremolo = 0.6 + 0.4 * std::sin(2 * M_PI * 0.9 * t);
    frames[2 * i] = static_cast<int16_t>(12000 * tremolo * std::sin(2 * M_PI * 220.0 * t));
    frames[2 * i + 1] = static_cast<int16_t>(12000 * tremolo * std::sin(2 * M_PI * 277.2 * t + 0.5));
  }
  writeWav16(dir / "long.wav", 2, frames, kRate);
  std::ofstream(dir / "long.sfz") << "<region> sample=long.wav pitch_keycenter=60 ampeg_release=0.2\n";
  return dir / "long.sfz";
}

// An instrument that sounds from its first frame: a constant DC sample, so a note's
// first frame is where its first non-zero frame lies; no release.
inline std::filesystem::path writeStepInstrument(const std::filesystem::path& dir) {
  writeWav16(dir / "step.wav", 1, std::vector<int16_t>(48000, 16000), 48000);
  std::ofstream(dir / "step.sfz") << "<region> sample=step.wav pitch_keycenter=60 ampeg_attack=0 ampeg_release=0\n";
  return dir / "step.sfz";
}

// Overlapping notes of 0.2 to 2.4 s on several keys and two channels, a volume change
// and a pitch bend: 480 ticks a quarter, 120 bpm.
inline std::filesystem::path writeSong(const std::filesystem::path& dir) {
  struct Note { uint32_t on, off; uint8_t channel, key, velocity; };
  const std::vector<Note> notes{{0, 1100, 0, 60, 100}, {250, 700, 0, 64, 70},   {640, 2900, 1, 67, 120},
                                {1333, 1600, 0, 57, 55}, {2001, 4300, 1, 72, 127}, {3100, 3550, 0, 50, 90}};
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> events;
  for (const Note& n : notes) {
    events.push_back({n.on, {static_cast<uint8_t>(0x90 | n.channel), n.key, n.velocity}});
    events.push_back({n.off, {static_cast<uint8_t>(0x80 | n.channel), n.key, 0}});
  }
  events.push_back({900, {0xB0, 7, 85}});
  events.push_back({2400, {0xE1, 0x00, 0x30}});
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

// spindle-render with the engine the plugin builds: 48 kHz, Hermite (quality 1), 256
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

// A state naming `instrument` at `levelDb`, as the plugin writes one.
inline std::string stateFor(const std::filesystem::path& instrument, float levelDb = 0.0f) {
  return "spindle-clap-state 1\nlevel " + std::to_string(levelDb) + "\ninstrument " + instrument.string() + "\n";
}

// How a song's MIDI reaches the plugin: as MIDI events, or its notes as CLAP note
// events (each with a note id of its own) and the rest as MIDI.
enum class Dialect { Midi, ClapNotes };

inline void sendEvent(ClapHost& host, const FramedMidi& event, uint32_t frame, Dialect dialect, int32_t& noteIds) {
  const int type = event.bytes[0] & 0xF0;
  const bool note = type == 0x80 || (type == 0x90);
  if (dialect == Dialect::Midi || !note) return host.midi(frame, event.bytes.data());
  const bool on = type == 0x90 && event.bytes[2] > 0;
  host.note(on ? CLAP_EVENT_NOTE_ON : CLAP_EVENT_NOTE_OFF, frame, on ? noteIds++ : -1,
            static_cast<int16_t>(event.bytes[0] & 0x0F), event.bytes[1], event.bytes[2] / 127.0);
}

// Renders `frames` frames of `events` through an active host, each block's length from
// nextBlock().
template <typename NextBlock>
Stereo renderThrough(ClapHost& host, const std::vector<FramedMidi>& events, std::size_t frames, NextBlock nextBlock,
                     Dialect dialect = Dialect::Midi) {
  Stereo out;
  std::size_t next = 0;
  int32_t noteIds = 1;
  for (std::size_t done = 0; done < frames;) {
    const auto length = static_cast<uint32_t>(std::min<std::size_t>(nextBlock(), frames - done));
    for (; next < events.size() && events[next].frame < static_cast<int64_t>(done + length); ++next)
      sendEvent(host, events[next], static_cast<uint32_t>(events[next].frame - static_cast<int64_t>(done)), dialect,
                noteIds);
    host.process(length);
    out.left.insert(out.left.end(), host.left(), host.left() + length);
    out.right.insert(out.right.end(), host.right(), host.right() + length);
    done += length;
  }
  return out;
}

// Loads `instrument` through a state, activates, and renders `song`.
template <typename NextBlock>
Stereo renderPlugin(ClapHost& host, const std::filesystem::path& instrument, const std::filesystem::path& song,
                    std::size_t frames, NextBlock nextBlock, Dialect dialect = Dialect::Midi) {
  if (!host.loadState(stateFor(instrument)) || !host.activate()) return {};
  return renderThrough(host, framedEvents(io::readMidiFile(song.string()), 48000.0), frames, nextBlock, dialect);
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
