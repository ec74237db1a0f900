// SoundFont effect sends: a written font's note played with CC91 (reverb) or CC93
// (chorus) at full and at 0, the part on its own output so the dry signal and the
// effect returns (always on the main pair) are measured apart.
#include <algorithm>
#include <cmath>
#include <vector>

#include "Sf2PlaybackSupport.h"
#include "io/OfflineRenderer.h"

namespace sound_font_effects_tests {

namespace sf2 = spindle::sf2;
using namespace spindle;
using test::amount;
using test::FontPlayer;
using test::Sf2Spec;

namespace {

constexpr int kBlock = 256;
constexpr int64_t kFrames = 48000 * 3;
constexpr int64_t kNoteOff = 24000;  // 0.5 s; the release is 0.1 s

// 441 Hz at 22050 Hz, looped, with a release (0.1 s unless given) and the generators.
Sf2Spec sendFont(std::vector<test::Sf2Gen> gens = {}, int releaseTimecents = -3986) {
  Sf2Spec s;
  s.samples.push_back(test::loopedSine("sine", 441.0, 22050, 69, 22050, 0.5));
  gens.push_back({sf2::kReleaseVolEnv, amount(releaseTimecents)});
  gens.push_back({sf2::kSampleModes, 1});
  gens.push_back({sf2::kSampleID, 0});
  s.instruments.push_back({"I", {{gens, {}}}});
  s.presets.push_back({"P", 0, 0, {{{{sf2::kInstrument, 0}}, {}}}});
  return s;
}

struct Outputs {
  std::vector<float> mainLeft, mainRight, partLeft, partRight;
  bool soundingAtEnd = false;
};

// Part 0 plays key 69 from frame 0 to noteOff after CC `number` = value, into its own
// output; the main pair gets only what the effects return.
Outputs play(const engine::Program& program, int number, int value, engine::EffectsSettings effects = {},
             int64_t noteOff = kNoteOff) {
  engine::EngineConfig config;
  config.effects = effects;
  test::Renderer r(config, kBlock);
  r.setProgram(&program, 0);
  Outputs out;
  for (auto* v : {&out.mainLeft, &out.mainRight, &out.partLeft, &out.partRight}) v->assign(kFrames, 0.0f);
  engine::PartOutputs parts{};
  std::vector<MidiEvent> events{test::cc(0, number, value).event, test::noteOn(0, 69, 100).event};
  for (int64_t at = 0; at < kFrames; at += kBlock) {
    const auto i = static_cast<size_t>(at);
    parts[0] = {out.partLeft.data() + i, out.partRight.data() + i};
    const auto n = static_cast<int>(std::min<int64_t>(kBlock, kFrames - at));
    std::vector<MidiEvent> now;
    if (at == 0) now = events;
    if (at <= noteOff && noteOff < at + n) {
      now.push_back(test::noteOff(0, 69).event);
      now.back().frame = static_cast<uint32_t>(noteOff - at);
    }
    r.engine.process(now.data(), static_cast<int>(now.size()), out.mainLeft.data() + i, out.mainRight.data() + i,
                     parts, n);
  }
  out.soundingAtEnd = r.engine.stats().effectsSounding;
  return out;
}

double energy(const std::vector<float>& x, double from, double to) {
  double e = 0.0;
  for (size_t i = test::at(from); i < test::at(to); ++i) e += static_cast<double>(x[i]) * static_cast<double>(x[i]);
  return e;
}

}  // namespace

TEST_CASE("SoundFont sends: CC91 at full gives a reverb tail after the note, the dry part unchanged",
          "[sf2][effects]") {
  FontPlayer font(sendFont(), "sf2_reverb_send");
  const Outputs wet = play(*font.program, 91, 127);
  const Outputs dry = play(*font.program, 91, 0);
  CHECK(wet.partLeft == dry.partLeft);
  CHECK(wet.partRight == dry.partRight);
  // The dry part has ended 0.1 s after the note-off; the reverb (T60 about 1 s) has not.
  CHECK(energy(wet.partLeft, 0.7, 3.0) == 0.0);
  const double tail = energy(wet.mainLeft, 0.7, 1.2) + energy(wet.mainRight, 0.7, 1.2);
  const double during = energy(wet.mainLeft, 0.1, 0.5) + energy(wet.mainRight, 0.1, 0.5);
  INFO("tail " << tail << ", during the note " << during);
  CHECK(tail > 1e-4 * during);
  CHECK(during > 1e-3 * energy(wet.partLeft, 0.1, 0.5));
  CHECK(energy(dry.mainLeft, 0.0, 3.0) + energy(dry.mainRight, 0.0, 3.0) == 0.0);
  CHECK_FALSE(dry.soundingAtEnd);
}

TEST_CASE("SoundFont sends: a note shorter than the reverb's lines still leaves its whole tail", "[sf2][effects]") {
  // 10 ms of sound (and a 1 ms release) into lines of 55 to 94 ms: the first echo
  // comes out after the input has stopped, and the reverb must keep running for it.
  FontPlayer font(sendFont({}, -11960), "sf2_reverb_short");
  const Outputs wet = play(*font.program, 91, 127, {}, 480);
  CHECK(energy(wet.mainLeft, 0.3, 0.8) > 1e-6 * energy(wet.partLeft, 0.0, 0.2));
}

TEST_CASE("SoundFont sends: CC93 feeds the chorus; off in the settings, nothing returns", "[sf2][effects]") {
  FontPlayer font(sendFont(), "sf2_chorus_send");
  const Outputs chorus = play(*font.program, 93, 127);
  CHECK(energy(chorus.mainLeft, 0.1, 0.5) > 1e-3 * energy(chorus.partLeft, 0.1, 0.5));
  engine::EffectsSettings off;
  off.chorusOn = false;
  const Outputs none = play(*font.program, 93, 127, off);
  CHECK(energy(none.mainLeft, 0.0, 3.0) + energy(none.mainRight, 0.0, 3.0) == 0.0);
  CHECK(none.partLeft == chorus.partLeft);
}

TEST_CASE("SoundFont sends: reverbEffectsSend sends without CC91; the send adds to the modulator's",
          "[sf2][effects]") {
  FontPlayer generator(sendFont({{sf2::kReverbEffectsSend, 500}}), "sf2_reverb_generator");
  FontPlayer plain(sendFont(), "sf2_reverb_plain");
  const Outputs fromGenerator = play(*generator.program, 91, 0);
  const Outputs fromCc = play(*plain.program, 91, 127);
  const double a = energy(fromGenerator.mainLeft, 0.7, 1.2), b = energy(fromCc.mainLeft, 0.7, 1.2);
  // 50 % against 200 * 127/128 = 19.84 %: the tails' energies differ by (50 / 19.84)^2.
  INFO("generator " << a << ", CC91 " << b);
  CHECK(std::fabs(10.0 * std::log10(a / b) - 20.0 * std::log10(50.0 / 19.84375)) < 0.1);
}

TEST_CASE("SoundFont sends: the region's send levels follow the generators and CC91/CC93", "[sf2][effects]") {
  const instrument::Instrument inst =
      test::loadFont(sendFont({{sf2::kReverbEffectsSend, 250}, {sf2::kChorusEffectsSend, 1000}}), "sf2_send_levels");
  const Region& r = test::regionFor(inst, 69, 100);
  CHECK(r.sends[0].percent == 25.0f);
  CHECK(r.sends[0].cc == 91);
  CHECK(std::fabs(static_cast<double>(r.sends[0].perCc) - 20.0 * 127.0 / 128.0) < 1e-5);
  CHECK(r.sends[1].percent == 100.0f);
  CHECK(r.sends[1].cc == 93);
  CHECK(std::fabs(static_cast<double>(r.sendGain) - std::sqrt(2.0)) < 1e-4);
}

namespace {

struct OfflineRender {
  std::vector<float> left, right;
  io::RenderStats stats;
};

// The font's key 69 for 0.5 s after CC91 = reverb, rendered offline to its end.
OfflineRender renderOffline(const engine::Program& program, int reverb) {
  engine::Engine engine(engine::EngineConfig{});
  engine::Command set;
  set.type = engine::CommandType::SetProgram;
  set.program = &program;
  REQUIRE(engine.postCommand(set));
  const std::vector<io::TimedMidiEvent> events{{0.0, 0xB0, 91, static_cast<uint8_t>(reverb)}, {0.0, 0x90, 69, 100},
                                               {0.5, 0x80, 69, 0}};
  OfflineRender out;
  io::OfflineRenderer renderer(engine, io::RenderOptions{kBlock, 0.0, 30.0});
  out.stats = renderer.render(events, [&](const float* l, const float* r, int frames) {
    out.left.insert(out.left.end(), l, l + frames);
    out.right.insert(out.right.end(), r, r + frames);
    return true;
  });
  engine.collectAllPrograms([](const engine::Program*) {});
  return out;
}

}  // namespace

TEST_CASE("SoundFont sends: an offline render runs until the reverb's tail has died, the same bytes twice",
          "[sf2][effects]") {
  FontPlayer font(sendFont(), "sf2_reverb_offline");
  const OfflineRender dry = renderOffline(*font.program, 0);
  const OfflineRender wet = renderOffline(*font.program, 127);
  const OfflineRender again = renderOffline(*font.program, 127);
  // The voice ends 0.1 s after the note-off; the reverb (T60 0.96 s) reaches -120 dBFS
  // from its level at the note's end about a second and a half later.
  const double drySeconds = static_cast<double>(dry.stats.frames) / 48000.0;
  const double wetSeconds = static_cast<double>(wet.stats.frames) / 48000.0;
  INFO("dry " << drySeconds << " s, with the reverb " << wetSeconds << " s");
  CHECK(drySeconds < 0.7);
  CHECK(wetSeconds > drySeconds + 1.0);
  CHECK(wetSeconds < drySeconds + 4.0);
  CHECK_FALSE(wet.stats.tailCapped);
  float lastBlock = 0.0f;
  for (size_t i = wet.left.size() - kBlock; i < wet.left.size(); ++i)
    lastBlock = std::max({lastBlock, std::fabs(wet.left[i]), std::fabs(wet.right[i])});
  CHECK(lastBlock < engine::EffectsStage::kSilence);
  CHECK(wet.left == again.left);
  CHECK(wet.right == again.right);
}

}  // namespace sound_font_effects_tests
