// spindle-bench-convolution: the convolution bus effect's CPU time per period, against
// the SFZ bus reverb (fverb) on the same input, both run as the engine runs a bus
// effect (BusEffectState: 32-frame control steps).
//
//   spindle-bench-convolution [--periods N] [--seconds S] [--period FRAMES]
//
// A stereo response of S seconds (3 by default) of decaying noise at 48 kHz; white
// noise in; N periods (4000 by default) of FRAMES (256). Each period is timed on the
// thread's CPU clock. Prints one JSON object: for each effect the mean, p99 and worst
// microseconds per period and the mean and p99 as a fraction of the period's duration,
// and the convolution's mean and p99 over the reverb's.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <random>
#include <vector>

#include "core/BusEffects.h"
#include "engine/effects/BusEffectState.h"

using namespace spindle;

namespace {

constexpr double kRate = 48000.0;

struct Options {
  int periods = 4000, period = 256;
  double seconds = 3.0;
};

struct Figures {
  double mean = 0.0, p99 = 0.0, worst = 0.0;  // microseconds per period
};

double cpuMicroseconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) / 1e3;
}

BusEffect convolution(double seconds) {
  auto ir = std::make_shared<ImpulseResponse>();
  ir->sampleRate = kRate;
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> noise(-1.0f, 1.0f);
  const auto frames = static_cast<int>(seconds * kRate);
  for (int i = 0; i < frames; ++i) {
    const float gain = std::pow(10.0f, -3.0f * static_cast<float>(i) / static_cast<float>(frames));
    ir->left.push_back(gain * noise(rng));
    ir->right.push_back(gain * noise(rng));
  }
  BusEffect e;
  e.type = BusEffectType::Convolution;
  e.impulse.frames = ir;
  return e;
}

BusEffect reverb() {
  BusEffect e;
  e.type = BusEffectType::Reverb;
  e.values[static_cast<size_t>(BusParam::ReverbInput)] = 100.0f;
  e.values[static_cast<size_t>(BusParam::ReverbDry)] = 100.0f;
  e.values[static_cast<size_t>(BusParam::ReverbWet)] = 50.0f;
  e.values[static_cast<size_t>(BusParam::ReverbSize)] = 50.0f;
  return e;
}

Figures run(const BusEffect& effect, const Options& o) {
  auto state = std::make_unique<engine::BusEffectState>();
  state->allocate(effect);
  state->start(effect, nullptr, kRate);
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> noise(-0.5f, 0.5f);
  std::vector<float> left(static_cast<size_t>(o.period)), right(left.size());
  std::vector<double> times;
  for (int p = 0; p < o.periods; ++p) {
    for (size_t i = 0; i < left.size(); ++i) left[i] = noise(rng), right[i] = noise(rng);
    const double start = cpuMicroseconds();
    state->process(effect, nullptr, left.data(), right.data(), o.period);
    times.push_back(cpuMicroseconds() - start);
  }
  Figures f;
  for (double t : times) f.mean += t / static_cast<double>(times.size());
  std::sort(times.begin(), times.end());
  f.p99 = times[static_cast<size_t>(0.99 * static_cast<double>(times.size() - 1))];
  f.worst = times.back();
  return f;
}

void print(const char* name, const Figures& f, double periodUs) {
  std::printf("  \"%s\": {\"mean_us\": %.2f, \"p99_us\": %.2f, \"worst_us\": %.2f, \"mean_fraction\": %.5f, "
              "\"p99_fraction\": %.5f},\n",
              name, f.mean, f.p99, f.worst, f.mean / periodUs, f.p99 / periodUs);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--periods") == 0) o.periods = std::max(1, std::atoi(argv[i + 1]));
    else if (std::strcmp(argv[i], "--seconds") == 0) o.seconds = std::max(0.01, std::atof(argv[i + 1]));
    else if (std::strcmp(argv[i], "--period") == 0) o.period = std::clamp(std::atoi(argv[i + 1]), 1, 8192);
    else {
      std::fprintf(stderr, "usage: spindle-bench-convolution [--periods N] [--seconds S] [--period FRAMES]\n");
      return 2;
    }
  }
  const Figures conv = run(convolution(o.seconds), o), verb = run(reverb(), o);
  const double periodUs = 1e6 * o.period / kRate;
  std::printf("{\n  \"response_seconds\": %.3f, \"period_frames\": %d, \"periods\": %d, \"period_us\": %.2f,\n",
              o.seconds, o.period, o.periods, periodUs);
  print("convolution", conv, periodUs);
  print("bus_reverb", verb, periodUs);
  std::printf("  \"mean_ratio\": %.3f, \"p99_ratio\": %.3f\n}\n", conv.mean / verb.mean, conv.p99 / verb.p99);
  return 0;
}
