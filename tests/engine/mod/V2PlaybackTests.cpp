// The rest of SFZ v2 playback, on renders: note_selfmask with note_polyphony.
#include <string>
#include <vector>

#include "ModTestSupport.h"
#include "catch.h"

namespace v2_playback_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

// Voices sounding 0.2 s after two notes on key 60 (velocities first, second, 0.1 s apart).
uint32_t voicesAfter(const std::string& opcodes, int first, int second) {
  SfzProgram p("<region> sample=*sine loop_mode=loop_continuous note_polyphony=1 " + opcodes,
               constant(0.5f, 48000));
  REQUIRE(p.warnings.empty());
  const auto r = play(p, {cc(0, 7, 127), noteOn(0, 60, first), noteOn(4800, 60, second)}, 14400);
  return r->engine.stats().activeVoices;
}

}  // namespace

TEST_CASE("note_selfmask=on (default): a softer note never cuts a louder one on its key", "[engine][v2]") {
  CHECK(voicesAfter("", 100, 50) == 2);   // the louder first note plays on
  CHECK(voicesAfter("", 100, 100) == 1);  // same velocity: the older one goes
  CHECK(voicesAfter("", 50, 100) == 1);
  CHECK(voicesAfter("note_selfmask=on", 100, 50) == 2);
}

TEST_CASE("note_selfmask=off: the new note cuts the older one whatever the velocities", "[engine][v2]") {
  CHECK(voicesAfter("note_selfmask=off", 100, 50) == 1);
  CHECK(voicesAfter("note_selfmask=off", 50, 100) == 1);
}

TEST_CASE("loop_count=3 plays the loop exactly three times, then the rest of the sample", "[engine][v2]") {
  // A ramp: frame k of the sample holds k, so the output names the frames played.
  SfzProgram p("<region> sample=*sine amp_veltrack=0 loop_mode=loop_continuous loop_start=100 loop_end=199 "
               "loop_count=3",
               ramp(1000));
  REQUIRE(p.warnings.empty());
  const auto r = play(p, {cc(0, 7, 127), noteOn(0, 60)}, 2000);
  std::vector<float> expected;
  for (int k = 0; k < 200; ++k) expected.push_back(static_cast<float>(k));
  for (int cycle = 0; cycle < 2; ++cycle)
    for (int k = 100; k < 200; ++k) expected.push_back(static_cast<float>(k));
  for (int k = 200; k < 1000; ++k) expected.push_back(static_cast<float>(k));
  REQUIRE(r->left.size() >= expected.size() + 10);
  for (size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    REQUIRE(r->left[i] == Approx(expected[i]).margin(1e-3));
  }
  CHECK(r->left[expected.size() + 5] == 0.0f);  // the voice ended with the sample
  CHECK(r->engine.stats().activeVoices == 0);
}

TEST_CASE("sample_quality picks the region's interpolation whatever the engine's", "[engine][v2]") {
  // A pitched sine (two semitones up): each interpolation gives its own output.
  const auto render = [](const std::string& opcodes, engine::Quality quality) {
    SfzProgram p("<region> sample=*sine amp_veltrack=0 pitch_keycenter=58 " + opcodes, sine(3000.0, 48000.0, 48000));
    REQUIRE(p.warnings.empty());
    engine::EngineConfig config;
    config.quality = quality;
    Renderer r(config, 256);
    r.setProgram(p.program.get());
    r.run({cc(0, 7, 127), noteOn(0, 60)}, 4096);
    return r.left;
  };
  const auto linear = render("", engine::Quality::Linear), hermite = render("", engine::Quality::Hermite);
  REQUIRE(linear != hermite);
  CHECK(render("sample_quality=1", engine::Quality::Hermite) == linear);
  CHECK(render("sample_quality=2", engine::Quality::Linear) == hermite);
  CHECK(render("sample_quality=4", engine::Quality::Linear) == render("", engine::Quality::Sinc));
  CHECK(render("sample_quality=10", engine::Quality::Linear) == render("", engine::Quality::SincHigh));
}

