// The bus effects with memory, one processor at a time through BusEffectState (as a part's
// bus runs them): the delay's echoes land at their times with their levels, pans and
// feedback; the phaser's notch sits where its all-pass chain says and moves at
// phaser_freq; the reverb's decay time follows reverb_size.
#include <cmath>
#include <numbers>
#include <vector>

#include "catch.h"
#include "engine/effects/BusEffectState.h"

namespace bus_tail_effect_tests {

using namespace spindle;
using spindle::engine::BusEffectState;

namespace {

constexpr double kRate = 48000.0;

BusEffect make(BusEffectType type, std::initializer_list<std::pair<BusParam, float>> values) {
  BusEffect e;
  e.type = type;
  for (const auto& [param, value] : values) e.values[static_cast<size_t>(param)] = value;
  return e;
}

struct Run {
  std::vector<float> left, right;
};

// `left`/`right` through the effect in blocks of 256 frames, with `controllers`.
Run process(const BusEffect& effect, std::vector<float> left, std::vector<float> right,
            const engine::mod::ControllerState* controllers = nullptr) {
  auto state = std::make_unique<BusEffectState>();
  state->allocate(effect);
  state->start(effect, controllers, kRate);
  for (size_t at = 0; at < left.size(); at += 256) {
    const int n = static_cast<int>(std::min<size_t>(256, left.size() - at));
    state->process(effect, controllers, left.data() + at, right.data() + at, n);
  }
  return {left, right};
}

// Where four first-order all-pass stages breaking at `breakHz` turn the phase by 180
// degrees (each by 45): the bilinear transform's warping of breakHz * tan(pi/8).
double notchHz(double breakHz) {
  return kRate / std::numbers::pi * std::atan(std::tan(std::numbers::pi * breakHz / kRate) * std::tan(std::numbers::pi / 8.0));
}

std::vector<float> impulse(size_t frames) {
  std::vector<float> v(frames, 0.0f);
  v[0] = 1.0f;
  return v;
}

std::vector<float> sine(double hz, size_t frames) {
  std::vector<float> v(frames);
  for (size_t i = 0; i < frames; ++i) v[i] = static_cast<float>(std::sin(2.0 * std::numbers::pi * hz * static_cast<double>(i) / kRate));
  return v;
}

double rms(const std::vector<float>& v, size_t from, size_t to) {
  double sum = 0.0;
  for (size_t i = from; i < to; ++i) sum += static_cast<double>(v[i]) * static_cast<double>(v[i]);
  return std::sqrt(sum / static_cast<double>(to - from));
}

// The frames of the nonzero samples of v past frame 0, above `floor`.
std::vector<size_t> peaks(const std::vector<float>& v, float floor) {
  std::vector<size_t> at;
  for (size_t i = 1; i < v.size(); ++i)
    if (std::fabs(v[i]) > floor) at.push_back(i);
  return at;
}

}  // namespace

TEST_CASE("bus delay: an echo lands at delay_timel with delay_levell, repeats at delay_feedback", "[engine][effects][delay]") {
  const BusEffect e = make(BusEffectType::Delay, {{BusParam::DelayTimeL, 0.25f}, {BusParam::DelayLevelL, 50.0f},
                                                  {BusParam::DelayLevelR, 0.0f}, {BusParam::DelayFeedback, 50.0f}});
  const Run r = process(e, impulse(48000), std::vector<float>(48000, 0.0f));
  CHECK(r.left[0] == Approx(1.0f));  // dry 100 %
  const std::vector<size_t> at = peaks(r.left, 1e-4f);
  REQUIRE(at.size() == 3);
  CHECK(at[0] == 12000);  // 0.25 s at 48 kHz, to the frame
  CHECK(at[1] == 24000);
  CHECK(at[2] == 36000);
  CHECK(r.left[12000] == Approx(0.5f));    // level 50 %
  CHECK(r.left[24000] == Approx(0.25f));   // then x feedback 50 % per pass
  CHECK(r.left[36000] == Approx(0.125f));
  CHECK(peaks(r.right, 1e-6f).empty());    // delay_panl 0: hard left
}

TEST_CASE("bus delay: pan, centre tap, input, dry and wet", "[engine][effects][delay]") {
  const BusEffect e = make(BusEffectType::Delay,
                           {{BusParam::DelayTimeL, 0.0f}, {BusParam::DelayTimeR, 0.0f}, {BusParam::DelayTimeC, 0.1f},
                            {BusParam::DelayLevelC, 100.0f}, {BusParam::DelayPanC, 50.0f}, {BusParam::DelayInput, 50.0f},
                            {BusParam::DelayDry, 0.0f}, {BusParam::DelayWet, 80.0f}});
  const Run r = process(e, impulse(9600), impulse(9600));
  CHECK(r.left[0] == 0.0f);  // dry 0
  // Centre line: (1 + 1) / 2 x input 0.5, panned to the middle (equal power), x wet 0.8.
  const float expected = 0.5f * std::cos(std::numbers::pi_v<float> / 4.0f) * 0.8f;
  CHECK(r.left[4800] == Approx(expected));
  CHECK(r.right[4800] == Approx(expected));
  CHECK(peaks(r.left, 1e-6f) == std::vector<size_t>{4800});
}

TEST_CASE("bus delay: delay_timel_onccN moves the echo, delay_damphi dulls each repeat", "[engine][effects][delay]") {
  BusEffect e = make(BusEffectType::Delay, {{BusParam::DelayTimeL, 0.1f}, {BusParam::DelayLevelR, 0.0f}});
  e.controllers.push_back({BusParam::DelayTimeL, 20, 0.2f});
  engine::mod::ControllerState cc;
  cc.set(20, 0.5f);
  const Run moved = process(e, impulse(19200), std::vector<float>(19200, 0.0f), &cc);
  CHECK(peaks(moved.left, 1e-4f) == std::vector<size_t>{9600});  // 0.1 + 0.5 x 0.2 s
  const BusEffect damped = make(BusEffectType::Delay, {{BusParam::DelayTimeL, 0.01f}, {BusParam::DelayLevelR, 0.0f},
                                                       {BusParam::DelayFeedback, 90.0f}, {BusParam::DelayDampHi, 50.0f}});
  const Run r = process(damped, sine(12000.0, 4800), std::vector<float>(4800, 0.0f));
  const Run bright = process(make(BusEffectType::Delay, {{BusParam::DelayTimeL, 0.01f}, {BusParam::DelayLevelR, 0.0f},
                                                        {BusParam::DelayFeedback, 90.0f}}),
                             sine(12000.0, 4800), std::vector<float>(4800, 0.0f));
  CHECK(rms(r.left, 2400, 4800) < 0.5 * rms(bright.left, 2400, 4800));
}

TEST_CASE("bus phaser: the notch sits at 0.414 of the break frequency and moves at phaser_freq",
          "[engine][effects][phaser]") {
  // LFO at rest (0 Hz, triangle at phase 0 = 0): the break frequency is 1 kHz, so four
  // stages cancel the dry signal at ~414 Hz.
  const BusEffect still = make(BusEffectType::Phaser, {{BusParam::PhaserFreq, 0.0f}});
  const double notch = notchHz(1000.0);
  const Run atNotch = process(still, sine(notch, 24000), sine(notch, 24000));
  const Run away = process(still, sine(1000.0, 24000), sine(1000.0, 24000));  // 360 degrees: in phase
  CHECK(rms(atNotch.left, 12000, 24000) < 0.01);
  CHECK(rms(away.left, 12000, 24000) == Approx(std::sqrt(0.5)).epsilon(0.01));
  // At 2 Hz, depth 100: the break frequency reaches 4 kHz at the triangle's peak (phase
  // 0.25, t = 0.125 s) and every 0.5 s after, so a tone at 0.414 x 4 kHz dips then.
  const BusEffect moving = make(BusEffectType::Phaser, {{BusParam::PhaserFreq, 2.0f}, {BusParam::PhaserDepth, 100.0f}});
  const double high = notchHz(4000.0);
  const Run r = process(moving, sine(high, 96000), sine(high, 96000));
  const size_t window = 240;  // 5 ms
  const auto level = [&](double t) {
    const auto at = static_cast<size_t>(t * kRate) - window / 2;
    return rms(r.left, at, at + window);
  };
  for (double t : {0.125, 0.625, 1.125, 1.625}) {
    // The quietest 5 ms within 50 ms of the peak is at it, and deep; a quarter cycle
    // later the break frequency is 250 Hz and the tone passes.
    double quietest = 0.0, least = 1e9;
    for (double u = t - 0.05; u <= t + 0.05; u += 0.001) {
      if (level(u) < least) least = level(u), quietest = u;
    }
    INFO("dip near " << t << " s at " << quietest << " s, rms " << least << "; " << level(t + 0.25) << " later");
    CHECK(std::fabs(quietest - t) < 0.005);
    CHECK(least < 0.05);
    CHECK(level(t + 0.25) > 0.4);
  }
}

TEST_CASE("bus reverb: the decay time follows reverb_size", "[engine][effects][reverb]") {
  for (float size : {10.0f, 50.0f, 80.0f}) {
    // A low input (tone 30: 180 Hz), which the lines' damping leaves alone.
    const BusEffect e = make(BusEffectType::Reverb, {{BusParam::ReverbSize, size}, {BusParam::ReverbInput, 100.0f},
                                                     {BusParam::ReverbWet, 100.0f}, {BusParam::ReverbTone, 30.0f}});
    const double t = engine::Reverb::decaySeconds(engine::Reverb::decayPercent(0, static_cast<double>(size)));
    // The energy's fall between two windows well into the tail, as a T60.
    const auto a = static_cast<size_t>(0.3 * kRate), b = a + static_cast<size_t>(0.4 * t * kRate);
    const size_t w = 4800;
    const Run r = process(e, impulse(b + w), impulse(b + w));
    const double drop = 20.0 * std::log10(rms(r.left, a, a + w) / rms(r.left, b, b + w));
    const double t60 = 60.0 / drop * static_cast<double>(b - a) / kRate;
    INFO("size " << size << ": T60 " << t60 << " s, expected " << t);
    CHECK(t60 == Approx(t).epsilon(0.15));
  }
  // A large hall: 1.6 s at size 0, 4.8 s at 50, 14.4 s at 100; a small room far shorter.
  CHECK(engine::Reverb::decaySeconds(engine::Reverb::decayPercent(0, 0.0)) == Approx(1.6));
  CHECK(engine::Reverb::decaySeconds(engine::Reverb::decayPercent(0, 50.0)) == Approx(4.8));
  CHECK(engine::Reverb::decaySeconds(engine::Reverb::decayPercent(0, 100.0)) == Approx(14.4));
  CHECK(engine::Reverb::decaySeconds(engine::Reverb::decayPercent(5, 100.0)) < 0.25);
}

TEST_CASE("bus reverb: predelay, dry and input", "[engine][effects][reverb]") {
  const BusEffect e = make(BusEffectType::Reverb, {{BusParam::ReverbSize, 50.0f}, {BusParam::ReverbInput, 100.0f},
                                                   {BusParam::ReverbWet, 100.0f}, {BusParam::ReverbDry, 50.0f},
                                                   {BusParam::ReverbPredelay, 0.1f}});
  const Run r = process(e, impulse(12000), impulse(12000));
  CHECK(r.left[0] == Approx(0.5f));  // dry 50 %
  // Nothing reaches the output before the predelay and the shortest line (0.5 x 0.75 x 55 ms).
  const size_t first = peaks(r.left, 1e-9f).front();
  CHECK(first == 4800 + static_cast<size_t>(std::lround(2411 * 0.75 * kRate / 44100.0)));
  const Run none = process(make(BusEffectType::Reverb, {{BusParam::ReverbSize, 50.0f}, {BusParam::ReverbWet, 100.0f}}),
                           impulse(12000), impulse(12000));
  CHECK(peaks(none.left, 0.0f).empty());  // reverb_input 0: nothing enters
}

}  // namespace bus_tail_effect_tests
