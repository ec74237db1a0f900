#include "engine/dsp/Disto.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace spindle::engine::dsp {

namespace {

float sigmoid(float v) noexcept SPINDLE_REALTIME { return 1.0f / (1.0f + std::exp(-v)); }

}  // namespace

void Disto::setup(double sampleRate) noexcept SPINDLE_REALTIME {
  sampleRate_ = sampleRate;
  taps_ = halfBandTaps();
  const double rate = sampleRate * kOversampling;
  blendPole_ = static_cast<float>(std::exp(-1.0 / (0.01 * rate)));
  const double w = std::numbers::pi * 40.0 / rate;  // the DC blocker at 40 Hz
  dcGain_ = static_cast<float>(1.0 / (1.0 + w));
  dcPole_ = static_cast<float>((1.0 - w) / (1.0 + w));
  channels_ = {};
}

float Disto::toneCutoff(float tone) noexcept SPINDLE_REALTIME {
  const float note = 21.0f + 1.08f * std::clamp(tone, 0.0f, 100.0f);
  return 440.0f * std::exp2((note - 69.0f) / 12.0f);
}

float Disto::curve(float x, float depth, bool falling) noexcept SPINDLE_REALTIME {
  const float a = 2.0f + 0.2f * std::clamp(depth, 0.0f, 100.0f);
  return 2.0f * (sigmoid(a * x) - (falling ? 1.0f : 0.0f));
}

// One frame of the higher rate through the stages.
float Disto::runStages(Channel& c, float x, float depth, int stages) noexcept SPINDLE_REALTIME {
  for (int s = 0; s < stages; ++s) {
    Stage& st = c.stages[static_cast<size_t>(s)];
    if (x < st.previous && x < -0.25f) st.falling = 1.0f;
    if (x > st.previous && x > 0.25f) st.falling = 0.0f;
    st.previous = x;
    st.blend = blendPole_ * st.blend + (1.0f - blendPole_) * st.falling;
    const float rising = curve(x, depth, false);
    const float shaped = rising - 2.0f * st.blend;  // the falling curve is the rising one minus 2
    st.dcOut = dcGain_ * (shaped - st.dcIn) + dcPole_ * st.dcOut;
    st.dcIn = shaped;
    x = st.dcOut;
  }
  return x;
}

// One frame: up 4x, the stages, down again.
float Disto::distort(Channel& c, float x, float depth, int stages) noexcept SPINDLE_REALTIME {
  std::array<float, 2> half{};
  std::array<float, 4> quarter{};
  c.up1.process(taps_, x, half[0], half[1]);
  c.up2.process(taps_, half[0], quarter[0], quarter[1]);
  c.up2.process(taps_, half[1], quarter[2], quarter[3]);
  for (float& q : quarter) q = runStages(c, q, depth, stages);
  const float first = c.down2.process(taps_, quarter[0], quarter[1]);
  const float second = c.down2.process(taps_, quarter[2], quarter[3]);
  return c.down1.process(taps_, first, second);
}

void Disto::process(float* left, float* right, int frames, float tone, float depth, int stages, float dryFrom,
                    float dryTo, float wetFrom, float wetTo, StepRamp ramp) noexcept SPINDLE_REALTIME {
  const float pole = std::exp(-2.0f * std::numbers::pi_v<float> * toneCutoff(tone) / static_cast<float>(sampleRate_));
  const int n = std::clamp(stages, 1, kMaxStages);
  if (ramp.length <= 0) ramp = {0, std::max(frames, 1)};
  for (int i = 0; i < frames; ++i) {
    const float t = ramp.fraction(i);
    const float dry = std::clamp(dryFrom + (dryTo - dryFrom) * t, 0.0f, 1.0f);
    const float wet = std::clamp(wetFrom + (wetTo - wetFrom) * t, 0.0f, 1.0f);
    float* sides[2] = {left + i, right + i};
    for (size_t ch = 0; ch < 2; ++ch) {
      Channel& c = channels_[ch];
      const float x = *sides[ch];
      c.tone = x * dry * (1.0f - pole) + c.tone * pole;
      *sides[ch] = wet * distort(c, c.tone, depth, n) + (1.0f - wet) * x;
    }
  }
}

}  // namespace spindle::engine::dsp
