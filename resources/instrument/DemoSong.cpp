#include "DemoSong.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "SmfWriter.h"

namespace spindle::instrument {
namespace {

constexpr std::uint16_t kTicksPerQuarter = 480;
constexpr double kTempo = 108.0;
constexpr int kBeatsPerBar = 4;
constexpr int kChannel = 0;
constexpr int kSustainPedal = 64;

struct Chord {
  double beat;    // from the start of the song
  double beats;   // how long the keys are held
  int bass;       // 0: no bass note
  std::array<int, 4> tones;
  int velocity;
};

struct Note {
  double beat;
  double beats;
  int key;
  int velocity;
};

// Cmaj9 | Am9 | Dm9 | G13 | Cmaj9 | Am9 | Fmaj9 | G7sus4 G7 | Cmaj9
constexpr auto kChords = std::to_array<Chord>({
    {0, 3.8, 36, {52, 55, 59, 62}, 62},   {4, 3.8, 45, {55, 59, 60, 64}, 58},
    {8, 3.8, 38, {53, 57, 60, 64}, 66},   {12, 3.8, 43, {53, 57, 59, 64}, 72},
    {16, 3.8, 36, {52, 55, 59, 62}, 70},  {20, 3.8, 33, {55, 59, 60, 64}, 76},
    {24, 3.8, 41, {52, 55, 57, 60}, 64},  {28, 1.9, 43, {53, 55, 60, 62}, 60},
    {30, 1.9, 0, {53, 55, 59, 62}, 50},   {32, 6.0, 36, {48, 52, 55, 59}, 56},
});

constexpr auto kMelody = std::to_array<Note>({
    // Bars 1-4: the phrase, mostly in the middle layer.
    {0, 1.5, 79, 80}, {1.5, 0.5, 76, 64}, {2, 1, 74, 72}, {3, 1, 76, 90},
    {4, 2, 72, 70}, {6, 0.5, 71, 55}, {6.5, 0.5, 72, 60}, {7, 1, 76, 85},
    {8, 1.5, 77, 98}, {9.5, 0.5, 76, 70}, {10, 0.5, 74, 66}, {10.5, 0.5, 72, 62}, {11, 1, 69, 58},
    {12, 1, 71, 75}, {13, 0.5, 74, 80}, {13.5, 2.5, 76, 100},
    // Bars 5-8: the answer, climbing into the top layer.
    {16, 0.5, 79, 110}, {16.5, 0.5, 81, 100}, {17, 0.5, 79, 90}, {17.5, 1, 76, 84}, {18.5, 0.5, 74, 70},
    {19, 1, 76, 76}, {20, 1, 84, 118}, {21, 0.5, 83, 96}, {21.5, 0.5, 79, 88}, {22, 2, 76, 80},
    {24, 1, 81, 92}, {25, 0.5, 79, 80}, {25.5, 0.5, 76, 72}, {26, 1, 72, 65}, {27, 1, 74, 70},
    {28, 1.5, 77, 85}, {29.5, 0.5, 74, 70}, {30, 2, 71, 60},
    // Bar 9: a soft Cmaj9 arpeggio up to C7, ringing under the pedal.
    {32, 4, 64, 46}, {32.25, 4, 67, 50}, {32.5, 4, 71, 54}, {32.75, 4, 74, 58},
    {33, 4, 76, 62}, {33.25, 4, 79, 66}, {33.5, 4, 83, 70}, {33.75, 3, 86, 66},
    {34, 3, 91, 58}, {35, 3, 96, 52},
});

std::uint32_t ticks(double beats) { return static_cast<std::uint32_t>(std::lround(beats * kTicksPerQuarter)); }

// Chords are rolled slightly (low to high) and anticipated by a soft off-beat stab.
void addChord(SmfTrack& track, const Chord& chord) {
  if (chord.bass != 0) track.note(ticks(chord.beat), ticks(chord.beats), kChannel, chord.bass, chord.velocity + 14);
  for (std::size_t i = 0; i < chord.tones.size(); ++i) {
    const double roll = 0.02 * static_cast<double>(i);
    track.note(ticks(chord.beat + roll), ticks(chord.beats - roll), kChannel, chord.tones[i], chord.velocity);
  }
  if (chord.beats < 3.0) return;
  for (int tone : chord.tones) track.note(ticks(chord.beat + 2.5), ticks(0.4), kChannel, tone, chord.velocity - 18);
}

// A pedal change at every chord: up just before it, down just after, so the harmony
// changes cleanly while notes still ring into each other.
void addPedal(SmfTrack& track, double endBeat) {
  for (const Chord& chord : kChords) {
    if (chord.beat > 0) track.controlChange(ticks(chord.beat - 0.05), kChannel, kSustainPedal, 0);
    track.controlChange(ticks(chord.beat + 0.08), kChannel, kSustainPedal, 127);
  }
  track.controlChange(ticks(endBeat), kChannel, kSustainPedal, 0);
}

}  // namespace

void writeDemoSong(const std::filesystem::path& path) {
  SmfTrack conductor;
  conductor.trackName("Spindle demo");
  conductor.timeSignature(0, kBeatsPerBar, 2);
  conductor.tempo(0, kTempo);
  SmfTrack piano;
  piano.trackName("Spindle EP");
  for (const Chord& chord : kChords) addChord(piano, chord);
  for (const Note& note : kMelody) piano.note(ticks(note.beat), ticks(note.beats), kChannel, note.key, note.velocity);
  const Chord& last = kChords.back();
  addPedal(piano, last.beat + last.beats);
  writeSmf(path, kTicksPerQuarter, {conductor, piano});
}

}  // namespace spindle::instrument
