// Files, headers, levels, labels: <master>, <curve>, <midi>, <effect>, the
// header levels (global_volume...), values kept beyond the reference's range, labels.
#include "TestUtil.h"
#include "catch.h"
#include "sfz/Parser.h"

namespace header_levels_tests {

using spindle::test::countDiagnostics;
using spindle::test::findDiagnostic;
namespace instrument = spindle::instrument;
namespace sfz = spindle::sfz;

namespace {
const std::filesystem::path kVirtual = "/nonexistent-spindle/inst/levels.sfz";

instrument::Instrument parse(std::string_view text) { return sfz::loadString(text, kVirtual); }

const spindle::controllers::KeyLabel* keyLabel(const instrument::Instrument& inst, int key) {
  for (const auto& l : inst.keyLabels)
    if (l.key == key) return &l;
  return nullptr;
}
}  // namespace

TEST_CASE("<master> sits between <global> and <group> with its own inheritance", "[sfz][headers]") {
  const auto inst = parse(R"(<global> tune=3 pan=10
<master> pan=20 width=50
<group> width=60
<region> sample=*sine key=60
<master> volume=-2
<region> sample=*sine key=61
<group> transpose=1
<region> sample=*sine key=62
)");
  REQUIRE(inst.regions.size() == 3);
  CHECK(inst.regions[0].pan == 20.0f);
  CHECK(inst.regions[0].width == 60.0f);
  // A new <master> forgets the old master and its groups, keeps the global.
  CHECK(inst.regions[1].pan == 10.0f);
  CHECK(inst.regions[1].width == 100.0f);
  CHECK(inst.regions[1].volume == -2.0f);
  CHECK(inst.regions[1].tune == 3.0f);
  CHECK(inst.regions[2].volume == -2.0f);
  CHECK(inst.regions[2].transpose == 1);
  CHECK(inst.diagnostics.empty());
}

TEST_CASE("<curve> points are interpolated between the given ones", "[sfz][headers]") {
  const auto inst = parse("<curve> curve_index=9 v000=0 v032=0.8 v096=0.2\n<region> sample=*sine\n");
  REQUIRE(inst.curves.size() == 1);
  const auto& p = inst.curves[0].points;
  CHECK(inst.curves[0].index == 9);
  CHECK(p[16] == Approx(0.4f));
  CHECK(p[32] == Approx(0.8f));
  CHECK(p[64] == Approx(0.5f));
  CHECK(p[96] == Approx(0.2f));
  CHECK(p[127] == Approx(1.0f));  // v127 not given: 1
  CHECK(p[112] == Approx(0.2f + 0.8f * 16.0f / 31.0f));
}

TEST_CASE("<midi> is kept like <effect>; label opcodes in it apply", "[sfz][headers]") {
  const auto inst = parse(R"(<midi> label_cc20=Breath bus=midi
<effect> type=strings
<region> sample=*sine
)");
  REQUIRE(inst.effects.size() == 2);
  CHECK(inst.effects[0].header == "midi");
  REQUIRE(inst.effects[0].opcodes.size() == 1);
  CHECK(inst.effects[0].opcodes[0].first == "bus");
  CHECK(inst.effects[1].header == "effect");
  REQUIRE(inst.controllerLabels.size() == 1);
  CHECK(inst.controllerLabels[0].label == "Breath");
  CHECK(countDiagnostics(inst, "MIDI effects are not played") == 1);
  CHECK(countDiagnostics(inst, "effect type 'strings' is not played") == 1);
  CHECK(inst.unknownOpcodes.empty());
}

TEST_CASE("global/master/group volume, amplitude and tune combine with the region's", "[sfz][levels]") {
  const auto inst = parse(R"(<global> global_volume=-6 global_amplitude=50 global_tune=100
<master> master_volume=2 master_amplitude=80
<group> group_volume=-1 volume=-3 group_tune=-20 tune=5
<region> sample=*sine key=60
<region> sample=*sine key=61 volume=4 amplitude=50 group_volume=0
)");
  REQUIRE(inst.regions.size() == 2);
  CHECK(inst.regions[0].volume == Approx(-6.0f + 2.0f - 1.0f - 3.0f));
  CHECK(inst.regions[0].amplitude == Approx(100.0f * 0.5f * 0.8f));
  CHECK(inst.regions[0].tune == Approx(100.0f - 20.0f + 5.0f));
  CHECK(inst.regions[1].volume == Approx(-6.0f + 2.0f + 0.0f + 4.0f));
  CHECK(inst.regions[1].amplitude == Approx(50.0f * 0.5f * 0.8f));
  CHECK(inst.diagnostics.empty());
}

TEST_CASE("values beyond the reference the engine plays are kept with a warning", "[sfz][levels]") {
  const auto inst = parse(R"(<region> sample=*sine volume=14
<region> sample=*sine volume=90 group_volume=30
<region> sample=*sine amplitude=200 tune=-150 fil_keytrack=-600 pan=150
)");
  REQUIRE(inst.regions.size() == 3);
  CHECK(inst.regions[0].volume == 14.0f);
  const auto* kept = findDiagnostic(inst, "'volume': value '14' beyond the reference range [-144, 6], kept");
  REQUIRE(kept);
  CHECK(kept->file == kVirtual.string());
  CHECK(kept->line == 1);
  // Beyond the engine's own limit (+48 dB): clamped there, said so.
  CHECK(inst.regions[1].volume == 48.0f + 30.0f);
  CHECK(countDiagnostics(inst, "'volume': value '90' out of range [-144, 6], clamped to 48") == 1);
  CHECK(countDiagnostics(inst, "'group_volume': value '30' beyond the reference range") == 1);
  CHECK(inst.regions[2].amplitude == 200.0f);
  CHECK(inst.regions[2].tune == -150.0f);
  CHECK(inst.regions[2].filKeytrack == -600.0f);
  CHECK(inst.regions[2].pan == 100.0f);  // pan keeps its clamp
  CHECK(countDiagnostics(inst, "'pan': value '150' out of range [-100, 100], clamped") == 1);
}

TEST_CASE("label_cc, label_key and sw_label reach the instrument's label lists", "[sfz][labels]") {
  const auto inst = parse(R"(<control> label_cc7=Volume label_cc10=Pan label_key36=Kick drum
label_cc7=Main volume label_cc226=Room mic label_cc600=Bad label_key200=Bad
<group> sw_last=24 sw_label=Sustain
<region> sample=*sine key=60
<group> sw_last=25
<region> sample=*sine key=60 sw_label=Staccato
<region> sample=*sine key=61
)");
  REQUIRE(inst.controllerLabels.size() == 3);
  CHECK(inst.controllerLabels[0].cc == 7);
  CHECK(inst.controllerLabels[0].label == "Main volume");  // the last one wins
  CHECK(inst.controllerLabels[1].label == "Pan");
  CHECK(inst.controllerLabels[2].cc == 226);
  CHECK(inst.controllerLabels[2].label == "Room mic");
  REQUIRE(keyLabel(inst, 36));
  CHECK(keyLabel(inst, 36)->label == "Kick drum");
  CHECK_FALSE(keyLabel(inst, 36)->keyswitch);
  REQUIRE(keyLabel(inst, 24));
  CHECK(keyLabel(inst, 24)->label == "Sustain");
  CHECK(keyLabel(inst, 24)->keyswitch);
  REQUIRE(keyLabel(inst, 25));
  CHECK(keyLabel(inst, 25)->label == "Staccato");
  CHECK(inst.keyLabels.size() == 3);
  CHECK(countDiagnostics(inst, "'label_cc600': controller out of range") == 1);
  CHECK(countDiagnostics(inst, "'label_key200': key out of range") == 1);
  CHECK(findDiagnostic(inst, "label_key200")->line == 2);
  CHECK(countDiagnostics(inst, "not supported") == 0);
}

TEST_CASE("header labels name each region, outermost first", "[sfz][labels]") {
  const auto inst = parse(R"(<global> global_label=Kit
<master> master_label=Snare
<group> group_label=Rim
<region> sample=*sine key=38 region_label=Close mic
<region> sample=*sine key=39
<master>
<region> sample=*sine key=40
)");
  REQUIRE(inst.origins.size() == 3);
  CHECK(inst.origins[0].label == "Kit / Snare / Rim / Close mic");
  CHECK(inst.origins[1].label == "Kit / Snare / Rim");
  CHECK(inst.origins[2].label == "Kit");
  CHECK(inst.diagnostics.empty());
}

}  // namespace header_levels_tests
