#pragma once
// What the DecentSampler effect render tests share: a preset written around one sample
// (noise, a sine, a click) and played through the app Loader and the engine at 48 kHz,
// and the measures they take of the render (levels, centroids of short windows, the
// period of a series, echo positions, harmonic levels).
#include <algorithm>
#include <cmath>
#include <complex>
#include <fstream>
#include <memory>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "NoiseSample.h"
#include "RenderSupport.h"
#include "Spectrum.h"
#include "session/Loader.h"
#include "catch.h"
#include "engine/core/EngineTestSupport.h"
#include "stream/TestAudioFiles.h"

namespace spindle::test::ds {

constexpr int kRate = 48000;

// The samples: noise.wav (3 s white noise), sine.wav (2 s, 1 kHz at half scale),
// click-at-100ms.wav (1 s: one full-scale frame at 0.1 s, silence around it).
inline void writeSamples(const std::filesystem::path& dir) {
  if (std::filesystem::exists(dir / "click-at-100ms.wav")) return;
  writeNoise(dir / "noise.wav", kRate);
  std::vector<int16_t> sine(static_cast<size_t>(2 * kRate));
  for (size_t i = 0; i < sine.size(); ++i)
    sine[i] = static_cast<int16_t>(std::lround(16383.0 * std::sin(2.0 * std::numbers::pi * 1000.0 * static_cast<double>(i) / kRate)));
  writeWav16(dir / "sine.wav", 1, sine, kRate);
  std::vector<int16_t> click(static_cast<size_t>(kRate), 0);
  click[static_cast<size_t>(kRate / 10)] = 32767;
  writeWav16(dir / "click-at-100ms.wav", 1, click, kRate);
}

// A preset: `top` (effects, ui, modulators) and one group playing `sample` on every key
// (root 60, no velocity tracking), its own `group` children (effects) inside it.
inline std::string preset(const std::string& sample, const std::string& top, const std::string& group = "") {
  return "<DecentSampler>" + top + "<groups ampVelTrack=\"0\"><group><sample path=\"" + sample +
         "\" loNote=\"0\" hiNote=\"127\" rootNote=\"60\"/>" + group + "</group></groups></DecentSampler>";
}

// A render and what it needs alive: the loader (its samples) and the program.
struct Played {
  session::Loader loader;
  std::unique_ptr<engine::Program> program;
  std::unique_ptr<Renderer> render;
  const std::vector<float>& left() const { return render->left; }
};

// `keys` held from frame 0 for `seconds` (the events' frames absolute), rendered for
// `seconds` + 1. `command`: posted to the engine before the render (a tempo, say).
inline std::unique_ptr<Played> playKeys(const std::string& name, const std::string& xml, double seconds,
                                        const std::vector<int>& keys, std::vector<TimedEvent> events = {},
                                        const engine::Command* command = nullptr) {
  const auto dir = scratchDir("ds-effects");
  writeSamples(dir);
  std::ofstream(dir / (name + ".dspreset")) << xml;
  auto p = std::make_unique<Played>();
  auto result = p->loader.load(dir / (name + ".dspreset"));
  REQUIRE(result.program);
  p->program = std::move(result.program);
  const auto frames = static_cast<int64_t>(seconds * kRate);
  for (const int key : keys) {
    events.push_back(noteOn(0, key, 127));
    events.push_back(noteOff(frames, key));
  }
  p->render = std::make_unique<Renderer>(engine::EngineConfig{}, 256);
  p->render->setProgram(p->program.get(), 0);
  if (command) p->render->post(*command);
  p->render->run(events, frames + kRate);
  return p;
}

// Key 60 held for `seconds`, as playKeys.
inline std::unique_ptr<Played> play(const std::string& name, const std::string& xml, double seconds,
                                    std::vector<TimedEvent> events = {}, const engine::Command* command = nullptr) {
  return playKeys(name, xml, seconds, {60}, std::move(events), command);
}

inline size_t at(double seconds) { return static_cast<size_t>(seconds * kRate); }

// Level (dB, both channels' mean square) over [from, to) seconds.
inline double level(const Played& p, double from, double to) {
  const Renderer& r = *p.render;
  double sum = 0.0;
  for (size_t i = at(from); i < at(to); ++i) {
    const auto l = static_cast<double>(r.left[i]), rr = static_cast<double>(r.right[i]);
    sum += l * l + rr * rr;
  }
  return 10.0 * std::log10(sum / static_cast<double>(2 * (at(to) - at(from))) + 1e-30);
}

inline double centroid(const Played& p, double from, double to) {
  return spectralCentroid(p.render->left, p.render->right, at(from), at(to), kRate);
}

// The spectral centroid of the left channel in consecutive 1024-frame windows every
// `hop` seconds over [from, to).
inline std::vector<double> windowCentroids(const std::vector<float>& x, double from, double to, double hop) {
  constexpr size_t kN = 1024;
  std::vector<double> out;
  for (double t = from; at(t) + kN <= at(to); t += hop) {
    std::vector<std::complex<double>> v(kN);
    for (size_t i = 0; i < kN; ++i)
      v[i] = (0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * static_cast<double>(i) / kN)) * static_cast<double>(x[at(t) + i]);
    fft(v);
    double weighted = 0.0, total = 0.0;
    for (size_t k = 1; k < kN / 2; ++k) {
      weighted += std::norm(v[k]) * static_cast<double>(k) * kRate / kN;
      total += std::norm(v[k]);
    }
    out.push_back(total > 0.0 ? weighted / total : 0.0);
  }
  return out;
}

