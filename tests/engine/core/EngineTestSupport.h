#pragma once
// Helpers for the engine core tests: samples synthesized in memory (with the guard
// frames SampleData promises), small Programs, and a renderer that feeds events at
// absolute frames through fixed-size blocks.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "catch.h"
#include "core/Limits.h"
#include "core/MidiEvent.h"
#include "core/SampleData.h"
#include "core/Units.h"
#include "engine/Engine.h"
#include "engine/parts/Program.h"
#include "engine/voices/Random.h"

namespace spindle::test {

inline constexpr double kPi = 3.14159265358979323846;

// One channel-planar sample with kGuardFrames zeros either side of its frames.
class TestSample {
 public:
  explicit TestSample(std::vector<float> left, std::vector<float> right = {}, double rate = 48000.0) {
    const size_t g = limits::kGuardFrames;
    const size_t n = left.size();
    storage_[0].assign(n + 2 * g, 0.0f);
    std::copy(left.begin(), left.end(), storage_[0].begin() + static_cast<long>(g));
    data.channels = 1;
    if (!right.empty()) {
      storage_[1].assign(n + 2 * g, 0.0f);
      std::copy(right.begin(), right.end(), storage_[1].begin() + static_cast<long>(g));
      data.channels = 2;
    }
    data.frames[0] = storage_[0].data() + g;
    data.frames[1] = data.channels == 2 ? storage_[1].data() + g : data.frames[0];
    data.table = storage_[0].data() + g;  // held whole as float: may play as an oscillator table
    data.framesInRam = data.totalFrames = static_cast<int64_t>(n);
    data.sampleRate = rate;
  }
  SampleData data;

 private:
  std::vector<float> storage_[2];
};

inline std::vector<float> sine(double hz, double rate, int64_t frames, float amplitude = 0.5f) {
  std::vector<float> v(static_cast<size_t>(frames));
  for (int64_t i = 0; i < frames; ++i) {
    v[static_cast<size_t>(i)] = amplitude * static_cast<float>(std::sin(2.0 * kPi * hz * static_cast<double>(i) / rate));
  }
  return v;
}
inline std::vector<float> constant(float value, int64_t frames) { return std::vector<float>(static_cast<size_t>(frames), value); }
inline std::vector<float> ramp(int64_t frames) {
  std::vector<float> v(static_cast<size_t>(frames));
  for (int64_t i = 0; i < frames; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i);
  return v;
}

// A Program over samples it keeps alive. Regions default to "plain": no velocity
// tracking, a 1 ms release; tests change what they measure.
struct TestProgram {
  std::vector<std::unique_ptr<TestSample>> samples;
  std::unique_ptr<engine::Program> program = std::make_unique<engine::Program>();

  int addSample(std::unique_ptr<TestSample> s) {
    samples.push_back(std::move(s));
    program->samples.push_back(&samples.back()->data);
    return static_cast<int>(samples.size()) - 1;
  }
  Region& addRegion(int sampleIndex, int lokey = 0, int hikey = 127) {
    Region r;
    r.sampleIndex = sampleIndex;
    r.lokey = static_cast<uint8_t>(lokey);
    r.hikey = static_cast<uint8_t>(hikey);
    r.ampVeltrack = 0.0f;
    program->regions.push_back(r);
    return program->regions.back();
  }
  const engine::Program* prepare() {
    program->prepare();
    return program.get();
  }
};

struct TimedEvent {
  int64_t frame;
  MidiEvent event;
};
inline TimedEvent noteOn(int64_t frame, int key, int velocity = 100, int channel = 0) {
  return {frame, MidiEvent{0, static_cast<uint8_t>(0x90 | channel), static_cast<uint8_t>(key), static_cast<uint8_t>(velocity)}};
}
inline TimedEvent noteOff(int64_t frame, int key, int channel = 0) {
  return {frame, MidiEvent{0, static_cast<uint8_t>(0x80 | channel), static_cast<uint8_t>(key), 0}};
}
inline TimedEvent cc(int64_t frame, int number, int value, int channel = 0) {
  return {frame, MidiEvent{0, static_cast<uint8_t>(0xB0 | channel), static_cast<uint8_t>(number), static_cast<uint8_t>(value)}};
}
inline TimedEvent bend(int64_t frame, int value, int channel = 0) {  // -8192..8191
  const int raw = value + 8192;
  return {frame, MidiEvent{0, static_cast<uint8_t>(0xE0 | channel), static_cast<uint8_t>(raw & 0x7F), static_cast<uint8_t>(raw >> 7)}};
}
inline TimedEvent programChange(int64_t frame, int program, int channel = 0) {
  return {frame, MidiEvent{0, static_cast<uint8_t>(0xC0 | channel), static_cast<uint8_t>(program), 0}};
}

// Renders an Engine block by block, keeping every output frame.
class Renderer {
 public:
  explicit Renderer(engine::EngineConfig config = {}, int blockFrames = 256)
      : engine(config), block_(blockFrames) {}

