// Pitch: keytracking, transpose/tune, the file's own sample rate, pitch bend.
// Frequencies are measured from zero crossings over 0.5 s; tolerance 1 cent.
#include "EngineTestSupport.h"
#include "catch.h"

namespace pitch_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr double kRate = 48000.0;

double playAndMeasure(TestProgram& tp, int key, engine::Quality q, std::vector<TimedEvent> extra = {}) {
  engine::EngineConfig config;
  config.quality = q;
  Renderer r(config);
  r.setProgram(tp.prepare());
  extra.push_back(noteOn(0, key));
  r.run(extra, 30000);
  return measureHz(r.left, 2000, 26000, kRate);
}

}  // namespace

TEST_CASE("keytracked and transposed notes are in tune within 1 cent", "[engine][pitch]") {
  TestProgram tp;
  const int s = tp.addSample(std::make_unique<TestSample>(sine(440.0, kRate, 96000)));
  Region& r = tp.addRegion(s);
  r.pitchKeycenter = 69;

  const auto q = GENERATE(engine::Quality::Linear, engine::Quality::Hermite, engine::Quality::Sinc,
                          engine::Quality::SincHigh);
  CAPTURE(static_cast<int>(q));
  CHECK(std::fabs(centsBetween(playAndMeasure(tp, 69, q), 440.0)) < 1.0);
  CHECK(std::fabs(centsBetween(playAndMeasure(tp, 81, q), 880.0)) < 1.0);
  CHECK(std::fabs(centsBetween(playAndMeasure(tp, 64, q), 440.0 * std::exp2(-5.0 / 12.0))) < 1.0);
  CHECK(std::fabs(centsBetween(playAndMeasure(tp, 57, q), 220.0)) < 1.0);
}

TEST_CASE("transpose, tune and pitch_keytrack", "[engine][pitch]") {
  TestProgram tp;
  const int s = tp.addSample(std::make_unique<TestSample>(sine(440.0, kRate, 96000)));
  Region& r = tp.addRegion(s);
  r.pitchKeycenter = 69;
  r.transpose = 2;
  r.tune = -50.0f;
  r.pitchKeytrack = 50.0f;
  // key 73: 4 keys * 50 cents + 200 - 50 = 350 cents
  CHECK(std::fabs(centsBetween(playAndMeasure(tp, 73, engine::Quality::Hermite), 440.0 * std::exp2(350.0 / 1200.0))) < 1.0);
}

TEST_CASE("the file's own sample rate is honoured", "[engine][pitch]") {
  TestProgram tp;
  const int s = tp.addSample(std::make_unique<TestSample>(sine(440.0, 44100.0, 88200), std::vector<float>{}, 44100.0));
  tp.addRegion(s).pitchKeycenter = 69;
  CHECK(std::fabs(centsBetween(playAndMeasure(tp, 69, engine::Quality::Hermite), 440.0)) < 1.0);
  CHECK(std::fabs(centsBetween(playAndMeasure(tp, 76, engine::Quality::Sinc), 440.0 * std::exp2(7.0 / 12.0))) < 1.0);
}

TEST_CASE("pitch bend follows bend_up, bend_down and bend_step", "[engine][pitch]") {
  TestProgram tp;
  const int s = tp.addSample(std::make_unique<TestSample>(sine(440.0, kRate, 96000)));
  Region& r = tp.addRegion(s);
  r.pitchKeycenter = 69;
  r.bendUp = 200.0f;
  r.bendDown = -1200.0f;
  CHECK(std::fabs(centsBetween(playAndMeasure(tp, 69, engine::Quality::Hermite, {bend(0, 8191)}), 440.0 * std::exp2(2.0 / 12.0))) < 1.0);
  CHECK(std::fabs(centsBetween(playAndMeasure(tp, 69, engine::Quality::Hermite, {bend(0, -8192)}), 220.0)) < 1.0);
  CHECK(std::fabs(centsBetween(playAndMeasure(tp, 69, engine::Quality::Hermite, {bend(0, 4096)}), 440.0 * std::exp2(100.0 / 1200.0))) < 1.0);
  tp.program->regions[0].bendStep = 100;  // quantised to semitones: 4096 -> ~100.01 cents -> 100
  CHECK(std::fabs(centsBetween(playAndMeasure(tp, 69, engine::Quality::Hermite, {bend(0, 3000)}), 440.0 * std::exp2(100.0 / 1200.0))) < 1.0);

  // A bend arriving while the note plays retunes it from that frame on.
  engine::EngineConfig config;
  Renderer rr(config);
  rr.setProgram(tp.prepare());
  rr.run({noteOn(0, 69), bend(24000, -8192)}, 48000);
  CHECK(std::fabs(centsBetween(measureHz(rr.left, 1000, 23000, kRate), 440.0)) < 1.0);
  CHECK(std::fabs(centsBetween(measureHz(rr.left, 25000, 47000, kRate), 220.0)) < 1.0);
}

}  // namespace pitch_tests
