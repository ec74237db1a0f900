#pragma once
// DensePiano: a generated multi-sampled piano and a dense song for it, shaped like a
// real FLAC piano measured once (242 regions, 226 files of 1.4-14 s,
// 4 velocity layers, 44.1 kHz; a 45 s song of 3,295 notes that keeps 256 voices busy).
//
// Used by bench/dense_piano.cpp (writes the files for spindle-render and fluidsynth)
// and by tests/stream_audio (a scaled-down piano rendered streamed and in RAM). No
// recorded audio: every sample is a decaying stereo harmonic tone with a little noise
// in its attack, so it compresses like real audio (FLAC ~50-60 %), not like silence.
//
//   roots:  `roots` keys spread over 21..108, each the centre of a key range
//   layers: 4 velocity layers (1-40, 41-70, 71-100, 101-127): brighter and louder up
//   length: 15 s at the lowest root down to 1.5 s at the highest (scaled by `seconds`)
//
// The song (frames at `songRate`), in three layers that overlap for its whole length:
//   held chords      every 2.5 s, `chordNotes` keys spread over the keyboard, held 2.2 s
//   repeated notes   6 keys struck every 200 ms, each held 120 ms
//   glissandi        up and down the keyboard at 20 notes a second, sustain pedal
//                    down for 2.5 s and lifted for 0.5 s
#include <sndfile.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace spindle::bench {

struct PianoShape {
  int roots = 60;            // 60 roots x 4 layers = 240 regions and files
  double longest = 15.0;     // seconds, lowest root
  double shortest = 1.5;     // seconds, highest root
  double rate = 44100.0;
  int format = SF_FORMAT_FLAC | SF_FORMAT_PCM_16;  // or SF_FORMAT_WAV | SF_FORMAT_PCM_16
  double release = 1.0;      // ampeg_release, seconds
};

struct PianoRegion {
  std::string file;  // file name inside the folder
  int root = 60, lokey = 0, hikey = 127, lovel = 1, hivel = 127, layer = 0;
  int64_t frames = 0;
};

inline constexpr int kLayers = 4;
inline constexpr int kLayerTop[kLayers] = {40, 70, 100, 127};

inline std::vector<PianoRegion> pianoRegions(const PianoShape& shape) {
  std::vector<PianoRegion> regions;
  std::vector<int> roots;
  for (int i = 0; i < shape.roots; ++i) roots.push_back(21 + static_cast<int>(std::lround(87.0 * i / std::max(1, shape.roots - 1))));
  const char* ext = (shape.format & SF_FORMAT_TYPEMASK) == SF_FORMAT_FLAC ? "flac" : "wav";
  for (std::size_t i = 0; i < roots.size(); ++i) {
    const int lo = i == 0 ? 0 : (roots[i - 1] + roots[i]) / 2 + 1;
    const int hi = i + 1 == roots.size() ? 127 : (roots[i] + roots[i + 1]) / 2;
    const double t = (roots[i] - 21) / 87.0;
    const double seconds = shape.longest * std::pow(shape.shortest / shape.longest, t);
    for (int layer = 0; layer < kLayers; ++layer) {
      PianoRegion r;
      r.file = "k" + std::to_string(roots[i]) + "_v" + std::to_string(layer + 1) + "." + ext;
      r.root = roots[i], r.lokey = lo, r.hikey = hi, r.layer = layer;
      r.lovel = layer == 0 ? 1 : kLayerTop[layer - 1] + 1;
      r.hivel = kLayerTop[layer];
      r.frames = static_cast<int64_t>(seconds * shape.rate);
      regions.push_back(r);
    }
  }
  return regions;
}

