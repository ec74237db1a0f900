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
#include "io/MidiFile.h"
#include "PluginRenders.h"
#include "stream/TestAudioFiles.h"

namespace spindle::test {

inline std::filesystem::path clapScratch(const std::string& name) { return pluginScratch("clap", name); }

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
  return writeSong(dir,
                   {{0, 1100, 0, 60, 100}, {250, 700, 0, 64, 70}, {640, 2900, 1, 67, 120},
                    {1333, 1600, 0, 57, 55}, {2001, 4300, 1, 72, 127}, {3100, 3550, 0, 50, 90}},
                   {{900, {0xB0, 7, 85}}, {2400, {0xE1, 0x00, 0x30}}});
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

}  // namespace spindle::test
