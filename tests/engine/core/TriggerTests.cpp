// Triggers and note endings: release triggers with rt_decay, off_by choke, pedals,
// all notes off / all sound off, group and note polyphony.
#include "EngineTestSupport.h"
#include "catch.h"

namespace trigger_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr int kFade = 240;  // limits::kStealFadeSeconds at 48 kHz

Region& held(TestProgram& tp, float value, int lokey = 0, int hikey = 127) {
  const int s = tp.addSample(std::make_unique<TestSample>(constant(value, 200000)));
  return tp.addRegion(s, lokey, hikey);
}

float peakAbs(const std::vector<float>& x, size_t from, size_t to) {
  float m = 0.0f;
  for (size_t i = from; i < to; ++i) m = std::max(m, std::fabs(x[i]));
  return m;
}

}  // namespace

TEST_CASE("release trigger sounds on note-off, rt_decay attenuates by the held time", "[engine][trigger]") {
  TestProgram tp;
  Region& rel = held(tp, 0.5f);
  rel.trigger = Trigger::Release;
  rel.rtDecay = 6.0f;        // dB per second held
  rel.ampVeltrack = 100.0f;  // uses the note-on velocity
  Renderer r;
  r.setProgram(tp.prepare());
  r.run({cc(0, 7, 127), noteOn(100, 60, 64), {24100, MidiEvent{0, 0x80, 60, 127}}}, 30000);
  CHECK(peakAbs(r.left, 0, 24100) == 0.0f);
  const float velocityGain = (64.0f / 127.0f) * (64.0f / 127.0f);
  const float expected = 0.5f * velocityGain * std::pow(10.0f, -3.0f / 20.0f);  // 0.5 s held * 6 dB/s
  CHECK(r.left[24100] == Approx(expected).epsilon(1e-4));
  CHECK(gainToDb(r.left[25000] / (0.5f * velocityGain)) == Approx(-3.0f).margin(0.01));
}

TEST_CASE("release triggers of notes released under the sustain pedal wait for pedal up", "[engine][trigger]") {
  TestProgram tp;
  held(tp, 0.5f).trigger = Trigger::Release;
  Renderer r;
  r.setProgram(tp.prepare());
  r.run({cc(0, 7, 127), cc(0, 64, 127), noteOn(10, 60), noteOff(1000, 60), cc(2000, 64, 0)}, 3000);
  CHECK(peakAbs(r.left, 0, 2000) == 0.0f);
  CHECK(r.left[2000] == 0.5f);
}

TEST_CASE("off_by chokes the other group's voices within a few ms", "[engine][trigger]") {
  TestProgram tp;
  Region& open = held(tp, 0.5f, 60, 60);
  open.group = 1;
  open.offBy = 2;
  open.pan = -100.0f;  // left only
  Region& closed = held(tp, 0.25f, 62, 62);
  closed.group = 2;
  closed.pan = 100.0f;  // right only
  Renderer r;
  r.setProgram(tp.prepare());
  r.run({cc(0, 7, 127), noteOn(0, 60), noteOn(5000, 62)}, 8000);
  CHECK(r.left[4999] == Approx(0.5f * std::sqrt(2.0f)));
  CHECK(r.left[5000 + kFade + 1] == 0.0f);
  CHECK(maxJump(r.left, 4990, 5300) < 0.01f);  // a fade, not a cut
  CHECK(r.right[5000] > 0.0f);
  CHECK(r.right[7000] == Approx(0.25f * std::sqrt(2.0f)));
}

TEST_CASE("off_mode=normal chokes with the voice's own release", "[engine][trigger]") {
  TestProgram tp;
  Region& a = held(tp, 0.5f, 60, 60);
  a.group = 1;
  a.offBy = 2;
  a.offMode = OffMode::Normal;
  a.ampeg.release = 0.1f;
  held(tp, 0.0f, 62, 62).group = 2;
  Renderer r;
  r.setProgram(tp.prepare());
  r.run({cc(0, 7, 127), noteOn(0, 60), noteOn(1000, 62)}, 10000);
  CHECK(r.left[1000 + kFade + 1] > 0.1f);   // still releasing
  CHECK(r.left[1000 + 4800 + 10] == 0.0f);  // release over after 100 ms
}

TEST_CASE("sustain pedal holds notes; sostenuto holds only the notes down when pressed", "[engine][trigger]") {
  TestProgram tp;
  held(tp, 0.5f, 60, 60);
  held(tp, 0.25f, 62, 62);
  Renderer r;
  r.setProgram(tp.prepare());
  r.run({cc(0, 7, 127), noteOn(0, 60), cc(100, 64, 127), noteOff(200, 60), cc(10000, 64, 0)}, 11000);
  CHECK(r.left[9999] == 0.5f);
  CHECK(r.left[10000 + 100] == 0.0f);  // 1 ms release

  Renderer s;
  s.setProgram(tp.program.get());
  s.run({cc(0, 7, 127), noteOn(0, 60), cc(100, 66, 127), noteOn(200, 62), noteOff(300, 60), noteOff(300, 62),
         cc(10000, 66, 0)},
        11000);
  CHECK(s.left[9999] == 0.5f);  // 60 latched, 62 released at 300
  CHECK(s.left[10100] == 0.0f);
}

TEST_CASE("all notes off releases, all sound off fades within 5 ms, reset controllers", "[engine][trigger]") {
  TestProgram tp;
  Region& a = held(tp, 0.5f);
  a.ampeg.release = 0.05f;
  Renderer r;
  r.setProgram(tp.prepare());
  r.run({cc(0, 7, 127), cc(0, 64, 127), noteOn(0, 60), noteOn(0, 64), cc(1000, 123, 0)}, 6000);
  CHECK(r.left[1000 + 10] > 0.5f);
  CHECK(r.left[1000 + 2400 + 10] == 0.0f);

  r.run({cc(6000, 11, 64), noteOn(6000, 60), cc(7000, 120, 0)}, 2000);
  CHECK(r.left[6999] == Approx(0.5f * (64.0f / 127.0f) * (64.0f / 127.0f)));
  CHECK(r.left[7000 + kFade + 1] == 0.0f);

  r.run({cc(8000, 121, 0), noteOn(8000, 60)}, 1000);  // expression back to 127
  CHECK(r.left[8500] == 0.5f);
}

TEST_CASE("group polyphony and note_polyphony stop the oldest voices", "[engine][trigger]") {
  TestProgram tp;
  Region& g = held(tp, 0.1f, 60, 70);
  g.group = 3;
  g.polyphony = 2;
  Renderer r;
  r.setProgram(tp.prepare());
  r.run({cc(0, 7, 127), noteOn(0, 60), noteOn(100, 61), noteOn(200, 62)}, 1000);
  CHECK(r.left[199] == Approx(0.2f));
  CHECK(r.left[200 + kFade + 1] == Approx(0.2f));

  TestProgram np;
  held(np, 0.1f).notePolyphony = 1;
  Renderer n;
  n.setProgram(np.prepare());
  n.run({cc(0, 7, 127), noteOn(0, 60), noteOn(100, 60), noteOn(500, 61)}, 1000);
  CHECK(n.left[100 + kFade + 1] == Approx(0.1f));
  CHECK(n.left[900] == Approx(0.2f));
}

}  // namespace trigger_tests