TEST_CASE("sinc tables: wanted for a sinc quality or sample_quality 3 and up; without them sinc plays Hermite",
          "[engine][v2]") {
  const auto program = [](const std::string& opcodes) {
    return SfzProgram("<region> sample=*sine amp_veltrack=0 pitch_keycenter=58 " + opcodes, sine(3000.0, 48000.0, 48000));
  };
  const SfzProgram plain = program("sample_quality=2"), asks = program("sample_quality=3");
  CHECK_FALSE(engine::sincWanted(*plain.program, engine::Quality::Hermite));
  CHECK(engine::sincWanted(*plain.program, engine::Quality::Sinc));
  CHECK(engine::sincWanted(*plain.program, engine::Quality::SincHigh));
  CHECK(engine::sincWanted(*asks.program, engine::Quality::Linear));
  const auto render = [&](engine::Quality quality, bool tables) {
    const SfzProgram p = program("");
    engine::EngineConfig config;
    config.quality = quality;
    config.sincTables = tables;
    Renderer r(config, 256);
    r.setProgram(p.program.get());
    r.run({cc(0, 7, 127), noteOn(0, 60)}, 4096);
    return r.left;
  };
  CHECK(render(engine::Quality::Hermite, false) == render(engine::Quality::Hermite, true));
  CHECK(render(engine::Quality::Sinc, false) == render(engine::Quality::Hermite, true));
  CHECK(render(engine::Quality::Sinc, true) != render(engine::Quality::Hermite, true));
}

TEST_CASE("loop_startccN and loop_lengthccN move the loop points at note start", "[engine][v2]") {
  SfzProgram p("<region> sample=*sine amp_veltrack=0 loop_mode=loop_continuous loop_start=100 loop_end=199 "
               "loop_start_oncc20=50 loop_lengthcc21=100",
               ramp(1000));
  REQUIRE(p.warnings.empty());
  // CC20 = 127: the loop starts at 150; CC21 = 127: it ends at 299.
  const auto r = play(p, {cc(0, 7, 127), cc(0, 20, 127), cc(0, 21, 127), noteOn(0, 60)}, 700);
  for (int k = 0; k < 300; ++k) REQUIRE(r->left[static_cast<size_t>(k)] == Approx(k).margin(1e-3));
  for (int k = 0; k < 150; ++k) REQUIRE(r->left[static_cast<size_t>(300 + k)] == Approx(150 + k).margin(1e-3));
  // Controllers at 0: the written loop, 100..199.
  const auto plain = play(p, {cc(0, 7, 127), noteOn(0, 60)}, 400);
  CHECK(plain->left[200] == Approx(100.0f).margin(1e-3));
  CHECK(plain->left[300] == Approx(100.0f).margin(1e-3));
}

TEST_CASE("rt_dead: a release trigger waits for its note's sound unless rt_dead=on", "[engine][v2]") {
  // Key 60: a 100-frame one-shot and a release region; key 62: the release region only.
  const auto voices = [](const std::string& release, int64_t offAt, int key) {
    SfzProgram p("<region> sample=*sine key=60 loop_mode=one_shot end=99\n"
                 "<region> sample=*sine lokey=60 hikey=62 trigger=release " + release,
                 constant(0.5f, 48000));
    REQUIRE(p.warnings.empty());
    const auto r = play(p, {cc(0, 7, 127), noteOn(0, key), noteOff(offAt, key)}, offAt + 512);
    return r->engine.stats().notesStarted;
  };
  CHECK(voices("", 50, 60) == 2);      // released while the one-shot sounds: the release plays
  CHECK(voices("", 2000, 60) == 1);    // its one-shot has ended: silent (rt_dead=off)
  CHECK(voices("rt_dead=on", 2000, 60) == 2);
  CHECK(voices("", 2000, 62) == 1);    // a key with no sustain voice: the release plays
}

TEST_CASE("sample_fadeout fades the voice out over its last seconds", "[engine][v2]") {
  // 48,000 frames of 0.5 played at their own rate: the fade covers the last 0.25 s.
  SfzProgram p("<region> sample=*sine amp_veltrack=0 sample_fadeout=0.25", constant(0.5f, 48000));
  REQUIRE(p.warnings.empty());
  const auto r = play(p, {cc(0, 7, 127), noteOn(0, 60)}, 50000);
  CHECK(r->left[30000] == Approx(0.5f).margin(1e-4));           // before the fade
  CHECK(r->left[36000 + 6000] == Approx(0.25f).margin(0.005));  // half way through it
  CHECK(r->left[36000 + 9000] == Approx(0.125f).margin(0.005));
  CHECK(std::abs(r->left[47990]) < 0.005f);
  float step = 0.0f;  // no click: the gain ramps frame by frame
  for (size_t i = 35000; i < 48000; ++i) step = std::max(step, std::abs(r->left[i] - r->left[i - 1]));
  CHECK(step < 0.001f);
}

