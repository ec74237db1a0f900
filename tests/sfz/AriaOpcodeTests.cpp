// ARIA opcodes read by the parser: pan/position randomness and tracking, resonance_random,
// sw_lolast/sw_hilast, sw_note_offset/sw_octave_offset, hint_* and label_outputN.
// What the engine does with them is tested in tests/engine/core/AriaOpcodeTests.cpp.
#include "TestUtil.h"
#include "catch.h"
#include "sfz/Parser.h"

namespace aria_opcode_tests {

using spindle::test::countDiagnostics;
namespace instrument = spindle::instrument;
namespace sfz = spindle::sfz;

namespace {
const std::filesystem::path kVirtual = "/nonexistent-spindle/inst/aria.sfz";

instrument::Instrument parse(std::string_view text) { return sfz::loadString(text, kVirtual); }
}  // namespace

TEST_CASE("pan_random, position_* and resonance_random fill the region, clamped to the reference", "[sfz][aria]") {
  const auto inst = parse(R"(<region> sample=*sine pan_random=25 position_random=-40 position_keycenter=c5
position_keytrack=2.5 position_veltrack=-150 resonance_random=6.5
<region> sample=*sine pan_random=300 position_veltrack=500 resonance_random=-3 position_keytrack=-900
)");
  REQUIRE(inst.regions.size() == 2);
  const auto& r = inst.regions[0];
  CHECK(r.panRandom == 25.0f);
  CHECK(r.positionRandom == -40.0f);
  CHECK(r.positionKeycenter == 72);
  CHECK(r.positionKeytrack == 2.5f);
  CHECK(r.positionVeltrack == -150.0f);
  CHECK(r.resonanceRandom == 6.5f);
  const auto& c = inst.regions[1];
  CHECK(c.panRandom == 100.0f);
  CHECK(c.positionVeltrack == 200.0f);
  CHECK(c.resonanceRandom == 0.0f);
  CHECK(c.positionKeytrack == -100.0f);
  CHECK(c.positionKeycenter == 60);  // default, as pan_keycenter
  CHECK(countDiagnostics(inst, "clamped") == 4);
  CHECK(countDiagnostics(inst, "not supported") == 0);
}

TEST_CASE("sw_lolast/sw_hilast: a range; a lone bound is a range of one key", "[sfz][aria]") {
  const auto inst = parse(R"(<region> sample=*sine sw_lolast=24 sw_hilast=c2
<region> sample=*sine sw_lolast=30
<region> sample=*sine sw_hilast=31
<region> sample=*sine sw_lolast=40 sw_hilast=35
<region> sample=*sine
)");
  REQUIRE(inst.regions.size() == 5);
  CHECK(inst.regions[0].swLolast == 24);
  CHECK(inst.regions[0].swHilast == 36);
  CHECK(inst.regions[1].swLolast == 30);
  CHECK(inst.regions[1].swHilast == 30);
  CHECK(inst.regions[2].swLolast == 31);
  CHECK(inst.regions[2].swHilast == 31);
  CHECK(inst.regions[3].swLolast == 35);  // put in order
  CHECK(inst.regions[3].swHilast == 40);
  CHECK(inst.regions[4].swLolast == -1);
  CHECK(inst.regions[4].swHilast == -1);
}

TEST_CASE("sw_note_offset/sw_octave_offset shift keyswitch opcodes only, on top of note_offset", "[sfz][aria]") {
  const auto inst = parse(R"(<control> sw_octave_offset=1 sw_note_offset=-2
<region> sample=*sine key=60 sw_last=24 sw_lokey=24 sw_hikey=30 sw_down=25 sw_up=26 sw_previous=27
sw_default=28 sw_lolast=24 sw_hilast=29 pitch_keycenter=60
<control> note_offset=1 sw_note_offset=3
<region> sample=*sine key=60 sw_last=24
<control>
<region> sample=*sine key=60 sw_last=24
)");
  REQUIRE(inst.regions.size() == 3);
  const auto& r = inst.regions[0];
  CHECK(r.lokey == 60);
  CHECK(r.pitchKeycenter == 60);
  CHECK(r.swLast == 34);
  CHECK(r.swLokey == 34);
  CHECK(r.swHikey == 40);
  CHECK(r.swDown == 35);
  CHECK(r.swUp == 36);
  CHECK(r.swPrevious == 37);
  CHECK(r.swDefault == 38);
  CHECK(inst.swDefault == 38);
  CHECK(r.swLolast == 34);
  CHECK(r.swHilast == 39);
  // A new <control> resets the offsets; note_offset moves keyswitches too.
  CHECK(inst.regions[1].lokey == 61);
  CHECK(inst.regions[1].swLast == 28);
  CHECK(inst.regions[2].swLast == 24);
  CHECK(countDiagnostics(inst, "sw_") == 0);
}

TEST_CASE("hint_* opcodes are read silently; label_outputN names outputs", "[sfz][aria]") {
  const auto inst = parse(R"(<control> hint_ram_based=1 hint_load_method=2 label_output0=Main label_output2=Room
label_output2=Overheads label_output2000=Far
<global> hint_stealing=1
<region> sample=*sine hint_sustain_pedal=0 output=2
)");
  REQUIRE(inst.regions.size() == 1);
  CHECK(countDiagnostics(inst, "hint_") == 0);
  CHECK(inst.unknownOpcodes.empty());
  REQUIRE(inst.outputLabels.size() == 2);
  CHECK(inst.outputLabels[0].output == 0);
  CHECK(inst.outputLabels[0].label == "Main");
  CHECK(inst.outputLabels[1].output == 2);
  CHECK(inst.outputLabels[1].label == "Overheads");
  CHECK(countDiagnostics(inst, "label_output2000") == 1);
}

}  // namespace aria_opcode_tests
