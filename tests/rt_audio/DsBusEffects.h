#pragma once
// DecentSampler's bus effects for the audio-thread safety tests: the chorus, phaser,
// wave folder and wave shaper on several buses, moved by controller curves (CCs the
// tests sweep, 20..33) and by part-wide LFOs of every wave and behaviour, one of them
// on a delay's time.
#include <cstddef>
#include <vector>

#include "core/BusEffects.h"

namespace spindle::test {

inline std::vector<float> rampCurve(float from, float to) {
  std::vector<float> points(kBusCurvePoints);
  for (size_t i = 0; i < points.size(); ++i)
    points[i] = from + (to - from) * static_cast<float>(i) / static_cast<float>(kBusCurvePoints - 1);
  return points;
}

inline BusEffect dsEffect(BusEffectType type, int bus, BusParam param, float value, int cc, float to) {
  BusEffect e;
  e.type = type;
  e.bus = static_cast<uint8_t>(bus);
  e.values[static_cast<size_t>(param)] = value;
  e.curves.push_back({param, static_cast<uint16_t>(cc), rampCurve(0.0f, to)});
  return e;
}

inline void addDecentSamplerEffects(BusLayout& layout, int variant) {
  using B = BusParamLfo::Behavior;
  BusEffect chorus = dsEffect(BusEffectType::Chorus, variant ? 1 : 0, BusParam::ModDepth, 0.2f, 20, 0.8f);
  chorus.lfos.push_back({BusParam::ModRate, 0, B::Set, 0.5f, 0.0f, rampCurve(0.1f, 8.0f)});
  layout.effects.push_back(chorus);
  BusEffect phaser = dsEffect(BusEffectType::ModPhaser, variant ? 2 : 3, BusParam::CentreFreq, 400.0f, 21, 3000.0f);
  phaser.values[static_cast<size_t>(BusParam::ModFeedback)] = -0.7f;
  phaser.lfos.push_back({BusParam::Mix, 1, B::Multiply, 3.0f, 0.01f, rampCurve(0.5f, 1.0f)});
  layout.effects.push_back(phaser);
  BusEffect folder = dsEffect(BusEffectType::WaveFolder, 4, BusParam::Drive, 1.0f, 22, 20.0f);
  folder.lfos.push_back({BusParam::Threshold, 2, B::Add, 7.0f, 0.0f, rampCurve(0.0f, 0.5f)});
  layout.effects.push_back(folder);
  layout.effects.push_back(dsEffect(BusEffectType::WaveShaper, variant ? 0 : 1, BusParam::Drive, 2.0f, 23, 100.0f));
  BusEffect delay = dsEffect(BusEffectType::Delay, 2, BusParam::DelayTimeL, 0.05f, 24, 0.2f);
  delay.lfos.push_back({BusParam::DelayTimeR, 0, B::Set, 1.5f, 0.0f, rampCurve(0.01f, 0.3f)});
  layout.effects.push_back(delay);
  BusEffect filter = dsEffect(BusEffectType::Filter, 0, BusParam::FilterCutoff, 500.0f, 25, 6000.0f);
  filter.lfos.push_back({BusParam::FilterCutoff, 0, B::Set, 2.0f, 0.0f, rampCurve(300.0f, 6000.0f)});
  layout.effects.push_back(filter);
}

}  // namespace spindle::test