// The period (s) of a series sampled every `hop` s: the lag of the highest
// autocorrelation in [minLag, maxLag] s, refined by a parabola through its neighbours.
inline double period(std::vector<double> s, double hop, double minLag, double maxLag) {
  double mean = 0.0;
  for (double v : s) mean += v / static_cast<double>(s.size());
  for (double& v : s) v -= mean;
  const auto corr = [&](size_t lag) {
    double c = 0.0;
    for (size_t i = 0; i + lag < s.size(); ++i) c += s[i] * s[i + lag];
    return c / static_cast<double>(s.size() - lag);
  };
  const auto lo = static_cast<size_t>(std::ceil(minLag / hop)), hi = static_cast<size_t>(maxLag / hop);
  size_t best = lo;
  for (size_t lag = lo; lag <= hi; ++lag)
    if (corr(lag) > corr(best)) best = lag;
  const double a = corr(best - 1), b = corr(best), c = corr(best + 1);
  const double shift = (a - 2.0 * b + c) != 0.0 ? 0.5 * (a - c) / (a - 2.0 * b + c) : 0.0;
  return (static_cast<double>(best) + shift) * hop;
}

// The frequency of a sine in windows of `window` s every `window` s, from its rising
// zero crossings (interpolated).
inline std::vector<double> windowFrequencies(const std::vector<float>& x, double from, double to, double window) {
  std::vector<double> out;
  for (double t = from; t + window <= to; t += window) {
    double first = -1.0, last = -1.0;
    int crossings = 0;
    for (size_t i = at(t); i + 1 < at(t + window); ++i) {
      if (!(x[i] <= 0.0f && x[i + 1] > 0.0f)) continue;
      const double c = static_cast<double>(i) + static_cast<double>(x[i] / (x[i] - x[i + 1]));
      if (first < 0.0) first = c;
      last = c;
      ++crossings;
    }
    out.push_back(crossings > 1 ? (crossings - 1) * kRate / (last - first) : 0.0);
  }
  return out;
}

// The power near `hz` relative to that near `refHz` (dB), over 8192 frames of `x` from
// `from` s (Hann window, power within 3 bins of each).
inline double toneDb(const std::vector<float>& x, double from, double hz, double refHz) {
  constexpr size_t kN = 8192;
  std::vector<std::complex<double>> v(kN);
  for (size_t i = 0; i < kN; ++i)
    v[i] = (0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * static_cast<double>(i) / kN)) * static_cast<double>(x[at(from) + i]);
  fft(v);
  const auto power = [&](double f) {
    const auto bin = static_cast<long>(std::lround(f * kN / kRate));
    double p = 0.0;
    for (long k = bin - 3; k <= bin + 3; ++k) p += std::norm(v[static_cast<size_t>(k)]);
    return p;
  };
  return 10.0 * std::log10(power(hz) / power(refHz) + 1e-30);
}

// Harmonic h of the 1 kHz sine, relative to the fundamental (dB), as toneDb.
inline double harmonicDb(const std::vector<float>& x, double from, int h) { return toneDb(x, from, 1000.0 * h, 1000.0); }

}  // namespace spindle::test::ds
