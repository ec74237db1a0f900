// Headers, inheritance, opcode values, clamping, curves: inline SFZ text.
#include "Fixtures.h"
#include "TestUtil.h"
#include "catch.h"
#include "sfz/Parser.h"

namespace parser_tests {

using spindle::test::countDiagnostics;
using spindle::test::findDiagnostic;
namespace instrument = spindle::instrument;
namespace sfz = spindle::sfz;

namespace {
const std::filesystem::path kVirtual = "/nonexistent-spindle/inst/test.sfz";

instrument::Instrument parse(std::string_view text) { return sfz::loadString(text, kVirtual); }
}  // namespace

TEST_CASE("header inheritance: global -> master -> group -> region, with resets", "[sfz][parser]") {
  const auto inst = parse(R"(<global> volume=-3 width=40
<master> pan=30
<group> delay=1
<region> sample=*sine key=60
<region> sample=*sine key=61 delay=2
<group> ampeg_release=5
<region> sample=*sine key=62
<master> pan=-10
<region> sample=*sine key=63
<global> tune=5
<region> sample=*sine key=64
)");
  REQUIRE(inst.ok);
  REQUIRE(inst.regions.size() == 5);
  const auto& r = inst.regions;
  CHECK(r[0].volume == -3.0f);
  CHECK(r[0].width == 40.0f);
  CHECK(r[0].pan == 30.0f);
  CHECK(r[0].delay == 1.0f);
  CHECK(r[1].delay == 2.0f);  // region overrides group
  CHECK(r[2].delay == 0.0f);  // new <group> dropped delay=1
  CHECK(r[2].ampeg.release == 5.0f);
  CHECK(r[2].pan == 30.0f);  // master kept
  CHECK(r[3].pan == -10.0f);
  CHECK(r[3].ampeg.release == Approx(0.001f));  // new <master> reset the group too
  CHECK(r[3].volume == -3.0f);                    // global kept
  CHECK(r[4].volume == 0.0f);                     // new <global> reset everything
  CHECK(r[4].pan == 0.0f);
  CHECK(r[4].tune == 5.0f);
  REQUIRE(inst.origins.size() == 5);
  CHECK(inst.origins[3].line == 9);
  CHECK(inst.origins[3].file == kVirtual.string());
  CHECK(inst.name == "test");
}

TEST_CASE("a region without a sample is skipped with a diagnostic", "[sfz][parser]") {
  const auto inst = parse("<region> key=60\n<region> sample=*sine key=61\n\n<region> lokey=1\n");
  REQUIRE(inst.regions.size() == 1);
  CHECK(inst.regions[0].lokey == 61);
  CHECK(countDiagnostics(inst, "without sample") == 2);
  const auto* d = findDiagnostic(inst, "without sample");
  REQUIRE(d);
  CHECK(d->line == 1);
  CHECK(d->file == kVirtual.string());
}

TEST_CASE("key sets lokey, hikey and pitch_keycenter; note names", "[sfz][parser]") {
  const auto inst = parse(R"(<region> sample=*sine key=c4
<region> sample=*sine key=60 pitch_keycenter=62
<region> sample=*sine lokey=C#4 hikey=db5 pitch_keycenter=sample
<region> sample=*sine lokey=c-1 hikey=G9 sw_last=a0 amp_keycenter=e3 fil_keycenter=b#3
)");
  REQUIRE(inst.regions.size() == 4);
  CHECK(inst.regions[0].lokey == 60);
  CHECK(inst.regions[0].hikey == 60);
  CHECK(inst.regions[0].pitchKeycenter == 60);
  CHECK(inst.regions[1].pitchKeycenter == 62);
  CHECK(inst.regions[1].lokey == 60);
  CHECK(inst.regions[2].lokey == 61);
  CHECK(inst.regions[2].hikey == 73);
  CHECK(inst.regions[2].pitchKeycenterFromKey);
  CHECK_FALSE(inst.regions[1].pitchKeycenterFromKey);
  CHECK(inst.regions[3].lokey == 0);
  CHECK(inst.regions[3].hikey == 127);
  CHECK(inst.regions[3].swLast == 21);
  CHECK(inst.regions[3].ampKeycenter == 52);
  CHECK(inst.regions[3].filKeycenter == 60);  // b#3 is c4
}

TEST_CASE("octave_offset and note_offset in <control> shift note values", "[sfz][parser]") {
  const auto inst = parse(R"(<region> sample=*sine key=c4
<control> octave_offset=-1
<region> sample=*sine key=c4
<control> octave_offset=1 note_offset=-2
<region> sample=*sine lokey=60 hikey=d4 pitch_keycenter=c4
)");
  REQUIRE(inst.regions.size() == 3);
  CHECK(inst.regions[0].lokey == 60);
  CHECK(inst.regions[1].lokey == 48);
  CHECK(inst.regions[1].pitchKeycenter == 48);
  CHECK(inst.regions[2].lokey == 70);
  CHECK(inst.regions[2].hikey == 72);
  CHECK(inst.regions[2].pitchKeycenter == 70);
}

TEST_CASE("values are clamped to the reference ranges, with a diagnostic (volume and tune kept)", "[sfz][parser]") {
  const auto inst = parse(R"(<region> sample=*sine volume=20 pan=-300 lovel=0 hikey=200 seq_length=0
tune=250 cutoff=-5 resonance=99 ampeg_attack=1000 amplfo_freq=50 pitchlfo_depth=5000
fileg_depth=-20000 lorand=-1 hirand=2 transpose=300 offset=-10 bend_step=0 lochan=0 hichan=17
amp_velcurve_10=3 xfin_hivel=300 amp_keytrack=50 rt_decay=500 group=3000000000
)");
  REQUIRE(inst.regions.size() == 1);
  const auto& r = inst.regions[0];
  CHECK(r.volume == 20.0f);  // beyond the reference, kept: see the levels tests
  CHECK(r.pan == -100.0f);
  CHECK(r.lovel == 1);
  CHECK(r.hikey == 127);
  CHECK(r.seqLength == 1);
  CHECK(r.tune == 250.0f);
  CHECK(r.cutoff == 0.0f);
  CHECK(r.resonance == 40.0f);
  CHECK(r.ampeg.attack == 100.0f);
  CHECK(r.amplfo.freq == 20.0f);
  CHECK(r.pitchlfo.depth == 1200.0f);
  CHECK(r.fileg.depth == -12000.0f);
  CHECK(r.lorand == 0.0f);
  CHECK(r.hirand == 1.0f);
  CHECK(r.transpose == 127);
  CHECK(r.offset == 0);
  CHECK(r.bendStep == 1);
  CHECK(r.lochan == 1);
  CHECK(r.hichan == 16);
  CHECK(r.ampVelcurve[10] == 1.0f);
  CHECK(r.xfinHivel == 127);
  CHECK(r.ampKeytrack == 12.0f);
  CHECK(r.rtDecay == 200.0f);
  CHECK(r.group == 2147483647);
  CHECK(countDiagnostics(inst, "out of range") == 22);
  CHECK(countDiagnostics(inst, "beyond the reference range") == 2);
  const auto* d = findDiagnostic(inst, "'tune'");
  REQUIRE(d);
  CHECK(d->line == 2);
}

TEST_CASE("amp_velcurve_N builds a 128-entry table", "[sfz][parser]") {
  const auto inst = parse(R"(<region> sample=*sine amp_velcurve_64=0.8
<region> sample=*sine amp_velcurve_0=0.2 amp_velcurve_127=0.5
<region> sample=*sine
)");
  REQUIRE(inst.regions.size() == 3);
  const auto& a = inst.regions[0];
  REQUIRE(a.hasAmpVelcurve);
  CHECK(a.ampVelcurve[0] == 0.0f);
  CHECK(a.ampVelcurve[32] == Approx(0.4f));
  CHECK(a.ampVelcurve[64] == Approx(0.8f));
  CHECK(a.ampVelcurve[96] == Approx(0.8f + 0.2f * 32.0f / 63.0f));
  CHECK(a.ampVelcurve[127] == 1.0f);
  const auto& b = inst.regions[1];
  CHECK(b.ampVelcurve[0] == Approx(0.2f));
  CHECK(b.ampVelcurve[127] == Approx(0.5f));
  CHECK(b.ampVelcurve[127 / 2 + 1] == Approx(0.2f + 0.3f * 64.0f / 127.0f));
  CHECK_FALSE(inst.regions[2].hasAmpVelcurve);
}

TEST_CASE("opcodes fill their Region fields, aliases included", "[sfz][parser]") {
  const auto inst = parse(R"(<region> sample=*sine
offset=100 offset_random=7 end=5000 count=3 loopmode=loop_sustain loopstart=10 loopend=400
delay=0.5 delay_random=0.25 lovel=10 hivel=90 lochan=2 hichan=3 lobend=-100 hibend=100
lorand=0.2 hirand=0.4 seq_length=4 seq_position=2 trigger=release sw_lokey=24 sw_hikey=30
sw_last=25 sw_down=26 sw_up=27 sw_previous=28 sw_default=25 polyphony_group=4 offby=5
off_mode=normal polyphony=3 note_polyphony=2 rt_decay=6 output=2 amplitude=50 position=10
amp_veltrack=80 amp_keytrack=-3 amp_keycenter=50 gain_random=2 pitch_keytrack=50
tune_veltrack=300 tune_random=20 pitch=-7 transpose=12 bendup=1200 benddown=-400 bendstep=100
filtype=hpf_1p resonance=3 fil_keytrack=100 fil_veltrack=-200 cutoff_random=30
xfin_lokey=10 xfin_hikey=20 xfout_lokey=30 xfout_hikey=40 xfin_lovel=5 xfin_hivel=15
xfout_lovel=25 xfout_hivel=35 xf_keycurve=gain xf_velcurve=power
amp_attack=0.1 ampeg_start=5 amp_hold=0.2 ampeg_decay=0.3 amp_sustain=50 ampeg_release=0.4 ampeg_delay=0.05
amp_vel2attack=-0.1 ampeg_vel2release=0.5 fileg_depth=1200 fil_vel2depth=-600 fil_sustain=20
pitch_depth=-100 pitcheg_vel2depth=50 pitch_attack=1 fillfo_freq=3 fillfo_depth=600
amplfo_delay=1 amplfo_fade=2 amplfo_freq=4 amplfo_depth=-3 pitchlfo_freq=5 pitchlfo_depth=30
)");
  REQUIRE(inst.regions.size() == 1);
  const auto& r = inst.regions[0];
  CHECK(r.offset == 100);
  CHECK(r.offsetRandom == 7);
  CHECK(r.end == 5000);
  CHECK(r.count == 3);
  CHECK(r.loopMode == spindle::LoopMode::LoopSustain);
  CHECK(r.loopModeSet);
  CHECK(r.loopStart == 10);
  CHECK(r.loopEnd == 400);
  CHECK(r.delay == 0.5f);
  CHECK(r.delayRandom == 0.25f);
  CHECK((r.lovel == 10 && r.hivel == 90 && r.lochan == 2 && r.hichan == 3));
  CHECK((r.lobend == -100 && r.hibend == 100));
  CHECK(r.lorand == Approx(0.2f));
  CHECK(r.hirand == Approx(0.4f));
  CHECK((r.seqLength == 4 && r.seqPosition == 2));
  CHECK(r.trigger == spindle::Trigger::Release);
  CHECK((r.swLokey == 24 && r.swHikey == 30 && r.swLast == 25 && r.swDown == 26));
  CHECK((r.swUp == 27 && r.swPrevious == 28 && r.swDefault == 25));
  CHECK(inst.swDefault == 25);
  CHECK((r.group == 4 && r.offBy == 5 && r.offMode == spindle::OffMode::Normal));
  CHECK((r.polyphony == 3 && r.notePolyphony == 2 && r.output == 2));
  CHECK(r.rtDecay == 6.0f);
  CHECK((r.amplitude == 50.0f && r.position == 10.0f && r.ampVeltrack == 80.0f));
  CHECK((r.ampKeytrack == -3.0f && r.ampKeycenter == 50 && r.ampRandom == 2.0f));
  CHECK((r.pitchKeytrack == 50.0f && r.pitchVeltrack == 300.0f && r.pitchRandom == 20.0f));
  CHECK((r.tune == -7.0f && r.transpose == 12));
  CHECK((r.bendUp == 1200.0f && r.bendDown == -400.0f && r.bendStep == 100));
  CHECK(r.filType == spindle::FilterType::Hpf1p);
  CHECK(r.cutoff < 0.0f);
  CHECK((r.resonance == 3.0f && r.filKeytrack == 100.0f && r.filVeltrack == -200.0f && r.filRandom == 30.0f));
  CHECK((r.xfinLokey == 10 && r.xfinHikey == 20 && r.xfoutLokey == 30 && r.xfoutHikey == 40));
  CHECK((r.xfinLovel == 5 && r.xfinHivel == 15 && r.xfoutLovel == 25 && r.xfoutHivel == 35));
  CHECK(r.xfKeycurve == spindle::CrossfadeCurve::Gain);
  CHECK(r.xfVelcurve == spindle::CrossfadeCurve::Power);
  CHECK(r.ampeg.attack == Approx(0.1f));
  CHECK(r.ampeg.start == 5.0f);
  CHECK(r.ampeg.hold == Approx(0.2f));
  CHECK(r.ampeg.decay == Approx(0.3f));
  CHECK(r.ampeg.sustain == 50.0f);
  CHECK(r.ampeg.release == Approx(0.4f));
  CHECK(r.ampeg.delay == Approx(0.05f));
  CHECK(r.ampeg.vel2attack == Approx(-0.1f));
  CHECK(r.ampeg.vel2release == Approx(0.5f));
  CHECK((r.fileg.depth == 1200.0f && r.fileg.vel2depth == -600.0f && r.fileg.sustain == 20.0f));
  CHECK((r.pitcheg.depth == -100.0f && r.pitcheg.vel2depth == 50.0f && r.pitcheg.attack == 1.0f));
  CHECK((r.fillfo.freq == 3.0f && r.fillfo.depth == 600.0f));
  CHECK((r.amplfo.delay == 1.0f && r.amplfo.fade == 2.0f && r.amplfo.freq == 4.0f && r.amplfo.depth == -3.0f));
  CHECK((r.pitchlfo.freq == 5.0f && r.pitchlfo.depth == 30.0f));
  CHECK(inst.diagnostics.empty());
}

TEST_CASE("locc/hicc conditions, cutoff implies lpf_2p, unsupported option values", "[sfz][parser]") {
  const auto inst = parse(R"(<group> hicc64=63 locc1=10
<region> sample=*sine locc64=5 cutoff=500
<region> sample=*sine fil_type=comb trigger=release_tuesday loop_mode=sideways
)");
  REQUIRE(inst.regions.size() == 2);
  const auto& a = inst.regions[0];
  REQUIRE(a.ccConditions.size() == 2);
  CHECK((a.ccConditions[0].cc == 64 && a.ccConditions[0].lo == 5 / 127.0f && a.ccConditions[0].hi == 63 / 127.0f));
  CHECK((a.ccConditions[1].cc == 1 && a.ccConditions[1].lo == 10 / 127.0f && a.ccConditions[1].hi == 1.0f));
  CHECK(a.filType == spindle::FilterType::Lpf2p);
  CHECK(a.cutoff == 500.0f);
  const auto& b = inst.regions[1];
  CHECK(b.filType == spindle::FilterType::None);
  CHECK(b.trigger == spindle::Trigger::Attack);
  CHECK_FALSE(b.loopModeSet);
  CHECK(countDiagnostics(inst, "unsupported value") == 3);
}

TEST_CASE("<curve> headers give 128-point curves", "[sfz][parser]") {
  const auto inst = parse("<curve> curve_index=7 v000=1 v127=0\n<curve> v064=1\n<region> sample=*sine\n");
  REQUIRE(inst.curves.size() == 1);
  CHECK(inst.curves[0].index == 7);
  CHECK(inst.curves[0].points[0] == 1.0f);
  CHECK(inst.curves[0].points[127] == 0.0f);
  CHECK(inst.curves[0].points[127 - 32] == Approx(32.0f / 127.0f));
  CHECK(countDiagnostics(inst, "without curve_index") == 1);
  CHECK(inst.regions.size() == 1);
}

TEST_CASE("<effect> is kept; a type not played is said once per name; <sample> is reported once and skipped",
          "[sfz][parser]") {
  const auto inst = parse(R"(<region> sample=*sine
<effect> type=strings bogus_fx=1
<effect> type=chorus
<sample> name=x.wav base64data=AAAA==
<region> sample=*noise
)");
  CHECK(inst.regions.size() == 2);
  CHECK(countDiagnostics(inst, "is not played by Spindle") == 2);
  CHECK(countDiagnostics(inst, "<sample> is not supported") == 1);
  CHECK(inst.unknownOpcodes == std::vector<std::string>{"bogus_fx"});
  CHECK(findDiagnostic(inst, "effect type 'strings'")->line == 2);
  CHECK(inst.buses.effects.empty());
  REQUIRE(inst.effects.size() == 2);
  CHECK(inst.effects[0].opcodes.size() == 2);
  CHECK(inst.effects[0].opcodes[1].first == "bogus_fx");
  CHECK(inst.effects[1].opcodes[0].second == "chorus");
}

TEST_CASE("unknown opcodes are reported once with file and line; unsupported ones too", "[sfz][parser]") {
  const auto inst = parse(R"(<region> sample=*sine
engine_color=organic
<region> sample=*sine engine_color=warm polyphony_stealing=2
<region> sample=*sine polyphony_stealing=4 bitred=100 decim=200 hint_ram_based=1
)");
  CHECK(inst.regions.size() == 3);
  REQUIRE(inst.unknownOpcodes == std::vector<std::string>{"engine_color"});
  REQUIRE(countDiagnostics(inst, "engine_color") == 1);
  const auto* d = findDiagnostic(inst, "engine_color");
  CHECK(d->line == 2);
  CHECK(d->file == kVirtual.string());
  CHECK(countDiagnostics(inst, "'polyphony_stealing' is not supported") == 1);
  CHECK(findDiagnostic(inst, "polyphony_stealing")->line == 3);
  CHECK(countDiagnostics(inst, "'bitred' is not supported") == 1);
  CHECK(countDiagnostics(inst, "hint_ram_based") == 0);  // ARIA player hints: read silently
}

TEST_CASE("malformed text is reported with its line; the rest keeps parsing", "[sfz][parser]") {
  const auto inst = parse(R"(<region> sample=*sine key=60
garbage here
<region sample=*sine
<region> sample=*sine key=notanumber volume=-6
=5 <region> sample=*noise lokey=70
)");
  REQUIRE(inst.regions.size() == 3);
  CHECK(inst.regions[1].lokey == 0);
  CHECK(inst.regions[1].volume == -6.0f);
  CHECK(inst.regions[2].lokey == 70);
  REQUIRE(findDiagnostic(inst, "garbage"));
  CHECK(findDiagnostic(inst, "garbage")->line == 2);
  CHECK(findDiagnostic(inst, "malformed header")->line == 3);
  CHECK(findDiagnostic(inst, "notanumber")->line == 4);
  CHECK(findDiagnostic(inst, "'=5'")->line == 5);
}

TEST_CASE("regions with key=-1 are skipped (cc-triggered regions are not supported)", "[sfz][parser]") {
  const auto inst = parse("<group> lokey=-1 hikey=-1\n<region> sample=*sine\n<region> sample=*sine key=40\n");
  REQUIRE(inst.regions.size() == 1);
  CHECK(inst.regions[0].lokey == 40);
  CHECK(countDiagnostics(inst, "skipped") == 1);
}

TEST_CASE("an unreadable file gives ok=false and an error naming it", "[sfz][parser]") {
  const auto inst = sfz::loadFile("/nonexistent-spindle/missing.sfz");
  CHECK_FALSE(inst.ok);
  REQUIRE_FALSE(inst.diagnostics.empty());
  CHECK(inst.diagnostics[0].severity == instrument::Diagnostic::Severity::Error);
  CHECK(inst.diagnostics[0].file == "/nonexistent-spindle/missing.sfz");
  CHECK(inst.diagnostics[0].message.find("missing.sfz") != std::string::npos);
}

}  // namespace parser_tests
