// Playback: sample-exact loops, loop modes, offset/end/count/delay, sample-accurate
// onsets, envelope stage times, and the gain laws.
#include <cmath>

#include "EngineTestSupport.h"
#include "catch.h"

namespace playback_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

engine::EngineConfig linear() {
  engine::EngineConfig c;
  c.quality = engine::Quality::Linear;
  return c;
}

}  // namespace

TEST_CASE("loop points are sample-exact across many cycles (loop_end inclusive)", "[engine][loop]") {
  TestProgram tp;
  const int s = tp.addSample(std::make_unique<TestSample>(ramp(1000)));
  Region& r = tp.addRegion(s);
  r.loopMode = LoopMode::LoopContinuous;
  r.loopModeSet = true;
  r.loopStart = 100;
  r.loopEnd = 199;
  r.offset = 50;
  const int block = GENERATE(256, 37);
  Renderer out(linear(), block);
  out.setProgram(tp.prepare());
  out.run({cc(0, 7, 127), noteOn(0, 60)}, 1200);
  for (int n = 0; n < 1200; ++n) {
    const int u = 50 + n;
    const int expected = u <= 199 ? u : 100 + (u - 100) % 100;
    if (out.left[static_cast<size_t>(n)] != static_cast<float>(expected)) {
      FAIL("frame " << n << ": " << out.left[static_cast<size_t>(n)] << " != " << expected);
    }
  }
}

TEST_CASE("the file's smpl loop plays by default; Hermite and sinc hit integer frames exactly", "[engine][loop]") {
  TestProgram tp;
  auto sample = std::make_unique<TestSample>(ramp(500));
  sample->data.loopStart = 10;
  sample->data.loopEnd = 29;
  const int s = tp.addSample(std::move(sample));
  tp.addRegion(s);
  const auto q = GENERATE(engine::Quality::Hermite, engine::Quality::Sinc, engine::Quality::SincHigh);
  engine::EngineConfig c;
  c.quality = q;
  Renderer out(c);
  out.setProgram(tp.prepare());
  out.run({cc(0, 7, 127), noteOn(0, 60)}, 300);
  for (int n = 40; n < 300; n += 7) {
    CHECK(out.left[static_cast<size_t>(n)] == Approx(static_cast<float>(10 + (n - 10) % 20)).margin(1e-3));
  }
}

TEST_CASE("one_shot ignores note-off; no_loop stops at the end; count repeats", "[engine][loop]") {
  TestProgram tp;
  const int s = tp.addSample(std::make_unique<TestSample>(constant(0.5f, 2000)));
  Region& r = tp.addRegion(s);
  r.loopMode = LoopMode::OneShot;
  r.loopModeSet = true;
  Renderer out(linear());
  out.setProgram(tp.prepare());
  out.run({cc(0, 7, 127), noteOn(0, 60), noteOff(100, 60)}, 3000);
  CHECK(out.left[1999] == 0.5f);
  CHECK(out.left[2000] == 0.0f);
  CHECK(out.engine.stats().activeVoices == 0);

  tp.program->regions[0].count = 3;
  tp.program->regions[0].end = 999;  // 1000 frames, three times
  Renderer rep(linear());
  rep.setProgram(tp.prepare());
  rep.run({cc(0, 7, 127), noteOn(0, 60)}, 4000);
  CHECK(rep.left[2999] == 0.5f);
  CHECK(rep.left[3000] == 0.0f);
}

TEST_CASE("loop_sustain loops while held and leaves the loop on release", "[engine][loop]") {
  TestProgram tp;
  const int s = tp.addSample(std::make_unique<TestSample>(ramp(1000)));
  Region& r = tp.addRegion(s);
  r.loopMode = LoopMode::LoopSustain;
  r.loopModeSet = true;
  r.loopStart = 100;
  r.loopEnd = 199;
  r.ampeg.release = 10.0f;  // long, so the level stays near 1 right after note-off
  Renderer out(linear());
  out.setProgram(tp.prepare());
  out.run({cc(0, 7, 127), noteOn(0, 60), noteOff(450, 60)}, 700);
  CHECK(out.left[449] == 149.0f);  // frame 449 -> 100 + 349 % 100
  // After the release the cycle in progress runs on past 199: 200, 201, ...
  for (int n = 500; n < 700; n += 10) {
    const float ratio = out.left[static_cast<size_t>(n)] / static_cast<float>(n - 300);
    CHECK(ratio > 0.95f);
    CHECK(ratio <= 1.0f);
  }
}

