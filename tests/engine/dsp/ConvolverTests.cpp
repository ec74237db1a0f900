// dsp::Convolver against a direct convolution in double: an impulse gives back the
// response, white noise matches within -100 dB, at fixed and varying block lengths.
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "catch.h"
#include "engine/dsp/Convolver.h"

namespace convolver_tests {

using spindle::engine::dsp::ConvolutionKernel;
using spindle::engine::dsp::Convolver;

namespace {

std::vector<float> decayingNoise(int frames, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> out(static_cast<size_t>(frames));
  for (int i = 0; i < frames; ++i) out[static_cast<size_t>(i)] = uniform(rng) * std::exp(-3.0f * static_cast<float>(i) / static_cast<float>(frames));
  return out;
}

std::vector<double> direct(const std::vector<float>& x, const std::vector<float>& h) {
  std::vector<double> y(x.size(), 0.0);
  for (size_t n = 0; n < x.size(); ++n)
    for (size_t k = 0; k < h.size() && k <= n; ++k) y[n] += static_cast<double>(h[k]) * static_cast<double>(x[n - k]);
  return y;
}

// direct() of the 30000-frame noise from seed `input` and the 9000-frame response from
// seed `response`, computed once per pair (270 million products: the slow part) and
// shared by the block lengths.
const std::vector<double>& directNoise(unsigned input, unsigned response) {
  static std::map<std::pair<unsigned, unsigned>, std::vector<double>> done;
  auto [at, inserted] = done.try_emplace({input, response});
  if (inserted) at->second = direct(decayingNoise(30000, input), decayingNoise(9000, response));
  return at->second;
}

// Runs the convolver over the inputs in blocks of `block` frames (0: varying lengths
// 1..8192 from a fixed seed), the output written over the input.
void run(Convolver& c, std::vector<float>& left, std::vector<float>& right, int block) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> small(1, 700), large(1, 8192);
  for (size_t at = 0; at < left.size();) {
    int n = block > 0 ? block : (rng() % 4 == 0 ? large(rng) : small(rng));
    n = static_cast<int>(std::min<size_t>(static_cast<size_t>(n), left.size() - at));
    c.process(left.data() + at, right.data() + at, left.data() + at, right.data() + at, n);
    at += static_cast<size_t>(n);
  }
}

// Error energy over the reference's energy, in dB.
double errorDb(const std::vector<float>& got, const std::vector<double>& want) {
  double error = 0.0, energy = 0.0;
  for (size_t i = 0; i < want.size(); ++i) {
    error += (static_cast<double>(got[i]) - want[i]) * (static_cast<double>(got[i]) - want[i]);
    energy += want[i] * want[i];
  }
  return 10.0 * std::log10(error / energy);
}

}  // namespace

TEST_CASE("Convolver: an impulse gives back the response, every channel its own", "[dsp][convolver]") {
  const int block = GENERATE(1, 64, 256, 1000, 0);
  const int length = GENERATE(100, 256, 3000);
  const std::vector<float> irL = decayingNoise(length, 1), irR = decayingNoise(length, 2);
  Convolver c;
  c.allocate(std::make_shared<const ConvolutionKernel>(irL, irR));
  CHECK(c.kernel()->partitions() == (std::max(length - 256, 0) + 255) / 256);
  std::vector<float> left(static_cast<size_t>(length + 900), 0.0f), right = left;
  left[37] = 1.0f;   // the left impulse at frame 37
  right[500] = 0.5f; // the right one at 500, half as loud
  run(c, left, right, block);
  double worst = 0.0;
  for (int i = 0; i < length; ++i) {
    worst = std::max(worst, std::fabs(static_cast<double>(left[static_cast<size_t>(37 + i)] - irL[static_cast<size_t>(i)])));
    worst = std::max(worst, std::fabs(static_cast<double>(right[static_cast<size_t>(500 + i)] - 0.5f * irR[static_cast<size_t>(i)])));
  }
  CHECK(worst < 1e-6);
  for (int i = 0; i < 37; ++i) CHECK(left[static_cast<size_t>(i)] == 0.0f);  // no latency, nothing early
  CHECK(std::fabs(left[static_cast<size_t>(37 + length)]) < 1e-6f);
}

TEST_CASE("Convolver: white noise matches a direct convolution within -100 dB", "[dsp][convolver]") {
  const int block = GENERATE(1, 64, 256, 1000, 0);
  const bool stereo = GENERATE(false, true);
  const std::vector<float> irL = decayingNoise(9000, 3), irR = decayingNoise(9000, 4);
  std::vector<float> left = decayingNoise(30000, 5), right = decayingNoise(30000, 6);
  const std::vector<double>& wantL = directNoise(5, 3);
  const std::vector<double>& wantR = directNoise(6, stereo ? 4 : 3);
  Convolver c;
  c.allocate(std::make_shared<const ConvolutionKernel>(irL, stereo ? std::span<const float>(irR) : std::span<const float>()));
  run(c, left, right, block);
  const double dbL = errorDb(left, wantL), dbR = errorDb(right, wantR);
  INFO("block " << block << ": left " << dbL << " dB, right " << dbR << " dB");
  CHECK(dbL < -100.0);
  CHECK(dbR < -100.0);
}

TEST_CASE("Convolver: reset clears the history, so a second run repeats the first", "[dsp][convolver]") {
  const std::vector<float> ir = decayingNoise(2000, 8);
  Convolver c;
  c.allocate(std::make_shared<const ConvolutionKernel>(ir, std::span<const float>()));
  const std::vector<float> input = decayingNoise(5000, 9);
  std::vector<float> a = input, b = input, a2 = input, b2 = input;
  run(c, a, b, 300);
  c.reset();
  run(c, a2, b2, 77);
  CHECK(a == a2);
  CHECK(b == b2);
}

}  // namespace convolver_tests
