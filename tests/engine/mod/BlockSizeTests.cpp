// Where a host cuts its blocks never changes a frame of controller modulation or of the
// effect buses: a song through a modulated SFZ v2 instrument (LFOs of several waves,
// sample and hold, flex EGs, one of them the amplitude envelope, controllers through
// curves with smoothing, a release in the middle of a control step) and a song through
// SFZ effect buses (their parameters on controllers, a part-wide tail that stops and
// starts again) render the same bytes in blocks of 256, 1, 64 and 1000 frames and in
// pseudo-random blocks of 1 to 700. Every control step counts on the voice's or the
// effect's own frames (docs/ARCHITECTURE.md, "Block sizes").
#include <cstring>
#include <functional>
#include <random>
#include <string>

#include "ModTestSupport.h"
#include "catch.h"

namespace block_size_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr double kRate = 48000.0;
constexpr int64_t kFrames = 96000;

// A looped sine at a frequency that never repeats within a block.
std::vector<float> tone() { return sine(233.0, kRate, 48000, 0.4f); }

const char* kModulated = R"(
<control> set_cc1=20 set_cc74=90
<curve> curve_index=9 v000=0 v064=0.2 v127=1
<global> sample=a.wav loop_mode=loop_continuous loop_start=0 loop_end=47999 amp_veltrack=0 ampeg_release=0.08
<region> key=60 pitch_keycenter=60 cutoff=1500 fil_type=lpf_2p
  lfo1_freq=5.3 lfo1_pitch=30 lfo1_wave=0 lfo1_delay=0.01 lfo1_fade=0.05
  lfo2_freq=7.1 lfo2_cutoff=900 lfo2_wave=12
  amplitude_oncc1=100 amplitude_curvecc1=9 amplitude_smoothcc1=20
  cutoff_oncc74=1200 cutoff_smoothcc74=10
  eg1_time1=0.05 eg1_level1=1 eg1_time2=0.2 eg1_level2=0.5 eg1_shape2=-3 eg1_sustain=2 eg1_time3=0.3 eg1_level3=0
  eg1_volume=-6
<region> key=62 pitch_keycenter=62
  eg2_ampeg=1 eg2_time1=0.02 eg2_level1=1 eg2_time2=0.15 eg2_level2=0.6 eg2_shape2=2 eg2_sustain=2
  eg2_time3=0.07 eg2_level3=0
  lfo3_freq=3 lfo3_volume=4 lfo3_freq_oncc1=6 lfo3_wave=1 lfo4_freq=0.7 lfo4_pitch=20 lfo4_freq_lfo3=2
  pan_oncc10=100 pan_smoothcc10=5 tune_oncc1=40
<region> key=64 pitch_keycenter=64 cutoff=2500
  lfo1_freq=2 lfo1_volume=6 lfo1_steps=4 lfo1_step1=100 lfo1_step2=-50 lfo1_step3=0 lfo1_step4=50
  lfo2_freq=4 lfo2_wave=3 lfo2_cutoff=600 lfo2_wave2=6 lfo2_ratio2=3 lfo2_scale2=0.5
  volume_oncc7=6 volume_curvecc7=4
)";

const char* kBusSong = R"(
<control> set_cc20=30 set_cc21=100
<global> sample=a.wav loop_mode=loop_continuous loop_start=0 loop_end=47999 amp_veltrack=0 ampeg_release=0.05
<region> key=60 pitch_keycenter=60 effect1=60
<region> key=62 pitch_keycenter=62 effect1=30 effect2=50
<effect> type=eq eq_type=hshelf eq_freq=3000 eq_bw=1 eq_gain=-6 eq_gain_oncc20=12
<effect> type=gain gain=-3 gain_oncc21=-10 gain_smoothcc21=30
<effect> type=apan apan_freq=3 apan_depth=60 apan_depth_oncc20=30
<effect> bus=fx1 type=fverb reverb_type=small_room reverb_size=40 reverb_input=100 reverb_wet=60 reverb_dry=100
  reverb_size_oncc21=30 fx1tomain=80
<effect> bus=fx1 type=phaser phaser_stages=6 phaser_freq=0.5 phaser_depth=80 phaser_feedback=40 phaser_wet=60
<effect> bus=fx2 type=delay delay_timel=0.05 delay_timer=0.0731 delay_levell=80 delay_levelr=70 delay_feedback=40
  delay_input=100 delay_dry=0 delay_wet=100 delay_feedback_oncc20=30 fx2tomain=70