// Interleaved stereo int16 frames of one region: 6 harmonics from recursive
// oscillators (no sin() per frame), the right channel slightly detuned, a noisy attack.
inline std::vector<int16_t> pianoFrames(const PianoRegion& r, double rate) {
  std::vector<int16_t> out(static_cast<std::size_t>(r.frames * 2));
  const double freq = 440.0 * std::pow(2.0, (r.root - 69) / 12.0);
  const double gain = 3000.0 + 2200.0 * r.layer;
  const double decay = 3.0 / (static_cast<double>(r.frames) / rate);  // ~-26 dB at the end
  constexpr int kHarmonics = 6;
  double c[2][kHarmonics], s[2][kHarmonics], x[2][kHarmonics], y[2][kHarmonics], amp[kHarmonics];
  for (int ch = 0; ch < 2; ++ch)
    for (int h = 0; h < kHarmonics; ++h) {
      const double w = 2.0 * M_PI * freq * (h + 1) * (ch ? 1.0007 : 1.0) / rate;
      c[ch][h] = std::cos(w), s[ch][h] = std::sin(w), x[ch][h] = 1.0, y[ch][h] = 0.0;
      amp[h] = (w < M_PI * 0.9 ? 1.0 : 0.0) * std::pow(0.55 - 0.08 * (3 - r.layer), h) / (h + 1);
    }
  uint32_t noise = 0x9E3779B9u ^ static_cast<uint32_t>(r.root * 131 + r.layer);
  double env = 1.0;
  const double step = std::exp(-decay / rate);
  for (int64_t i = 0; i < r.frames; ++i, env *= step) {
    for (int ch = 0; ch < 2; ++ch) {
      double v = 0.0;
      for (int h = 0; h < kHarmonics; ++h) {
        const double nx = x[ch][h] * c[ch][h] - y[ch][h] * s[ch][h];
        y[ch][h] = x[ch][h] * s[ch][h] + y[ch][h] * c[ch][h];
        x[ch][h] = nx;
        v += amp[h] * y[ch][h];
      }
      noise = noise * 1664525u + 1013904223u;
      const double hiss = (static_cast<double>(noise >> 8) / 16777216.0 - 0.5) * (0.004 + 0.2 * std::exp(-40.0 * i / rate));
      out[static_cast<std::size_t>(2 * i + ch)] = static_cast<int16_t>(std::clamp(gain * env * (v + hiss), -32767.0, 32767.0));
    }
    if ((i & 4095) == 4095)  // keep the oscillators on the unit circle
      for (int ch = 0; ch < 2; ++ch)
        for (int h = 0; h < kHarmonics; ++h) {
          const double n = std::hypot(x[ch][h], y[ch][h]);
          x[ch][h] /= n, y[ch][h] /= n;
        }
  }
  return out;
}

inline bool writePianoFile(const std::filesystem::path& path, const PianoRegion& r, const PianoShape& shape) {
  SF_INFO info{};
  info.samplerate = static_cast<int>(shape.rate);
  info.channels = 2;
  info.format = shape.format;
  SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
  if (!file) return false;
  const std::vector<int16_t> frames = pianoFrames(r, shape.rate);
  const sf_count_t written = sf_writef_short(file, frames.data(), r.frames);
  sf_close(file);
  return written == r.frames;
}

inline std::string pianoSfz(const std::vector<PianoRegion>& regions, const PianoShape& shape) {
  std::string sfz = "<global> ampeg_release=" + std::to_string(shape.release) + "\n";
  for (const PianoRegion& r : regions)
    sfz += "<region> sample=" + r.file + " lokey=" + std::to_string(r.lokey) + " hikey=" + std::to_string(r.hikey) +
           " pitch_keycenter=" + std::to_string(r.root) + " lovel=" + std::to_string(r.lovel) +
           " hivel=" + std::to_string(r.hivel) + "\n";
  return sfz;
}

// ---- the song ---------------------------------------------------------------------

struct SongEvent {
  int64_t frame = 0;
  uint8_t status = 0, data1 = 0, data2 = 0;
};

struct SongShape {
  double seconds = 45.0;
  double rate = 48000.0;
  int chordNotes = 64;
};

inline std::vector<SongEvent> denseSong(const SongShape& shape) {
  std::vector<SongEvent> e;
  const auto at = [&shape](double seconds) { return static_cast<int64_t>(seconds * shape.rate); };
  const auto note = [&](double start, double hold, int key, int velocity) {
    e.push_back({at(start), 0x90, static_cast<uint8_t>(key), static_cast<uint8_t>(velocity)});
    e.push_back({at(start + hold), 0x80, static_cast<uint8_t>(key), 0});
  };
  int n = 0;
  for (double t = 0.0; t + 2.2 <= shape.seconds; t += 2.5, ++n)  // held chords
    for (int k = 0; k < shape.chordNotes; ++k)
      note(t, 2.2, 24 + (k * 79 / std::max(1, shape.chordNotes - 1) + n) % 80, 30 + (k * 37 + n * 11) % 97);
  for (double t = 0.05; t + 0.12 <= shape.seconds; t += 0.2, ++n)  // repeated notes
    for (int k = 0; k < 6; ++k) note(t, 0.12, 40 + k * 7, 45 + (n * 13 + k * 17) % 82);
  const double glissStep = 1.0 / 20.0;
  int key = 21, dir = 1;
  for (double t = 0.02; t + 0.3 <= shape.seconds; t += glissStep) {  // pedalled glissandi
    note(t, 0.08, key, 50 + (key * 5) % 70);
    key += dir * 2;
    if (key >= 106 || key <= 21) dir = -dir;
  }
  for (double t = 0.0; t < shape.seconds; t += 3.0) {
    e.push_back({at(t + 0.01), 0xB0, 64, 127});
    e.push_back({at(t + 2.5), 0xB0, 64, 0});
  }
  std::stable_sort(e.begin(), e.end(), [](const SongEvent& a, const SongEvent& b) { return a.frame < b.frame; });
  return e;
}

inline int noteCount(const std::vector<SongEvent>& events) {
  return static_cast<int>(std::count_if(events.begin(), events.end(), [](const SongEvent& s) { return s.status == 0x90; }));
}

}  // namespace spindle::bench
