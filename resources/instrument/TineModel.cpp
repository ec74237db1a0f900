#include "TineModel.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

#include "Spec.h"

namespace spindle::instrument {
namespace {

constexpr double kSr = kSampleRate;
constexpr double kLn1000 = 6.907755278982137;  // ln(10^3): a 60 dB fall

// Cantilever-beam overtone ratios (first two bending modes above the fundamental). They
// are inharmonic, which is what gives the attack its metallic "clang".
constexpr double kBendRatio2 = 6.267;
constexpr double kBendRatio3 = 17.547;

// A decaying sinusoid computed by complex rotation: state *= step each frame. The step's
// angle is exactly 2*pi*f/sr, so the pitch is exact without a table or per-frame sin().
class Mode {
 public:
  Mode(double freqHz, double amplitude, double t60Seconds) {
    const double radius = std::exp(-kLn1000 / (t60Seconds * kSr));
    step_ = std::polar(radius, 2.0 * std::numbers::pi * freqHz / kSr);
    // Modes above 6 kHz fade out by 16 kHz: the coil's +6 dB/octave would make them
    // shrill, and near Nyquist they would alias in the pickup's nonlinearity.
    const double fade = std::clamp((16000.0 - freqHz) / 10000.0, 0.0, 1.0);
    state_ = {amplitude * fade, 0.0};
  }
  double next() {
    const double out = state_.imag();
    state_ *= step_;
    return out;
  }

 private:
  std::complex<double> state_;
  std::complex<double> step_;
};

// splitmix64: small, well mixed, and identical on every platform.
class Noise {
 public:
  explicit Noise(std::uint64_t seed) : state_(seed) {}
  double next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;  // uniform in [-1, 1)
  }

 private:
  std::uint64_t state_;
};

class OnePoleLowpass {
 public:
  explicit OnePoleLowpass(double cutoffHz) : a_(1.0 - std::exp(-2.0 * std::numbers::pi * cutoffHz / kSr)) {}
  double process(double x) { return y_ += a_ * (x - y_); }

 private:
  double a_;
  double y_ = 0.0;
};

// Removes the slowly moving offset the asymmetric pickup and the felt noise add to a
// release sample.
class DcBlocker {
 public:
  double process(double x) {
    const double y = x - x1_ + 0.9974 * y1_;  // pole at ~20 Hz for 48 kHz
    x1_ = x;
    y1_ = y;
    return y;
  }

 private:
  double x1_ = 0.0;
  double y1_ = 0.0;
};

// Felt hammer contact: displacement builds up over the contact time, which is shorter
// (so the spectrum is wider) for a harder strike.
double contactRamp(double t, double contactSeconds) {
  if (t >= contactSeconds) return 1.0;
  return 0.5 - 0.5 * std::cos(std::numbers::pi * t / contactSeconds);
}

// Tine position -> magnetic flux through the pickup coil. The tine sits off the pickup's
// axis (bias), so the saturation is asymmetric and adds even harmonics: the "bark". The
// coil's voltage is the flux's rate of change (Faraday), taken as a first difference by
// renderSustain, which tilts the harmonics up by 6 dB/octave and removes any DC.
double pickup(double displacement, double drive, double bias) {
  return std::tanh(drive * displacement + bias) - std::tanh(bias);
}

std::uint64_t seedFor(int key, double strength, int roundRobin, std::uint64_t salt) {
  return salt ^ (static_cast<std::uint64_t>(key) << 32) ^ (static_cast<std::uint64_t>(roundRobin) << 16) ^
         static_cast<std::uint64_t>(std::lround(strength * 1000.0));
}

// Scales to the given peak and applies a raised-cosine fade over the last fadeFrames.
void normaliseAndFade(std::vector<float>& buffer, double peakLevel, std::size_t fadeFrames) {
  double peak = 0.0;
  for (float v : buffer) peak = std::max(peak, static_cast<double>(std::abs(v)));
  const double gain = peak > 0.0 ? peakLevel / peak : 0.0;
  fadeFrames = std::min(fadeFrames, buffer.size());
  for (std::size_t i = 0; i < buffer.size(); ++i) {
    const std::size_t toEnd = buffer.size() - 1 - i;
    const double fade = toEnd >= fadeFrames ? 1.0
        : 0.5 - 0.5 * std::cos(std::numbers::pi * static_cast<double>(toEnd) / static_cast<double>(fadeFrames));
    buffer[i] = static_cast<float>(static_cast<double>(buffer[i]) * gain * fade);
  }
}

struct ToneParameters {
  double f0, t60, drive, bias, contact, noiseLevel, noiseCutoff;
  double fastShare, bend2, bend3, bendDetune;
};

// How the strike strength and the key shape the tone. Harder strikes excite the bending
// modes more (quadratically), drive the pickup harder and shorten the hammer contact; the
// treble is driven less because short tines swing less.
ToneParameters toneFor(const Strike& s) {
  const double v = s.strength;
  const double keyPos = (s.key - kFirstKey) / double(kLastKey - kFirstKey);
  ToneParameters p{};
  p.f0 = keyFrequency(s.key);
  p.t60 = decaySeconds(s.key);
  p.drive = (0.35 + 1.9 * v) * (1.0 - 0.45 * std::clamp(keyPos, 0.0, 1.0));
  p.bias = 0.45 + (s.roundRobin == 0 ? 0.0 : 0.05);
  p.contact = (0.0032 - 0.0022 * v) * (s.roundRobin == 0 ? 1.0 : 1.2);
  p.noiseLevel = 0.012 + 0.03 * v;
  p.noiseCutoff = 900.0 + 5000.0 * v * v;
  p.fastShare = 0.2 + 0.25 * v + (s.roundRobin == 0 ? 0.0 : 0.05);
  p.bend2 = 0.12 * v * v;
  p.bend3 = 0.04 * v * v;
  p.bendDetune = s.roundRobin == 0 ? 1.0 : 1.0045;
  return p;
}

}  // namespace

