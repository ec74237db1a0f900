// A zone's pitch, sample addresses, loop mode and exclusive class as region values,
// and what loadSoundFont does with a sample header that lies or a truncated file.
#include <cstring>
#include <filesystem>

#include "Sf2TestSupport.h"

namespace sound_font_zone_tests {

namespace sf2 = spindle::sf2;
using spindle::LoopMode;
using spindle::Region;
using spindle::test::amount;
using spindle::test::loadFont;
using spindle::test::oneZoneFont;
using spindle::test::range;
using spindle::test::regionFor;
using spindle::test::regionOf;
using spindle::test::Sf2Spec;

namespace {

// oneZoneFont over one sample of `frames` frames looping [loopStart, loopEnd).
Sf2Spec loopFont(std::vector<spindle::test::Sf2Gen> gens, int frames, uint32_t loopStart, uint32_t loopEnd) {
  Sf2Spec s = oneZoneFont(std::move(gens));
  s.samples[0].frames.assign(static_cast<size_t>(frames), 1000);
  s.samples[0].loopStart = loopStart;
  s.samples[0].loopEnd = loopEnd;
  return s;
}

bool mentions(const spindle::instrument::Diagnostic& d, const std::string& text) {
  return d.message.find(text) != std::string::npos || d.file.find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("root key override, coarse and fine tune, the sample's correction and scaleTuning", "[sf2][mapping]") {
  Sf2Spec s = oneZoneFont({{sf2::kOverridingRootKey, 57}, {sf2::kCoarseTune, amount(-2)}, {sf2::kFineTune, 30},
                           {sf2::kScaleTuning, 50}});
  s.samples[0].key = 69;
  s.samples[0].correction = -12;
  const Region r = regionOf(loadFont(s, "sf2-pitch"), 60, 100);
  CHECK(r.pitchKeycenter == 57);
  CHECK(r.transpose == -2);
  CHECK(r.tune == Approx(18.0));  // 30 + (-12)
  CHECK(r.pitchKeytrack == Approx(50.0));
  CHECK(r.bendFromRpn);
}

TEST_CASE("without an override the sample's original key is the root", "[sf2][mapping]") {
  Sf2Spec s = oneZoneFont({});
  s.samples[0].key = 69;
  s.samples[0].correction = 7;
  const Region r = regionOf(loadFont(s, "sf2-pitch-root"), 60, 100);
  CHECK(r.pitchKeycenter == 69);
  CHECK(r.tune == Approx(7.0));
  CHECK(r.pitchKeytrack == Approx(100.0));
  CHECK(r.transpose == 0);
}

TEST_CASE("a fixed key (keynum) plays every key as that key", "[sf2][mapping]") {
  Sf2Spec s = oneZoneFont({{sf2::kKeynum, 64}, {sf2::kScaleTuning, 50}});
  s.samples[0].key = 69;
  const Region r = regionOf(loadFont(s, "sf2-keynum"), 30, 100);
  CHECK(r.pitchKeytrack == 0.0f);
  CHECK(r.tune == Approx((64 - 69) * 50.0));  // -250 cents from the root, whatever the key
  CHECK(r.pitchKeycenter == 69);
}

TEST_CASE("sample modes: 1 loops, 3 loops until release, 0 and 2 do not", "[sf2][mapping]") {
  const std::pair<int, LoopMode> cases[] = {
      {0, LoopMode::NoLoop}, {1, LoopMode::LoopContinuous}, {2, LoopMode::NoLoop}, {3, LoopMode::LoopSustain}};
  for (const auto& [mode, want] : cases) {
    INFO("sampleModes " << mode);
    const auto inst = loadFont(loopFont({{sf2::kSampleModes, static_cast<uint16_t>(mode)}}, 1000, 100, 900), "sf2-modes");
    const Region& r = regionFor(inst, 60, 100);
    CHECK(r.loopModeSet);
    CHECK(r.loopMode == want);
    if (want != LoopMode::NoLoop) CHECK((r.loopStart == 100 && r.loopEnd == 899));  // end made inclusive
  }
}

TEST_CASE("loop address offsets, fine and coarse, move the header's loop", "[sf2][mapping]") {
  const auto fine = loadFont(loopFont({{sf2::kSampleModes, 1}, {sf2::kStartloopAddrsOffset, 10},
                                       {sf2::kEndloopAddrsOffset, amount(-20)}},
                                      1000, 100, 900),
                             "sf2-loop-fine");
  const Region& f = regionFor(fine, 60, 100);
  CHECK(f.loopStart == 110);
  CHECK(f.loopEnd == 879);
  const auto coarse = loadFont(loopFont({{sf2::kSampleModes, 1}, {sf2::kStartloopAddrsCoarseOffset, 1},
                                         {sf2::kStartloopAddrsOffset, 5}, {sf2::kEndloopAddrsCoarseOffset, amount(-1)}},
                                        70000, 100, 69000),
                               "sf2-loop-coarse");
  const Region& c = regionFor(coarse, 60, 100);
  CHECK(c.loopStart == 100 + 32768 + 5);
  CHECK(c.loopEnd == 69000 - 32768 - 1);
}

TEST_CASE("start and end address offsets become offset and end", "[sf2][mapping]") {
  const auto fine = loadFont(loopFont({{sf2::kStartAddrsOffset, 50}, {sf2::kEndAddrsOffset, amount(-100)}}, 1000, 0, 0),
                             "sf2-addr-fine");
  const Region& f = regionFor(fine, 60, 100);
  CHECK(f.offset == 50);
  CHECK(f.end == 999 - 100);
  CHECK(f.loopMode == LoopMode::NoLoop);
  const auto coarse = loadFont(loopFont({{sf2::kStartAddrsCoarseOffset, 1}, {sf2::kStartAddrsOffset, 50}}, 70000, 0, 0),
                               "sf2-addr-coarse");
  const Region& c = regionFor(coarse, 60, 100);
  CHECK(c.offset == 32768 + 50);
  CHECK(c.end == -1);  // no end offset: the sample's own end
}

TEST_CASE("a sample header outside the sample data is skipped with a warning; other zones load", "[sf2][mapping]") {
  Sf2Spec s = oneZoneFont({});
  spindle::test::Sf2Sample bad = s.samples[0];
  bad.name = "liar";
  s.samples.push_back(bad);
  s.instruments[0].zones = {{{{sf2::kKeyRange, range(0, 59)}, {sf2::kSampleID, 0}}, {}},
                            {{{sf2::kKeyRange, range(60, 127)}, {sf2::kSampleID, 1}}, {}}};
  std::vector<uint8_t> bytes = spindle::test::writeSf2(s);
  // The second header's end (record 1 of shdr, bytes 24..27) far past smpl.
  size_t shdr = 0;
  for (size_t i = 0; i + 4 <= bytes.size(); ++i)
    if (std::memcmp(bytes.data() + i, "shdr", 4) == 0) shdr = i;
  REQUIRE(shdr > 0);
  const size_t end = shdr + 8 + 46 + 24;
  bytes[end] = 0, bytes[end + 1] = 0, bytes[end + 2] = 1, bytes[end + 3] = 0;  // frame 65536
  const auto path = spindle::test::scratchDir("sf2-liar") / "liar.sf2";
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  const auto inst = sf2::loadSoundFont(path);
  REQUIRE(inst.ok);
  CHECK(inst.samples.size() == 1);
  CHECK(!inst.regions.empty());
  for (const Region& r : inst.regions) CHECK(r.hikey <= 59);
  CHECK(regionFor(inst, 40, 100).sampleIndex == 0);
  int warnings = 0;
  for (const auto& d : inst.diagnostics) {
    if (d.severity == spindle::instrument::Diagnostic::Severity::Error) FAIL("unexpected error: " << d.message);
    warnings += mentions(d, "'liar'") && mentions(d, "outside the sample data");
  }
  CHECK(warnings == 1);
}

TEST_CASE("exclusiveClass becomes group and off_by", "[sf2][mapping]") {
  const auto inst = loadFont(oneZoneFont({{sf2::kExclusiveClass, 3}}), "sf2-exclusive");
  const Region& r = regionFor(inst, 60, 100);
  CHECK(r.group == 3);
  CHECK(r.offBy == 3);
  const auto none = loadFont(oneZoneFont({}), "sf2-exclusive-none");
  CHECK(regionFor(none, 60, 100).offBy == 0);
}

TEST_CASE("loadSoundFont on a truncated file: not ok, one error naming the file", "[sf2][mapping]") {
  std::vector<uint8_t> bytes = spindle::test::writeSf2(oneZoneFont({}));
  bytes.resize(bytes.size() / 2);
  const auto path = spindle::test::scratchDir("sf2-truncated") / "cut.sf2";
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  const auto inst = sf2::loadSoundFont(path);
  CHECK(!inst.ok);
  CHECK(inst.regions.empty());
  REQUIRE(inst.diagnostics.size() == 1);
  CHECK(inst.diagnostics[0].severity == spindle::instrument::Diagnostic::Severity::Error);
  CHECK(inst.diagnostics[0].message.find(path.string()) != std::string::npos);
}

}  // namespace sound_font_zone_tests
