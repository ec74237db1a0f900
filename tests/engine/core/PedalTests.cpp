// Per-region pedals (sustain_cc, sustain_lo, sustain_sw, sostenuto_cc, sostenuto_lo,
// sostenuto_sw) and off_mode=time (off_time) fades of choked voices.
#include "EngineTestSupport.h"
#include "catch.h"

namespace pedal_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

Region& held(TestProgram& tp, float value, int lokey = 0, int hikey = 127) {
  const int s = tp.addSample(std::make_unique<TestSample>(constant(value, 200000)));
  return tp.addRegion(s, lokey, hikey);  // 1 ms release
}

// Frames from `from` until the output is 0 for good (the end of a fade), within [from, to).
int64_t framesUntilSilent(const std::vector<float>& x, size_t from, size_t to) {
  size_t last = from;
  for (size_t i = from; i < to; ++i) {
    if (x[i] != 0.0f) last = i + 1;
  }
  return static_cast<int64_t>(last - from);
}

}  // namespace

TEST_CASE("sustain_cc moves the sustain pedal to another controller", "[engine][pedals]") {
  TestProgram tp;
  held(tp, 0.5f).sustainCc = 67;
  Renderer r;
  r.setProgram(tp.prepare());
  // CC64 no longer holds: the note ends at its note-off (1 ms release).
  r.run({cc(0, 7, 127), cc(0, 64, 127), noteOn(10, 60), noteOff(1000, 60)}, 2000);
  CHECK(r.left[999] == 0.5f);
  CHECK(r.left[1100] == 0.0f);
  // CC67 holds it until CC67 goes up.
  r.run({cc(2000, 64, 0), cc(2000, 67, 127), noteOn(2010, 60), noteOff(3000, 60), cc(6000, 67, 0)}, 5000);
  CHECK(r.left[5999] == 0.5f);
  CHECK(r.left[6100] == 0.0f);
}

TEST_CASE("sustain_lo sets the pedal's threshold; the default is any value above 0", "[engine][pedals]") {
  TestProgram tp;
  held(tp, 0.5f, 60, 60);
  held(tp, 0.25f, 62, 62).sustainLo = 100 / 127.0f;  // sustain_lo=100
  Renderer r;
  r.setProgram(tp.prepare());
  r.run({cc(0, 7, 127), cc(0, 64, 1), noteOn(10, 60), noteOn(10, 62), noteOff(1000, 60), noteOff(1000, 62)}, 2000);
  CHECK(r.left[1500] == 0.5f);  // CC64=1 holds the default region, not the sustain_lo=100 one
  r.run({cc(2000, 64, 100), noteOn(2010, 62), noteOff(3000, 62), cc(3500, 64, 99)}, 2000);
  CHECK(r.left[3499] == Approx(0.75f));  // 60 still held, 62 held at 100
  CHECK(r.left[3600] == Approx(0.5f));   // 99 < 100: 62 let go, 60 still held (99 >= 1)
}

TEST_CASE("sustain_sw=off: the pedal does not hold the region", "[engine][pedals]") {
  TestProgram tp;
  held(tp, 0.5f).sustainSw = false;
  Renderer r;
  r.setProgram(tp.prepare());
  r.run({cc(0, 7, 127), cc(0, 64, 127), noteOn(10, 60), noteOff(1000, 60)}, 2000);
  CHECK(r.left[1100] == 0.0f);
}

TEST_CASE("sostenuto_cc and sostenuto_sw", "[engine][pedals]") {
  TestProgram tp;
  held(tp, 0.5f, 60, 60).sostenutoCc = 69;
  held(tp, 0.25f, 62, 62).sostenutoSw = false;
  Renderer r;
  r.setProgram(tp.prepare());
  r.run({cc(0, 7, 127), noteOn(0, 60), noteOn(0, 62), cc(100, 66, 127), cc(100, 69, 127), noteOff(300, 60),
         noteOff(300, 62), cc(5000, 69, 0)},
        6000);
  CHECK(r.left[4999] == 0.5f);  // 60 latched by CC69; 62 ignores sostenuto
  CHECK(r.left[5100] == 0.0f);
}

TEST_CASE("off_mode=time fades a choked voice over off_time", "[engine][pedals]") {
  TestProgram tp;
  Region& a = held(tp, 0.5f, 60, 60);
  a.group = 1;
  a.offBy = 2;
  a.offMode = OffMode::Time;
  a.offTime = 0.05f;  // 2400 frames at 48 kHz
  held(tp, 0.0f, 62, 62).group = 2;
  Renderer r;
  r.setProgram(tp.prepare());
  r.run({cc(0, 7, 127), noteOn(0, 60), noteOn(1000, 62)}, 6000);
  CHECK(r.left[999] == 0.5f);
  CHECK(framesUntilSilent(r.left, 1000, 6000) == 2400);
  CHECK(r.left[1000 + 1200] == Approx(0.25f).margin(0.01f));  // linear: half way, half level
  CHECK(maxJump(r.left, 990, 3500) < 0.001f);

  // The default off_mode=fast keeps the 5 ms steal fade (240 frames).
  TestProgram fast;
  Region& b = held(fast, 0.5f, 60, 60);
  b.group = 1;
  b.offBy = 2;
  held(fast, 0.0f, 62, 62).group = 2;
  Renderer f;
  f.setProgram(fast.prepare());
  f.run({cc(0, 7, 127), noteOn(0, 60), noteOn(1000, 62)}, 3000);
  CHECK(framesUntilSilent(f.left, 1000, 3000) == 240);
}

}  // namespace pedal_tests