std::vector<float> renderSustain(const Strike& strike, std::int64_t frames, double peakLevel) {
  const ToneParameters p = toneFor(strike);
  const double bendT60 = 0.5 * p.t60 / decaySeconds(kFirstKey);
  Mode slow(p.f0, 1.0 - p.fastShare, p.t60);
  Mode fast(p.f0, p.fastShare, 0.7);
  Mode bend2(p.f0 * kBendRatio2 * p.bendDetune, p.bend2, bendT60);
  Mode bend3(p.f0 * kBendRatio3 * p.bendDetune, p.bend3, 0.3 * bendT60);
  Noise noise(seedFor(strike.key, strike.strength, strike.roundRobin, 0x5eed5eedULL));
  OnePoleLowpass thumpA(p.noiseCutoff), thumpB(p.noiseCutoff);
  double lastFlux = 0.0;
  const double noiseDecay = std::exp(-kLn1000 / (0.025 * kSr));
  double noiseEnv = p.noiseLevel;
  std::vector<float> out(static_cast<std::size_t>(frames));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double t = static_cast<double>(i) / kSr;
    const double x = (slow.next() + fast.next() + bend2.next() + bend3.next()) * contactRamp(t, p.contact);
    const double thump = thumpB.process(thumpA.process(noise.next())) * noiseEnv;
    noiseEnv *= noiseDecay;
    const double flux = pickup(x, p.drive, p.bias);
    out[i] = static_cast<float>((flux - lastFlux) + thump);
    lastFlux = flux;
  }
  normaliseAndFade(out, peakLevel, std::min<std::size_t>(out.size() / 5, kSampleRate / 4));
  return out;
}

std::vector<float> renderRelease(int key, std::int64_t frames, double peakLevel) {
  const double f0 = keyFrequency(key);
  Mode choked(f0, 1.0, 0.09);
  Mode chokedBend(f0 * kBendRatio2, 0.12, 0.03);
  Noise noise(seedFor(key, 0.0, 0, 0xda3b3e75ULL));
  OnePoleLowpass feltA(380.0), feltB(380.0);
  DcBlocker dc;
  const double feltDecay = std::exp(-kLn1000 / (0.07 * kSr));
  double feltEnv = 3.0;
  std::vector<float> out(static_cast<std::size_t>(frames));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double t = static_cast<double>(i) / kSr;
    const double ring = pickup((choked.next() + chokedBend.next()) * contactRamp(t, 0.004), 0.6, 0.45);
    const double felt = feltB.process(feltA.process(noise.next())) * feltEnv * contactRamp(t, 0.003);
    feltEnv *= feltDecay;
    out[i] = static_cast<float>(dc.process(ring + felt));
  }
  normaliseAndFade(out, peakLevel, out.size() / 4);
  return out;
}

}  // namespace spindle::instrument
