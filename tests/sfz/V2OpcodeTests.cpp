// SFZ v2 opcodes read into the Region: pan tracking, phase, program and timer
// conditions, directional bend steps, bend smoothing, stop_locc/stop_hicc, the v2 filter
// types and fil_gain, eqN_type, direction and reverse_loccN/hiccN.
#include <array>

#include "TestUtil.h"
#include "catch.h"
#include "sfz/Parser.h"

namespace v2_opcode_tests {

using spindle::test::countDiagnostics;
namespace instrument = spindle::instrument;
namespace sfz = spindle::sfz;

namespace {
const std::filesystem::path kVirtual = "/nonexistent-spindle/inst/v2.sfz";
instrument::Instrument parse(std::string_view text) { return sfz::loadString(text, kVirtual); }
}  // namespace

TEST_CASE("v2 opcodes: pan tracking, phase, loprog/hiprog, lotimer/hitimer, bend steps", "[sfz][v2]") {
  const auto inst = parse(R"(<region> sample=*sine key=60
pan_keycenter=64 pan_keytrack=12.5 pan_veltrack=-40 phase=invert
loprog=5 hiprog=9 lotimer=0.25 hitimer=1.5
bend_step=50 bend_stepup=100 bend_stepdown=200 bend_smooth=80 delay_beats=1.5 stop_beats=4
<region> sample=*sine key=61 phase=normal pan_keytrack=300 bend_stepup=0
)");
  REQUIRE(inst.regions.size() == 2);
  const spindle::Region& a = inst.regions[0];
  CHECK(a.panKeycenter == 64);
  CHECK(a.panKeytrack == 12.5f);
  CHECK(a.panVeltrack == -40.0f);
  CHECK(a.phaseInvert);
  CHECK(a.loprog == 5);
  CHECK(a.hiprog == 9);
  CHECK(a.lotimer == 0.25f);
  CHECK(a.hitimer == 1.5f);
  CHECK(a.bendStep == 50);
  CHECK(a.bendStepUp == 100);
  CHECK(a.bendStepDown == 200);
  CHECK(a.bendSmooth == 80.0f);
  CHECK(a.delayBeats == 1.5f);
  CHECK(a.stopBeats == 4.0f);
  const spindle::Region& b = inst.regions[1];
  CHECK_FALSE(b.phaseInvert);
  CHECK(b.panKeytrack == 100.0f);  // clamped to the reference's -100..100
  CHECK(b.bendStepUp == 1);        // clamped to 1..1200
  CHECK(b.loprog == 0);
  CHECK(b.hiprog == 127);
  CHECK(b.panKeycenter == 60);
  CHECK(b.stopBeats == 0.0f);
  CHECK(countDiagnostics(inst, "not supported") == 0);
}

TEST_CASE("v2 opcodes: stop_locc/stop_hicc make one normalised range per controller", "[sfz][v2]") {
  const auto inst = parse(R"(<group> stop_locc4=100
<region> sample=*sine key=60 stop_hicc4=120 stop_hicc7=10
)");
  REQUIRE(inst.regions.size() == 1);
  const auto& stops = inst.regions[0].stopCcs;
  REQUIRE(stops.size() == 2);
  CHECK(stops[0].cc == 4);
  CHECK(stops[0].lo == Approx(100.0 / 127.0));
  CHECK(stops[0].hi == Approx(120.0 / 127.0));
  CHECK(stops[1].cc == 7);
  CHECK(stops[1].lo == 0.0f);
  CHECK(stops[1].hi == Approx(10.0 / 127.0));
  CHECK(inst.regions[0].ccConditions.empty());
  CHECK(countDiagnostics(inst, "not supported") == 0);
}

TEST_CASE("v2 opcodes: every SFZ v2 / ARIA fil_type name, fil_gain", "[sfz][v2][filter]") {
  using FT = spindle::FilterType;
  const std::pair<const char*, FT> names[] = {
      {"lpf_4p", FT::Lpf4p},       {"lpf_6p", FT::Lpf6p},       {"hpf_4p", FT::Hpf4p},       {"hpf_6p", FT::Hpf6p},
      {"bpf_1p", FT::Bpf1p},       {"brf_1p", FT::Brf1p},       {"bpf_4p", FT::Bpf4p},       {"bpf_6p", FT::Bpf6p},
      {"pkf_2p", FT::Pkf2p},       {"peq", FT::Peq},            {"lsh", FT::Lsh},            {"hsh", FT::Hsh},
      {"apf_1p", FT::Apf1p},       {"lpf_2p_sv", FT::Lpf2pSv},  {"hpf_2p_sv", FT::Hpf2pSv},  {"bpf_2p_sv", FT::Bpf2pSv},
      {"brf_2p_sv", FT::Brf2pSv}};
  for (const auto& [name, type] : names) {
    INFO("fil_type=" << name);
    const auto inst = parse(std::string("<region> sample=*sine cutoff=800 fil_type=") + name + " fil_gain=-4.5\n");
    REQUIRE(inst.regions.size() == 1);
    CHECK(inst.regions[0].filType == type);
    CHECK(inst.regions[0].filGain == -4.5f);
    CHECK(inst.diagnostics.empty());
  }
  const auto inst = parse("<region> sample=*sine fil_gain=30\n<region> sample=*sine\n");
  REQUIRE(inst.regions.size() == 2);
  CHECK(inst.regions[0].filGain == 24.0f);  // clamped to [-96, 24] dB, eqN_gain's range
  CHECK(inst.regions[1].filGain == 0.0f);
}

TEST_CASE("v2 opcodes: eqN_type peak, lshelf, hshelf per band", "[sfz][v2][eq]") {
  using ET = spindle::EqType;
  const auto inst = parse(R"(<group> eq3_type=hshelf
<region> sample=*sine eq1_type=lshelf eq2_type=peak eq1_gain=6 eq1_bw=2
<region> sample=*sine eq2_type=hshelf eq3_type=lshelf
<region> sample=*sine
)");
  REQUIRE(inst.regions.size() == 3);
  CHECK(inst.diagnostics.empty());
  const auto types = [&](size_t i) {
    const auto& eq = inst.regions[i].eq;
    return std::array<ET, 3>{eq[0].type, eq[1].type, eq[2].type};
  };
  CHECK(types(0) == std::array<ET, 3>{ET::LowShelf, ET::Peak, ET::HighShelf});
  CHECK(types(1) == std::array<ET, 3>{ET::Peak, ET::HighShelf, ET::LowShelf});
  CHECK(types(2) == std::array<ET, 3>{ET::Peak, ET::Peak, ET::HighShelf});  // the group's eq3
  CHECK(inst.regions[0].eq[0].gain == 6.0f);
  CHECK(inst.regions[0].eq[0].bw == 2.0f);
  // An unknown type or a fourth band is reported, and leaves the band a peak.
  const auto bad = parse("<region> sample=*sine eq1_type=notch eq4_type=lshelf\n");
  REQUIRE(bad.regions.size() == 1);
  CHECK(bad.diagnostics.size() == 2);
  CHECK(bad.regions[0].eq[0].type == ET::Peak);
}

TEST_CASE("v2 opcodes: direction=reverse plays the sample's reversed entry, one per file", "[sfz][v2]") {
  const auto inst = parse(R"(<region> sample=*saw key=60
<region> sample=*saw key=61 direction=reverse offset=10 end=99 loop_start=20 loop_end=79
<group> direction=reverse
<region> sample=*saw key=62
<region> sample=*sine key=63
<region> sample=*sine key=64 direction=forward
<region> sample=*saw key=65 direction=sideways
)");
  REQUIRE(inst.regions.size() == 6);
  REQUIRE(inst.samples.size() == 4);
  const int32_t saw = inst.regions[0].sampleIndex, sawReversed = inst.regions[1].sampleIndex;
  CHECK_FALSE(inst.regions[0].reverse);
  CHECK_FALSE(inst.isReversed(static_cast<std::size_t>(saw)));
  CHECK(inst.regions[1].reverse);
  CHECK(sawReversed != saw);
  CHECK(inst.isReversed(static_cast<std::size_t>(sawReversed)));
  CHECK(inst.samples.at(static_cast<std::size_t>(sawReversed)) == "*saw");  // the same file
  CHECK(inst.regions[1].reverseSampleIndex == -1);
  // offset, end and loop points are kept as written: they count in reversed frames.
  CHECK(inst.regions[1].offset == 10);
  CHECK(inst.regions[1].end == 99);
  CHECK(inst.regions[1].loopStart == 20);
  CHECK(inst.regions[1].loopEnd == 79);
  CHECK(inst.regions[2].sampleIndex == sawReversed);  // from the group; one reversed entry per file
  const int32_t sineReversed = inst.regions[3].sampleIndex;
  CHECK(inst.samples.at(static_cast<std::size_t>(sineReversed)) == "*sine");
  CHECK(inst.isReversed(static_cast<std::size_t>(sineReversed)));
  CHECK_FALSE(inst.regions[4].reverse);  // the region's direction=forward wins over the group's
  CHECK_FALSE(inst.isReversed(static_cast<std::size_t>(inst.regions[4].sampleIndex)));
  CHECK(inst.regions[5].sampleIndex == sawReversed);  // an unknown direction is ignored: the group's holds
  CHECK(inst.reversedSamples == std::vector<int32_t>{sawReversed, sineReversed});
  CHECK(countDiagnostics(inst, "not supported") == 0);
  CHECK(countDiagnostics(inst, "sideways") == 1);
}

TEST_CASE("v2 opcodes: reverse_loccN/hiccN keep the forward entry and add the reversed one", "[sfz][v2]") {
  const auto inst = parse(R"(<region> sample=*saw key=60 reverse_locc64=64 reverse_hicc64=127 reverse_hicc1=10
<region> sample=*saw key=61 direction=reverse reverse_locc64=64
)");
  REQUIRE(inst.regions.size() == 2);
  const spindle::Region& a = inst.regions[0];
  CHECK_FALSE(a.reverse);
  CHECK_FALSE(inst.isReversed(static_cast<std::size_t>(a.sampleIndex)));
  REQUIRE(a.reverseSampleIndex >= 0);
  CHECK(inst.isReversed(static_cast<std::size_t>(a.reverseSampleIndex)));
  REQUIRE(a.reverseCcs.size() == 2);
  CHECK(a.reverseCcs[0].cc == 64);
  CHECK(a.reverseCcs[0].lo == Approx(64.0 / 127.0));
  CHECK(a.reverseCcs[0].hi == 1.0f);
  CHECK(a.reverseCcs[1].cc == 1);
  CHECK(a.reverseCcs[1].lo == 0.0f);
  CHECK(a.reverseCcs[1].hi == Approx(10.0 / 127.0));
  // direction=reverse always reverses: the controller has nothing left to choose.
  CHECK(inst.regions[1].sampleIndex == a.reverseSampleIndex);
  CHECK(inst.regions[1].reverseSampleIndex == -1);
  CHECK(inst.samples.size() == 2);
  CHECK(countDiagnostics(inst, "not supported") == 0);
}

TEST_CASE("v2 opcodes: a file only played reversed keeps no forward entry", "[sfz][v2]") {
  const auto inst = parse(R"(<group> sample=kick.wav direction=reverse
<region> key=60
<region> key=61 sample=*saw
<region> key=62 sample=*sine direction=forward reverse_locc1=100
)");
  REQUIRE(inst.regions.size() == 3);
  // kick.wav reversed, *saw reversed, *sine, *sine reversed: no forward kick.wav or *saw.
  REQUIRE(inst.samples.size() == 4);
  CHECK(inst.samples[0] == "/nonexistent-spindle/inst/kick.wav");
  CHECK(inst.regions[0].sampleIndex == 0);
  CHECK(inst.samples.at(static_cast<std::size_t>(inst.regions[1].sampleIndex)) == "*saw");
  CHECK(inst.samples.at(static_cast<std::size_t>(inst.regions[2].sampleIndex)) == "*sine");
  CHECK(inst.samples.at(static_cast<std::size_t>(inst.regions[2].reverseSampleIndex)) == "*sine");
  CHECK(inst.reversedSamples == std::vector<int32_t>{0, 1, 3});
  CHECK_FALSE(inst.isReversed(static_cast<std::size_t>(inst.regions[2].sampleIndex)));
  CHECK(inst.missingSamples == std::vector<std::string>{"/nonexistent-spindle/inst/kick.wav"});
}

TEST_CASE("v2 opcodes: loop_crossfade parses in seconds, with no warning", "[sfz][v2][xfade]") {
  const auto inst = parse("<region> sample=*sine loop_mode=loop_continuous loop_crossfade=0.025\n<region> sample=*sine\n");
  REQUIRE(inst.regions.size() == 2);
  CHECK(inst.diagnostics.empty());
  CHECK(inst.unknownOpcodes.empty());
  CHECK(inst.regions[0].loopCrossfade == 0.025f);
  CHECK(inst.regions[1].loopCrossfade == 0.0f);
}

TEST_CASE("release_key, offset_mode, *_dynamic, egN_loop, polyphony by header", "[sfz][v2]") {
  const auto inst = parse(R"(<global> polyphony=16
<master> polyphony=8
<group> polyphony=4
<region> sample=*sine key=60 trigger=release_key offset=50 offset_mode=percent ampeg_dynamic=1
fileg_dynamic=1 pitcheg_dynamic=1 eg2_dynamic=1 eg2_loop=1 eg2_loop_count=3 eg2_points=5 eg2_level1=1
<region> sample=*sine key=61 polyphony=2 offset_mode=samples
<group> group=7 polyphony=3
<region> sample=*sine key=62
<group> group=7
<region> sample=*sine key=63
)");
  REQUIRE(inst.regions.size() == 4);
  CHECK(inst.diagnostics.empty());
  const spindle::Region& a = inst.regions[0];
  CHECK(a.trigger == spindle::Trigger::ReleaseKey);
  CHECK(a.offsetPercent);
  CHECK(a.offset == 50);
  CHECK((a.ampeg.dynamic == 1.0f && a.fileg.dynamic == 1.0f && a.pitcheg.dynamic == 1.0f));
  REQUIRE(a.egs.size() == 1);
  CHECK((a.egs[0].dynamic == 1.0f && a.egs[0].loop == 1.0f && a.egs[0].loopCount == 3.0f));
  CHECK((a.egs[0].pointCount == 5.0f && a.egs[0].points == 2));
  // Each header's polyphony in its own scope.
  CHECK((a.instrumentPolyphony == 16 && a.masterPolyphony == 8 && a.groupBlockPolyphony == 4));
  CHECK((a.polyphony == -1 && a.regionPolyphony == -1));
  const spindle::Region& b = inst.regions[1];
  CHECK_FALSE(b.offsetPercent);
  CHECK((b.regionPolyphony == 2 && b.groupBlockPolyphony == 4 && b.groupBlock == a.groupBlock));
  const spindle::Region& c = inst.regions[2];
  CHECK((c.polyphony == 3 && c.groupBlockPolyphony == -1 && c.group == 7));
  CHECK(c.groupBlock != a.groupBlock);
  CHECK(c.masterBlock == a.masterBlock);
  // Polyphony group 7's limit reaches the region of another <group> with group=7.
  CHECK(inst.regions[3].polyphony == 3);
  CHECK(inst.regions[3].groupBlock != c.groupBlock);
}

}  // namespace v2_opcode_tests
