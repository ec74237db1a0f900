#include "stream/Generators.h"

#include <cmath>
#include <numbers>

#include "core/Units.h"

namespace spindle::stream {

namespace {

enum class Shape { Sine, Triangle, Saw, Square };

// Amplitude of harmonic `h` (1-based) in the Fourier series of each shape, scaled
// so the waveform peaks near 1; zero for harmonics a shape does not contain.
double harmonicAmplitude(Shape shape, int h) {
  const double pi = std::numbers::pi;
  switch (shape) {
    case Shape::Sine: return h == 1 ? 1.0 : 0.0;
    case Shape::Saw: return (h % 2 ? 2.0 : -2.0) / (pi * h);
    case Shape::Square: return h % 2 ? 4.0 / (pi * h) : 0.0;
    case Shape::Triangle:
      if (h % 2 == 0) return 0.0;
      return ((h / 2) % 2 ? -8.0 : 8.0) / (pi * pi * h * h);
  }
  return 0.0;
}

GeneratedSample periodic(Shape shape) {
  GeneratedSample out;
  out.frames.assign(static_cast<std::size_t>(kWavetableFrames), 0.0f);
  const double step = 2.0 * std::numbers::pi / static_cast<double>(kWavetableFrames);
  for (int64_t i = 0; i < kWavetableFrames; ++i) {
    double value = 0.0;
    for (int h = 1; h <= kHarmonics; ++h) {
      const double amplitude = harmonicAmplitude(shape, h);
      if (amplitude != 0.0) value += amplitude * std::sin(step * static_cast<double>(h * i));
    }
    out.frames[static_cast<std::size_t>(i)] = static_cast<float>(value);
  }
  out.sampleRate = static_cast<double>(kWavetableFrames) * noteToHz(60.0);
  out.loopEnd = kWavetableFrames - 1;
  out.oscillator = true;
  return out;
}

GeneratedSample noise() {
  constexpr int64_t kFrames = 65536;
  GeneratedSample out;
  out.frames.resize(kFrames);
  uint32_t state = 0x9E3779B9u;  // xorshift32: fixed seed, same table every run
  for (float& frame : out.frames) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    frame = static_cast<float>(static_cast<double>(state) / 2147483648.0 - 1.0);
  }
  out.sampleRate = 48000.0;
  out.loopEnd = kFrames - 1;
  return out;
}

GeneratedSample silence() {
  GeneratedSample out;
  out.frames.assign(1024, 0.0f);
  out.sampleRate = 48000.0;
  out.loopEnd = 1023;
  return out;
}

}  // namespace

bool isGeneratorName(std::string_view name) noexcept { return !name.empty() && name.front() == '*'; }

std::optional<GeneratedSample> generateSample(std::string_view name) {
  if (name == "*sine") return periodic(Shape::Sine);
  if (name == "*triangle" || name == "*tri") return periodic(Shape::Triangle);
  if (name == "*saw") return periodic(Shape::Saw);
  if (name == "*square") return periodic(Shape::Square);
  if (name == "*noise") return noise();
  if (name == "*silence") return silence();
  return std::nullopt;
}

}  // namespace spindle::stream