TEST_CASE("offset, end and delay", "[engine][loop]") {
  TestProgram tp;
  const int s = tp.addSample(std::make_unique<TestSample>(ramp(1000)));
  Region& r = tp.addRegion(s);
  r.offset = 10;
  r.end = 109;
  r.delay = 0.001f;  // 48 frames
  Renderer out(linear());
  out.setProgram(tp.prepare());
  out.run({cc(0, 7, 127), noteOn(1000, 60)}, 1400);
  CHECK(out.left[1047] == 0.0f);
  CHECK(out.left[1048] == 10.0f);
  CHECK(out.left[1048 + 99] == 109.0f);
  CHECK(out.left[1048 + 100] == 0.0f);
}

TEST_CASE("every note starts at exactly its event frame", "[engine][timing]") {
  TestProgram tp;
  const int s = tp.addSample(std::make_unique<TestSample>(constant(0.25f, 8)));
  tp.addRegion(s).pitchKeytrack = 0.0f;
  const int block = GENERATE(256, 64, 100);
  engine::EngineConfig c;
  c.maxBlockFrames = 256;
  Renderer out(c, block);
  out.setProgram(tp.prepare());
  std::vector<TimedEvent> events{cc(0, 7, 127)};
  // Offsets per 256-frame block, incl. 0 and 255; notes at least 9 frames apart.
  const std::vector<std::vector<int64_t>> offsets{{0, 17, 100, 128}, {40, 128, 255}, {20, 120, 239},
                                                  {0, 90, 200}, {1, 64, 255}, {30, 150}};
  std::vector<int64_t> onsets;
  for (size_t b = 0; b < offsets.size(); ++b) {
    for (int64_t o : offsets[b]) onsets.push_back(static_cast<int64_t>(b) * 256 + o);
  }
  for (int64_t f : onsets) events.push_back(noteOn(f, 40 + static_cast<int>(f % 60)));
  out.run(events, 6 * 256 + 64);
  for (int64_t f : onsets) {
    CAPTURE(f, block);
    if (f > 0) CHECK(out.left[static_cast<size_t>(f - 1)] == 0.0f);
    CHECK(out.left[static_cast<size_t>(f)] == 0.25f);
  }
}

TEST_CASE("envelope stage times are seen in the output within 1 ms", "[engine][timing]") {
  TestProgram tp;
  const int s = tp.addSample(std::make_unique<TestSample>(constant(1.0f, 96000)));
  Region& r = tp.addRegion(s);
  r.ampeg.attack = 0.010f;
  r.ampeg.hold = 0.005f;
  r.ampeg.decay = 0.020f;
  r.ampeg.sustain = 50.0f;
  r.ampeg.release = 0.030f;
  Renderer out;
  out.setProgram(tp.prepare());
  out.run({cc(0, 7, 127), noteOn(0, 60), noteOff(10000, 60)}, 20000);
  const auto firstFrame = [&](size_t from, auto pred) {
    for (size_t i = from; i < out.left.size(); ++i) {
      if (pred(out.left[i])) return static_cast<double>(i);
    }
    return -1.0;
  };
  const double ms = 48.0;
  // ARIA's decay (ampeg_decay_zero=1, shape -10.3616) is timed from 1 down to 0 and stops
  // at sustain: its -90 dB curve passes 50 % after 6.69 % of the 960 frames.
  const double shape = -10.3616, half = 1.0 - std::log1p(0.5 * std::expm1(-shape)) / -shape;
  CHECK(half == Approx(0.0669).margin(1e-4));
  CHECK(firstFrame(0, [](float v) { return v >= 0.999f; }) == Approx(480).margin(ms));               // attack
  CHECK(firstFrame(500, [](float v) { return v < 0.999f; }) == Approx(480 + 240).margin(ms));        // hold
  CHECK(firstFrame(721, [](float v) { return v <= 0.5f; }) == Approx(480 + 240 + half * 960).margin(ms / 4));  // decay
  CHECK(firstFrame(10000, [](float v) { return v == 0.0f; }) == Approx(10000 + 1440).margin(ms));    // release
}