TEST_CASE("lfoN_stepX_onccY moves a step by the controller", "[engine][v2][lfo]") {
  SfzProgram p("<region> sample=*sine amp_veltrack=0 loop_mode=loop_continuous lfo1_freq=1 lfo1_volume=6 "
               "lfo1_steps=2 lfo1_step1=0 lfo1_step2=0 lfo1_step2_oncc20=100",
               constant(0.5f, 96000));
  REQUIRE(p.warnings.empty());
  const auto r = play(p, {cc(0, 7, 127), cc(0, 20, 127), noteOn(0, 60)}, 48000);
  CHECK(r->left[12000] == Approx(0.5f).margin(1e-3));                  // step 1: 0 dB
  CHECK(r->left[36000] == Approx(0.5f * std::pow(10.0f, 0.3f)).margin(1e-3));  // step 2: +6 dB
}

TEST_CASE("egN_curveX shapes a flex EG stage by a <curve>", "[engine][v2][flexeg]") {
  SfzProgram p("<region> sample=*sine amp_veltrack=0 loop_mode=loop_continuous eg1_ampeg=1 eg1_time1=0.1 "
               "eg1_level1=1 eg1_sustain=1 eg1_curve1=8\n<curve> curve_index=8 v000=0 v064=0.1 v127=1",
               constant(0.5f, 96000));
  REQUIRE(p.warnings.empty());
  const auto r = play(p, {cc(0, 7, 127), noteOn(0, 60)}, 9600);
  // Half way through the stage (x = 0.5, between v063 and v064) the curve gives about 0.1.
  CHECK(r->left[2400] / 0.5f == Approx(0.1f).margin(0.01));
  CHECK(r->left[4800] / 0.5f == Approx(1.0f).margin(1e-3));
}

TEST_CASE("loop_tune retunes the voice while it plays inside its loop", "[engine][v2]") {
  // A 3 kHz sine, looped from frame 24,000: +100 cents once playback is in the loop.
  SfzProgram p("<region> sample=*sine amp_veltrack=0 loop_mode=loop_continuous loop_start=24000 loop_end=47999 "
               "loop_tune=100",
               sine(3000.0, 48000.0, 48000));
  REQUIRE(p.warnings.empty());
  const auto r = play(p, {cc(0, 7, 127), noteOn(0, 60)}, 40000);
  CHECK(std::abs(centsBetween(measureHz(r->left, 2000, 20000, 48000.0), 3000.0)) < 1.0);
  CHECK(centsBetween(measureHz(r->left, 26000, 38000, 48000.0), 3000.0) == Approx(100.0).margin(1.0));
}

TEST_CASE("offset_mode=percent reads offset, offset_random and offset_onccN in percent of the sample", "[engine][v2]") {
  // A ramp: the first frame played names the offset.
  const auto firstFrame = [](const std::string& opcodes, std::vector<TimedEvent> events) {
    SfzProgram p("<region> sample=a.wav amp_veltrack=0 " + opcodes, ramp(1000));
    REQUIRE(p.warnings.empty());
    events.insert(events.begin(), cc(0, 7, 127));
    events.push_back(noteOn(0, 60));
    return play(p, events, 256)->left[0];
  };
  CHECK(firstFrame("offset=25", {}) == Approx(25.0f));
  CHECK(firstFrame("offset=25 offset_mode=samples", {}) == Approx(25.0f));
  CHECK(firstFrame("offset=25 offset_mode=percent", {}) == Approx(250.0f));
  CHECK(firstFrame("offset_mode=percent offset_oncc1=50", {cc(0, 1, 127)}) == Approx(500.0f));
  CHECK(firstFrame("offset=10 offset_mode=percent offset_oncc1=50", {cc(0, 1, 127)}) == Approx(600.0f));
  CHECK(firstFrame("offset=150 offset_mode=percent", {}) == Approx(999.0f));  // clamped to the last frame
  const float random = firstFrame("offset_mode=percent offset_random=50", {});
  CHECK(random >= 0.0f);
  CHECK(random <= 500.0f);
  CHECK(std::fmod(random, 10.0f) == 0.0f);  // whole percents: multiples of 10 frames
}

}  // namespace v2_playback_tests
