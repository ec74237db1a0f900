#pragma once
// What the note expression tests play and measure: an instrument whose key 60 sounds on
// the left only and key 72 on the right only (so each note's signal is one channel), a
// 480 Hz looped sine (100 frames a period), key 72's level following CC74.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <vector>

#include "ClapSong.h"

namespace spindle::test {

inline constexpr double kSineHz = 480.0;

inline std::filesystem::path writeSidesInstrument(const std::filesystem::path& dir) {
  std::vector<int16_t> frames(48000);
  for (std::size_t i = 0; i < frames.size(); ++i)
    frames[i] = static_cast<int16_t>(16000 * std::sin(2 * M_PI * static_cast<double>(i) / 100.0));
  writeWav16(dir / "sine.wav", 1, frames, 48000);
  const char* loop = " loop_mode=loop_continuous loop_start=0 loop_end=47999 ampeg_release=0.01";
  std::ofstream(dir / "sides.sfz") << "<region> sample=sine.wav key=60 pitch_keycenter=60 pan=-100" << loop << "\n"
                                   << "<region> sample=sine.wav key=72 pitch_keycenter=72 pan=100 amplitude_oncc74=100"
                                   << loop << "\n";
  return dir / "sides.sfz";
}

// The frequency of the frames [begin, end) of a steady tone: rising zero crossings,
// interpolated, over the span between the first and the last.
inline double frequency(const std::vector<float>& frames, std::size_t begin, std::size_t end, double rate = 48000.0) {
  double first = -1.0, last = -1.0;
  int crossings = 0;
  for (std::size_t i = begin + 1; i < end; ++i) {
    if (!(frames[i - 1] < 0.0f && frames[i] >= 0.0f)) continue;
    const double at = static_cast<double>(i - 1) + double{frames[i - 1]} / (double{frames[i - 1]} - double{frames[i]});
    if (first < 0.0) first = at;
    last = at;
    ++crossings;
  }
  return crossings > 1 ? (crossings - 1) * rate / (last - first) : 0.0;
}

inline double rms(const std::vector<float>& frames, std::size_t begin, std::size_t end) {
  double sum = 0.0;
  for (std::size_t i = begin; i < end; ++i) sum += double{frames[i]} * double{frames[i]};
  return end > begin ? std::sqrt(sum / static_cast<double>(end - begin)) : 0.0;
}

inline double centsBetween(double a, double b) { return 1200.0 * std::log2(a / b); }

// A timed host event of a test's script: a note, a note expression or a MIDI message.
struct Gesture {
  uint32_t frame;
  enum Kind { NoteOn, NoteOff, Expression, Midi } kind;
  int32_t noteId = -1;
  int16_t key = -1;
  clap_note_expression id = 0;
  double value = 0.0;
  std::array<uint8_t, 3> bytes{};
};

// Plays `script` (frame-ordered) through an active host in blocks of `block` frames.
inline Stereo play(ClapHost& host, const std::vector<Gesture>& script, std::size_t frames, uint32_t block) {
  Stereo out;
  std::size_t next = 0;
  for (std::size_t done = 0; done < frames; done += block) {
    for (; next < script.size() && script[next].frame < done + block; ++next) {
      const Gesture& g = script[next];
      const auto at = static_cast<uint32_t>(g.frame - done);
      if (g.kind == Gesture::Midi) host.midi(at, g.bytes.data());
      else if (g.kind == Gesture::Expression) host.expression(at, g.id, g.noteId, 0, 0, g.key, g.value);
      else host.note(g.kind == Gesture::NoteOn ? CLAP_EVENT_NOTE_ON : CLAP_EVENT_NOTE_OFF, at, g.noteId, 0, g.key, g.value);
    }
    host.process(block);
    out.left.insert(out.left.end(), host.left(), host.left() + block);
    out.right.insert(out.right.end(), host.right(), host.right() + block);
  }
  return out;
}

inline Gesture noteOn(uint32_t frame, int32_t id, int16_t key, double velocity = 100.0 / 127.0) {
  return {frame, Gesture::NoteOn, id, key, 0, velocity, {}};
}
inline Gesture noteOff(uint32_t frame, int32_t id, int16_t key) { return {frame, Gesture::NoteOff, id, key, 0, 0.0, {}}; }
inline Gesture expression(uint32_t frame, int32_t id, clap_note_expression what, double value, int16_t key = -1) {
  return {frame, Gesture::Expression, id, key, what, value, {}};
}
inline Gesture midi(uint32_t frame, uint8_t status, uint8_t d1, uint8_t d2) {
  return {frame, Gesture::Midi, -1, -1, 0, 0.0, {status, d1, d2}};
}

}  // namespace spindle::test