TEST_CASE("gain: volume, amplitude, velocity curve, keytrack, pan, CC7/CC10/CC11, part commands", "[engine][gain]") {
  TestProgram tp;
  const int s = tp.addSample(std::make_unique<TestSample>(constant(0.5f, 96000)));
  Region& r = tp.addRegion(s);
  r.volume = -6.0f;
  r.amplitude = 50.0f;
  r.ampVeltrack = 100.0f;
  const auto level = [&](std::vector<TimedEvent> ev, bool right = false) {
    Renderer out;
    out.setProgram(tp.prepare());
    out.run(ev, 600);
    return right ? out.right[500] : out.left[500];
  };
  const float base = 0.5f * dbToGain(-6.0f) * 0.5f;
  CHECK(level({cc(0, 7, 127), noteOn(0, 60, 127)}) == Approx(base));
  CHECK(level({cc(0, 7, 127), noteOn(0, 60, 64)}) == Approx(base * (64.0f / 127.0f) * (64.0f / 127.0f)));
  CHECK(level({noteOn(0, 60, 127)}) == Approx(base * (100.0f / 127.0f) * (100.0f / 127.0f)));  // CC7 default 100
  CHECK(level({cc(0, 7, 127), cc(0, 11, 64), noteOn(0, 60, 127)}) == Approx(base * (64.0f / 127.0f) * (64.0f / 127.0f)));
  CHECK(level({cc(0, 7, 127), cc(0, 10, 0), noteOn(0, 60, 127)}) == Approx(base * std::sqrt(2.0f)));
  CHECK(level({cc(0, 7, 127), cc(0, 10, 0), noteOn(0, 60, 127)}, true) == Approx(0.0f).margin(1e-6));

  tp.program->regions[0].hasAmpVelcurve = true;
  for (int v = 0; v < 128; ++v) tp.program->regions[0].ampVelcurve[static_cast<size_t>(v)] = v >= 100 ? 1.0f : 0.25f;
  CHECK(level({cc(0, 7, 127), noteOn(0, 60, 90)}) == Approx(base * 0.25f));
  tp.program->regions[0].hasAmpVelcurve = false;
  tp.program->regions[0].ampVeltrack = 0.0f;
  tp.program->regions[0].ampKeytrack = 1.0f;  // +1 dB per key above 60
  CHECK(level({cc(0, 7, 127), noteOn(0, 66, 127)}) == Approx(base * dbToGain(6.0f)));
  tp.program->regions[0].ampKeytrack = 0.0f;
  tp.program->regions[0].xfinLokey = 60;
  tp.program->regions[0].xfinHikey = 72;
  CHECK(level({cc(0, 7, 127), noteOn(0, 66, 127)}) == Approx(base * std::sqrt(0.5f)));
  tp.program->regions[0].xfKeycurve = CrossfadeCurve::Gain;
  CHECK(level({cc(0, 7, 127), noteOn(0, 66, 127)}) == Approx(base * 0.5f));

  Renderer out;
  out.setProgram(tp.prepare());
  engine::Command c;
  c.type = engine::CommandType::SetPartVolume;
  c.value = -6.0f;
  out.post(c);
  out.run({cc(0, 7, 127), noteOn(0, 72, 127)}, 600);
  CHECK(out.left[500] == Approx(base * dbToGain(-6.0f)));
  c.type = engine::CommandType::SetPartMute;
  c.flag = true;
  out.post(c);
  out.run({}, 600);
  CHECK(out.left[1100] == 0.0f);
}

TEST_CASE("a cutoff filters the sound; fil_keytrack moves it", "[engine][filter]") {
  std::vector<float> noise(48000);
  engine::Prng rng(3);
  for (float& x : noise) x = 0.5f * rng.bipolar();
  TestProgram tp;
  const int s = tp.addSample(std::make_unique<TestSample>(noise));
  tp.addRegion(s);
  const auto rms = [&](int key) {
    Renderer out;
    out.setProgram(tp.prepare());
    out.run({cc(0, 7, 127), noteOn(0, key)}, 24000);
    double sum = 0.0;
    for (size_t i = 1000; i < 24000; ++i) sum += static_cast<double>(out.left[i]) * static_cast<double>(out.left[i]);
    return std::sqrt(sum / 23000.0);
  };
  tp.program->regions[0].pitchKeytrack = 0.0f;
  const double open = rms(60);
  tp.program->regions[0].cutoff = 1000.0f;
  const double filtered = rms(60);
  tp.program->regions[0].filKeytrack = 100.0f;  // +1 octave at key 72
  const double tracked = rms(72);
  CHECK(filtered < open * 0.35);   // white noise through a 1 kHz low-pass: ~sqrt(1/24)
  CHECK(tracked > filtered * 1.25);  // twice the bandwidth: ~sqrt(2)
}

}  // namespace playback_tests
