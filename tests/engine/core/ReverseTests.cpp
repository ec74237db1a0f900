// direction=reverse and reverse_loccN/hiccN in the engine. The loader hands the engine
// a reversed copy of the file (frame i = file frame total-1-i, sample table entry of its
// own); the engine plays it forward like any sample, and offset, end and loop points
// count in its reversed frames. Linear interpolation at pitch ratio 1 and CC7 = 127 make
// the output the sample's frames exactly.
#include "EngineTestSupport.h"
#include "catch.h"

namespace reverse_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr int kFrames = 1000;

// Frame i holds i + 1: no frame is silent, so a render shows where playback stops.
std::vector<float> rampFromOne() {
  std::vector<float> v = ramp(kFrames);
  for (float& x : v) x += 1.0f;
  return v;
}

std::vector<float> reversed(std::vector<float> v) {
  std::reverse(v.begin(), v.end());
  return v;
}

engine::EngineConfig linear() {
  engine::EngineConfig c;
  c.quality = engine::Quality::Linear;
  return c;
}

// The file frame (0-based) whose value out[n] holds: value - 1.
int fileFrame(const Renderer& out, int64_t n) { return static_cast<int>(out.left[static_cast<size_t>(n)]) - 1; }

struct Ramps {
  TestProgram tp;
  int forward = tp.addSample(std::make_unique<TestSample>(rampFromOne()));
  int backward = tp.addSample(std::make_unique<TestSample>(reversed(rampFromOne())));
};

}  // namespace

TEST_CASE("direction=reverse plays the last frame first and the first frame last, from the voice's start frame",
          "[engine][v2][reverse]") {
  Ramps ramps;
  Region& r = ramps.tp.addRegion(ramps.backward);
  r.reverse = true;
  const int block = GENERATE(256, 37);
  Renderer out(linear(), block);
  out.setProgram(ramps.tp.prepare());
  constexpr int64_t kStart = 300;
  out.run({cc(0, 7, 127), noteOn(kStart, 60)}, kStart + kFrames + 200);
  CHECK(out.left[kStart - 1] == 0.0f);
  CHECK(fileFrame(out, kStart) == kFrames - 1);
  CHECK(fileFrame(out, kStart + 1) == kFrames - 2);
  CHECK(fileFrame(out, kStart + kFrames - 1) == 0);
  CHECK(out.left[kStart + kFrames] == 0.0f);  // and then it ends: the whole sample, once
  int wrong = 0;
  for (int k = 0; k < kFrames; ++k) wrong += fileFrame(out, kStart + k) != kFrames - 1 - k;
  CHECK(wrong == 0);
}

TEST_CASE("a reversed region's offset, end and loop points count from the file's last frame",
          "[engine][v2][reverse]") {
  Ramps ramps;
  Region& cut = ramps.tp.addRegion(ramps.backward, 60, 60);
  cut.reverse = true;
  cut.offset = 100;  // reversed frame 100 = file frame 899
  cut.end = 799;     // reversed frame 799 = file frame 200
  Region& looped = ramps.tp.addRegion(ramps.backward, 61, 61);
  looped.reverse = true;
  looped.pitchKeycenter = 61;
  looped.loopMode = LoopMode::LoopContinuous;
  looped.loopModeSet = true;
  looped.loopStart = 200;  // file frames 799 down to 600, over and over
  looped.loopEnd = 399;
  Renderer out(linear());
  out.setProgram(ramps.tp.prepare());
  out.run({cc(0, 7, 127), noteOn(0, 60)}, 1000);
  CHECK(fileFrame(out, 0) == 899);
  CHECK(fileFrame(out, 699) == 200);
  CHECK(out.left[700] == 0.0f);

  Renderer loop(linear());
  loop.setProgram(ramps.tp.prepare());
  loop.run({cc(0, 7, 127), noteOn(0, 61)}, 1000);
  CHECK(fileFrame(loop, 0) == 999);
  CHECK(fileFrame(loop, 399) == 600);
  CHECK(fileFrame(loop, 400) == 799);
  CHECK(fileFrame(loop, 599) == 600);
  CHECK(fileFrame(loop, 600) == 799);
}

TEST_CASE("reverse_loccN/hiccN pick the reversed sample at note-on while the controller is in range",
          "[engine][v2][reverse]") {
  Ramps ramps;
  Region& r = ramps.tp.addRegion(ramps.forward);
  r.reverseSampleIndex = ramps.backward;
  r.reverseCcs.push_back(CcCondition{20, 64.0f / 127.0f, 1.0f});
  r.ampeg.release = 0.0f;
  Renderer out(linear());
  out.setProgram(ramps.tp.prepare());
  out.run({cc(0, 7, 127), cc(0, 20, 63), noteOn(0, 60)}, 200);
  CHECK(fileFrame(out, 0) == 0);  // CC 20 below the range: forward
  CHECK(fileFrame(out, 199) == 199);
  out.run({noteOff(200, 60), cc(400, 20, 64), noteOn(400, 60)}, 400);
  CHECK(fileFrame(out, 400) == kFrames - 1);  // in range at note-on: reversed
  CHECK(fileFrame(out, 599) == kFrames - 200);
  // Moving the controller while the note sounds does not turn it round.
  out.run({cc(700, 20, 0)}, 200);
  CHECK(fileFrame(out, 799) == kFrames - 400);
  out.run({noteOff(800, 60), cc(900, 20, 127), noteOn(1000, 60)}, 300);
  CHECK(fileFrame(out, 1000) == kFrames - 1);  // 127 is in 64..127 too
}

TEST_CASE("a reversed sample's mirrored smpl loop loops the same frames, backwards", "[engine][v2][reverse]") {
  Ramps ramps;
  // As the pool mirrors a file loop 600..799: reversed frames 200..399.
  auto sample = std::make_unique<TestSample>(reversed(rampFromOne()));
  sample->data.loopStart = 200;
  sample->data.loopEnd = 399;
  Region& r = ramps.tp.addRegion(ramps.tp.addSample(std::move(sample)));
  r.reverse = true;  // no loop_mode: loop_continuous, since the sample has a loop
  Renderer out(linear());
  out.setProgram(ramps.tp.prepare());
  out.run({cc(0, 7, 127), noteOn(0, 60)}, 1000);
  CHECK(fileFrame(out, 0) == 999);
  CHECK(fileFrame(out, 399) == 600);
  CHECK(fileFrame(out, 400) == 799);
  CHECK(fileFrame(out, 999) == 600);
}

}  // namespace reverse_tests