  void post(const engine::Command& c) { REQUIRE(engine.postCommand(c)); }
  // Parts 1..count - 1 render to outputs of their own (partLeft[k], partRight[k]), as
  // with --multi-out; part 0 stays on the main pair. Call before the first run().
  void setPartOutputs(int count) {
    partLeft.assign(static_cast<size_t>(count), {});
    partRight.assign(static_cast<size_t>(count), {});
  }
  void setProgram(const engine::Program* p, int part = 0) {
    engine::Command c;
    c.type = engine::CommandType::SetProgram;
    c.part = static_cast<int8_t>(part);
    c.program = p;
    post(c);
  }
  // Renders `frames` more frames; event frames are absolute (since the first render).
  void run(std::vector<TimedEvent> events, int64_t frames) {
    // Stable by frame: events at one frame keep their order.
    std::vector<size_t> order(events.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return events[a].frame != events[b].frame ? events[a].frame < events[b].frame : a < b;
    });
    std::vector<TimedEvent> sorted;
    for (size_t i : order) sorted.push_back(events[i]);
    events = std::move(sorted);
    size_t next = 0;
    const int64_t end = rendered_ + frames;
    std::vector<MidiEvent> blockEvents;
    while (rendered_ < end) {
      const int n = static_cast<int>(std::min<int64_t>(block_, end - rendered_));
      blockEvents.clear();
      while (next < events.size() && events[next].frame < rendered_ + n) {
        MidiEvent e = events[next].event;
        e.frame = static_cast<uint32_t>(std::max<int64_t>(0, events[next].frame - rendered_));
        blockEvents.push_back(e);
        ++next;
      }
      left.resize(static_cast<size_t>(rendered_ + n));
      right.resize(left.size());
      engine::PartOutputs parts{};
      for (size_t k = 1; k < partLeft.size(); ++k) {
        partLeft[k].resize(left.size());
        partRight[k].resize(left.size());
        parts[k] = {partLeft[k].data() + rendered_, partRight[k].data() + rendered_};
      }
      if (partLeft.empty()) {
        engine.process(blockEvents.data(), static_cast<int>(blockEvents.size()), left.data() + rendered_,
                       right.data() + rendered_, n);
      } else {
        engine.process(blockEvents.data(), static_cast<int>(blockEvents.size()), left.data() + rendered_,
                       right.data() + rendered_, parts, n);
      }
      rendered_ += n;
    }
  }

  engine::Engine engine;
  std::vector<float> left, right;
  std::vector<std::vector<float>> partLeft, partRight;  // setPartOutputs

 private:
  int block_;
  int64_t rendered_ = 0;
};

// Frequency from upward zero crossings, located by linear interpolation, over [from, to).
inline double measureHz(const std::vector<float>& x, size_t from, size_t to, double rate) {
  double first = -1.0, last = -1.0;
  int crossings = 0;
  for (size_t i = from + 1; i < to; ++i) {
    if (x[i - 1] < 0.0f && x[i] >= 0.0f) {
      const double t = static_cast<double>(i - 1) + static_cast<double>(-x[i - 1] / (x[i] - x[i - 1]));
      if (first < 0.0) first = t;
      last = t;
      ++crossings;
    }
  }
  if (crossings < 2) return 0.0;
  return (crossings - 1) * rate / (last - first);
}

inline double centsBetween(double hz, double reference) { return 1200.0 * std::log2(hz / reference); }

// A tone in a mix of several: |Hann-windowed DTFT| of x[from, to) at hz, scaled so a
// sine of amplitude a reads a.
inline double toneLevel(const std::vector<float>& x, size_t from, size_t to, double hz, double rate) {
  double re = 0.0, im = 0.0, windowSum = 0.0;
  const double n = static_cast<double>(to - from);
  for (size_t i = from; i < to; ++i) {
    const double w = 0.5 - 0.5 * std::cos(2.0 * kPi * static_cast<double>(i - from) / n);
    const double phase = 2.0 * kPi * hz * static_cast<double>(i) / rate;
    re += w * static_cast<double>(x[i]) * std::cos(phase);
    im -= w * static_cast<double>(x[i]) * std::sin(phase);
    windowSum += w;
  }
  return 2.0 * std::sqrt(re * re + im * im) / windowSum;
}

struct TonePeak {
  double hz = 0.0, level = 0.0;
};
// The strongest frequency within +-60 cents of `expected` (golden-section search of
// toneLevel), with its level: a note's pitch among notes at least 2 semitones away.
inline TonePeak tonePeak(const std::vector<float>& x, size_t from, size_t to, double expected, double rate) {
  double lo = expected * std::pow(2.0, -60.0 / 1200.0), hi = expected * std::pow(2.0, 60.0 / 1200.0);
  const double g = (std::sqrt(5.0) - 1.0) / 2.0;
  for (int i = 0; i < 60; ++i) {
    const double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    if (toneLevel(x, from, to, a, rate) > toneLevel(x, from, to, b, rate)) hi = b;
    else lo = a;
  }
  const double hz = 0.5 * (lo + hi);
  return {hz, toneLevel(x, from, to, hz, rate)};
}

inline float maxJump(const std::vector<float>& x, size_t from, size_t to) {
  float m = 0.0f;
  for (size_t i = std::max<size_t>(from, 1); i < to && i < x.size(); ++i) m = std::max(m, std::fabs(x[i] - x[i - 1]));
  return m;
}

// Plays each event at the start of its own 64-frame block; returns what frame 4 of each
// block shows (regions tagged by a constant sample level tell which one played).
inline std::vector<float> playTags(Renderer& r, const std::vector<TimedEvent>& events) {
  std::vector<float> seen;
  for (const TimedEvent& n : events) {
    const auto start = static_cast<int64_t>(r.left.size());
    TimedEvent e = n;
    e.frame = start;
    r.run({e}, 64);
    seen.push_back(r.left[static_cast<size_t>(start + 4)]);
  }
  return seen;
}

}  // namespace spindle::test
