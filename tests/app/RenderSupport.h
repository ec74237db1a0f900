#pragma once
// Renders a small song through spindle-render (the built executable) and hands back the
// stereo frames, for tests that measure what an instrument does: levels, reactions to
// controllers. Songs are built here from (tick, bytes) events at 480 ticks per quarter,
// 120 bpm: 960 ticks = 1 s.
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "RunProcess.h"
#include "io/SmfBuilder.h"
#include "stream/SamplePool.h"

namespace spindle::test {

struct SongEvent {
  uint32_t tick;
  std::vector<uint8_t> bytes;
};

struct Rendered {
  int exitCode = -1;
  std::string out, err;
  std::vector<float> left, right;
};

inline std::vector<uint8_t> buildSong(const std::vector<SongEvent>& events) {
  TrackBuilder track;
  uint32_t now = 0;
  for (const SongEvent& e : events) {
    std::vector<uint8_t> b = e.bytes;
    if (b.size() == 3) track.event(e.tick - now, {b[0], b[1], b[2]});
    if (b.size() == 2) track.event(e.tick - now, {b[0], b[1]});
    now = e.tick;
  }
  track.end();
  return buildSmf(0, 480, {track});
}

// Runs `args` (spindle-render and its options, `wav` its --wav) in `dir` and reads the
// frames it wrote; left and right stay empty when it failed.
inline Rendered renderWith(const std::vector<std::string>& args, const std::filesystem::path& wav,
                           const std::filesystem::path& dir) {
  const ProcessResult run = runProcess(args, dir);
  Rendered out{run.exitCode, run.out, run.err, {}, {}};
  if (run.exitCode != 0) return out;
  stream::SamplePool pool;
  const SampleData* data = pool.acquire(wav.string());
  if (!data) return out;
  out.left.resize(static_cast<size_t>(data->totalFrames));
  out.right.resize(static_cast<size_t>(data->totalFrames));
  data->readFrames(0, 0, data->totalFrames, out.left.data());
  data->readFrames(1, 0, data->totalFrames, out.right.data());
  return out;
}

// Renders `sfz` playing `events`; the WAV and the song are written to dir/name.*.
inline Rendered renderSong(const std::string& exe, const std::filesystem::path& sfz, const std::vector<SongEvent>& events,
                           const std::filesystem::path& dir, const std::string& name) {
  const auto midi = dir / (name + ".mid");
  const auto wav = dir / (name + ".wav");
  saveBytes(midi, buildSong(events));
  return renderWith({exe, "--sfz", sfz.string(), "--midi", midi.string(), "--wav", wav.string(), "--seed", "3"}, wav, dir);
}

inline double energy(const std::vector<float>& frames, size_t begin = 0, size_t end = SIZE_MAX) {
  double sum = 0.0;
  for (size_t i = begin; i < std::min(end, frames.size()); ++i) sum += static_cast<double>(frames[i]) * static_cast<double>(frames[i]);
  return sum;
}

// RMS level in dB of frames [begin, end) of both channels.
inline double levelDb(const Rendered& r, size_t begin, size_t end) {
  const double e = energy(r.left, begin, end) + energy(r.right, begin, end);
  const double frames = static_cast<double>(std::min(end, r.left.size()) - std::min(begin, r.left.size()));
  return frames > 0 && e > 0 ? 10.0 * std::log10(e / (2.0 * frames)) : -300.0;
}

// Energy of the difference between two renders (the shorter padded with silence),
// relative to the louder one: 0 = identical.
inline double relativeDifference(const Rendered& a, const Rendered& b) {
  // The energy of x - y, the shorter one padded with silence.
  const auto differenceEnergy = [](const std::vector<float>& x, const std::vector<float>& y) {
    const size_t common = std::min(x.size(), y.size());
    double sum = 0.0;
    for (size_t i = 0; i < common; ++i) {
      const double d = static_cast<double>(x[i]) - static_cast<double>(y[i]);
      sum += d * d;
    }
    const std::vector<float>& longer = x.size() > y.size() ? x : y;
    for (size_t i = common; i < longer.size(); ++i) {
      const double d = static_cast<double>(longer[i]);
      sum += d * d;
    }
    return sum;
  };
  const double diff = differenceEnergy(a.left, b.left) + differenceEnergy(a.right, b.right);
  const double louder = std::max(energy(a.left) + energy(a.right), energy(b.left) + energy(b.right));
  return louder > 0.0 ? diff / louder : 0.0;
}

}  // namespace spindle::test