<effect> bus=fx2 type=filter filter_type=lpf_2p filter_cutoff=2000 filter_cutoff_oncc21=3000
<effect> bus=fx2 type=lofi bitred=20 decim=10 decim_oncc20=20
)";

// The song through the engine in blocks of nextBlock() frames, each event at its frame
// in its block; left then right.
std::vector<float> render(const engine::Program* program, const std::vector<TimedEvent>& events,
                          const std::function<int()>& nextBlock) {
  engine::EngineConfig config{kRate, 1024, 32, engine::Quality::Hermite, 1};
  engine::Engine engine(config);
  engine::Command set;
  set.type = engine::CommandType::SetProgram;
  set.program = program;
  REQUIRE(engine.postCommand(set));
  std::vector<float> left(kFrames), right(kFrames);
  std::vector<MidiEvent> block;
  std::size_t next = 0;
  for (int64_t done = 0; done < kFrames;) {
    const int n = static_cast<int>(std::min<int64_t>(nextBlock(), kFrames - done));
    block.clear();
    for (; next < events.size() && events[next].frame < done + n; ++next) {
      block.push_back(events[next].event);
      block.back().frame = static_cast<uint32_t>(events[next].frame - done);
    }
    engine.process(block.data(), static_cast<int>(block.size()), left.data() + done, right.data() + done, n);
    done += n;
  }
  left.insert(left.end(), right.begin(), right.end());
  return left;
}

// Renders in blocks of 256 (the reference) and of every other length; each must equal
// it byte for byte. Returns the reference's peak.
float sameAtEveryBlockSize(const engine::Program* program, const std::vector<TimedEvent>& events) {
  const std::vector<float> reference = render(program, events, [] { return 256; });
  float peak = 0.0f;
  for (const float x : reference) peak = std::max(peak, std::fabs(x));
  std::mt19937 random(45);
  std::uniform_int_distribution<int> length(1, 700);
  const std::vector<std::pair<const char*, std::function<int()>>> cuts{
      {"1", [] { return 1; }}, {"64", [] { return 64; }}, {"1000", [] { return 1000; }},
      {"1..700", [&] { return length(random); }}};
  for (const auto& [name, next] : cuts) {
    const std::vector<float> out = render(program, events, next);
    REQUIRE(out.size() == reference.size());
    std::size_t differing = 0, first = 0;
    for (std::size_t i = 0; i < out.size(); ++i)
      if (std::memcmp(&out[i], &reference[i], sizeof(float)) != 0 && differing++ == 0) first = i % kFrames;
    INFO("blocks of " << name << ": " << differing << " values differ, the first at frame " << first);
    CHECK(differing == 0);
  }
  return peak;
}

}  // namespace

TEST_CASE("v2 LFOs, flex EGs and controller curves render the same bytes at any block size", "[engine][mod][blocks]") {
  const SfzProgram p(kModulated, tone());
  REQUIRE(p.warnings.empty());
  // Events off every block grid and inside control steps: controller moves under
  // smoothing, note-offs while EGs and LFOs move, a second note on the same key.
  const std::vector<TimedEvent> song{
      noteOn(0, 60, 100),     noteOn(1013, 62, 90),  cc(5011, 1, 100),      cc(9007, 74, 10),
      noteOn(12345, 64, 110), cc(20023, 10, 127),    cc(24001, 7, 40),      noteOff(30017, 62),
      cc(33333, 1, 5),        noteOff(40009, 60),    noteOn(45055, 62, 70), bend(50021, 4000),
      noteOff(61111, 64),     noteOff(70003, 62)};
  CHECK(sameAtEveryBlockSize(p.program.get(), song) > 0.05f);
}

TEST_CASE("SFZ effect buses render the same bytes at any block size", "[engine][effects][blocks]") {
  const SfzProgram p(kBusSong, tone());
  REQUIRE(p.warnings.empty());
  REQUIRE(p.program->buses);
  // Controllers move every bus's parameters, notes stop so that the tails die and the
  // buses stop, then start them again.
  const std::vector<TimedEvent> song{
      noteOn(0, 60, 100),    cc(3001, 20, 110),     noteOn(7777, 62, 90), cc(12003, 21, 10),
      noteOff(20011, 60),    noteOff(22222, 62),    cc(50001, 20, 0),     noteOn(60013, 62, 120),
      cc(66667, 21, 127),    noteOff(80021, 62)};
  CHECK(sameAtEveryBlockSize(p.program.get(), song) > 0.05f);
}

}  // namespace block_size_tests
