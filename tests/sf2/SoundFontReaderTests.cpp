// The SoundFont reader: a file the tests write, the TimGM6mb fixture, and files that lie.
#include <cstring>
#include <string>
#include <vector>

#include "Fixtures.h"
#include "Sf2Writer.h"
#include "catch.h"
#include "sf2/Riff.h"
#include "sf2/SoundFont.h"

namespace sound_font_reader_tests {

namespace sf2 = spindle::sf2;
using spindle::sf2::le32;
using spindle::test::range;
using spindle::test::Sf2Spec;

namespace {

Sf2Spec twoPresets() {
  Sf2Spec s;
  s.name = "Two presets";
  s.samples.push_back({"sine", std::vector<int16_t>(100, 1000), 22050, 69, -12, 10, 90, {}, {}});
  s.samples.push_back({"saw", std::vector<int16_t>(50, -500), 44100, 60, 3, 0, 0, {}, {}});
  spindle::test::Sf2Instrument piano{"Piano", {}};
  piano.zones.push_back({{{sf2::kReleaseVolEnv, static_cast<uint16_t>(-1200)}}, {}});  // global zone
  piano.zones.push_back({{{sf2::kKeyRange, range(0, 63)}, {sf2::kVelRange, range(1, 100)},
                          {sf2::kOverridingRootKey, 57}, {sf2::kSampleID, 0}},
                         {{0x0502, sf2::kInitialAttenuation, 960, 0, 0}}});
  piano.zones.push_back({{{sf2::kKeyRange, range(64, 127)}, {sf2::kSampleID, 1}}, {}});
  s.instruments.push_back(piano);
  s.instruments.push_back({"Drum", {{{{sf2::kSampleID, 1}}, {}}}});
  s.presets.push_back({"Grand", 0, 0, {{{{sf2::kPan, static_cast<uint16_t>(-250)}}, {}}, {{{sf2::kInstrument, 0}}, {}}}});
  s.presets.push_back({"Kit", 0, 128, {{{{sf2::kKeyRange, range(35, 81)}, {sf2::kInstrument, 1}}, {}}}});
  return s;
}

sf2::ReadResult read(const std::vector<uint8_t>& bytes) { return sf2::readSoundFont(bytes, "test.sf2"); }

void putLe32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
}

size_t find(const std::vector<uint8_t>& b, const char* tag) {
  for (size_t i = 0; i + 4 <= b.size(); ++i)
    if (std::memcmp(b.data() + i, tag, 4) == 0) return i;
  FAIL("no chunk " << tag);
  return 0;
}

}  // namespace

TEST_CASE("A written SoundFont reads back: presets, instruments, zones, generators, modulators, samples") {
  const auto bytes = spindle::test::writeSf2(twoPresets());
  CHECK(sf2::looksLikeSoundFont(bytes));
  const auto r = read(bytes);
  REQUIRE(r.error.empty());
  const sf2::SoundFont& f = *r.font;
  CHECK(f.name == "Two presets");
  CHECK((f.versionMajor == 2 && f.versionMinor == 4));
  REQUIRE(f.samples.size() == 2);
  CHECK(f.samples[0].name == "sine");
  CHECK((f.samples[0].start == 0 && f.samples[0].end == 100 && f.samples[0].loopStart == 10 && f.samples[0].loopEnd == 90));
  CHECK((f.samples[0].rate == 22050 && f.samples[0].originalKey == 69 && f.samples[0].correction == -12));
  CHECK((f.samples[1].start == 146 && f.samples[1].end == 196));  // 100 frames + 46 padding
  CHECK(f.smplBytes == 2 * (146 + 96));
  REQUIRE(f.instruments.size() == 2);
  const sf2::Instrument& piano = f.instruments[0];
  REQUIRE(piano.global);
  CHECK(piano.global->get(sf2::kReleaseVolEnv) == -1200);
  REQUIRE(piano.zones.size() == 2);
  CHECK((piano.zones[0].keys.lo == 0 && piano.zones[0].keys.hi == 63));
  CHECK((piano.zones[0].velocities.lo == 1 && piano.zones[0].velocities.hi == 100));
  CHECK(piano.zones[0].get(sf2::kOverridingRootKey, -1) == 57);
  CHECK(piano.zones[0].get(sf2::kSampleID) == 0);
  REQUIRE(piano.zones[0].modulators.size() == 1);
  CHECK((piano.zones[0].modulators[0].source == 0x0502 && piano.zones[0].modulators[0].amount == 960));
  CHECK((piano.zones[1].keys.lo == 64 && piano.zones[1].get(sf2::kSampleID) == 1));
  CHECK(!piano.zones[1].has(sf2::kOverridingRootKey));
  CHECK(!f.instruments[1].global);
  REQUIRE(f.presets.size() == 2);
  CHECK((f.presets[0].name == "Grand" && f.presets[0].bank == 0 && f.presets[0].program == 0));
  REQUIRE(f.presets[0].global);
  CHECK(f.presets[0].global->get(sf2::kPan) == -250);
  CHECK((f.presets[1].bank == 128 && f.presets[1].zones[0].keys.lo == 35 && f.presets[1].zones[0].get(sf2::kInstrument) == 1));
}

TEST_CASE("SoundFont reader: every truncation of a file is refused with an error, never read past its end") {
  // A cut inside the form reads as a trailing partial chunk, but the tables it cuts lose
  // their terminal records or whole records, and the chunks after it are missing.
  const auto bytes = spindle::test::writeSf2(twoPresets());
  int refused = 0;
  for (size_t n = 0; n < bytes.size(); ++n) {
    const std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    const auto r = read(cut);
    if (!r.font) {
      ++refused;
      CHECK(r.error.rfind("test.sf2: ", 0) == 0);
    }
  }
  CHECK(refused == static_cast<int>(bytes.size()));
}

TEST_CASE("SoundFont reader: a trailing partial chunk is read with a warning naming it") {
  const auto good = spindle::test::writeSf2(twoPresets());
  SECTION("RIFF size past the end of the file: the form is read up to the end") {
    auto b = good;
    putLe32(b, 4, static_cast<uint32_t>(b.size()));
    const auto r = read(b);
    REQUIRE(r.font);
    CHECK(r.font->presets.size() == 2);
    CHECK(r.font->warnings == std::vector<std::string>{"file: the last chunk, 'RIFF sfbk', is cut short: it declares " +
                                                        std::to_string(b.size()) + " bytes, " +
                                                        std::to_string(b.size() - 8) + " remain; read as " +
                                                        std::to_string(b.size() - 8)});
  }
  SECTION("stray bytes after the last chunk of pdta") {
    auto b = good;
    const size_t pdta = find(b, "pdta") - 8;
    putLe32(b, pdta + 4, le32(b.data() + pdta + 4) + 3);
    putLe32(b, 4, le32(b.data() + 4) + 3);
    b.insert(b.end(), {0xAB, 0xCD, 0xEF});
    const auto r = read(b);
    REQUIRE(r.font);
    CHECK(r.font->samples.size() == 2);
    CHECK(r.font->warnings == std::vector<std::string>{"pdta: 3 stray bytes after the last chunk (skipped)"});
  }
  SECTION("a written font has nothing to tolerate") {
    const auto r = read(good);
    REQUIRE(r.font);
    CHECK(r.font->warnings.empty());
  }
}

TEST_CASE("SoundFont reader: lying sizes and indices are clear errors naming the chunk") {
  const auto good = spindle::test::writeSf2(twoPresets());
  SECTION("a chunk inside the form whose size runs past the file") {
    auto b = good;
    const size_t pbag = find(b, "pbag");
    putLe32(b, pbag + 4, 0x70000010);
    const auto r = read(b);
    REQUIRE(!r.font);
    CHECK(r.error.find("pdta") != std::string::npos);
  }
  SECTION("a pdta table that is not a whole number of records") {
    auto b = good;
    const size_t at = find(b, "pbag");
    putLe32(b, at + 4, 7);
    const auto r = read(b);
    REQUIRE(!r.font);
    CHECK(r.error.find("pdta") != std::string::npos);
  }
  SECTION("a preset's zone index beyond its bag table") {
    auto b = good;
    const size_t at = find(b, "phdr") + 8;
    b[at + 38 + 24] = 0xFF;  // second preset's bag index
    const auto r = read(b);
    REQUIRE(!r.font);
    CHECK(r.error.find("'phdr' record") != std::string::npos);
  }
  SECTION("a zone pointing at an instrument that does not exist") {
    auto spec = twoPresets();
    spec.presets[1].zones[0].gens.back().amount = 9;
    const auto r = read(spindle::test::writeSf2(spec));
    REQUIRE(!r.font);
    CHECK(r.error.find("points at 9 of 2") != std::string::npos);
  }
  SECTION("not a SoundFont at all") {
    const std::string text = "<region> sample=a.wav\n";
    const auto r = read(std::vector<uint8_t>(text.begin(), text.end()));
    REQUIRE(!r.font);
    CHECK(r.error.find("not a SoundFont") != std::string::npos);
  }
  SECTION("a version that is neither 2 nor 3") {
    auto spec = twoPresets();
    spec.versionMajor = 7;
    const auto r = read(spindle::test::writeSf2(spec));
    REQUIRE(!r.font);
    CHECK(r.error.find("version 7") != std::string::npos);
  }
}

TEST_CASE("TimGM6mb.sf2 reads: General MIDI presets, the drum kit on bank 128, samples inside smpl", "[fixtures]") {
  SPINDLE_FIXTURES_OR_SKIP(fixtures, "sf2/TimGM6mb.sf2");
  const auto r = sf2::readSoundFont(fixtures / "sf2" / "TimGM6mb.sf2");
  REQUIRE(r.error.empty());
  const sf2::SoundFont& f = *r.font;
  CHECK(f.presets.size() == 136);
  CHECK(f.samples.size() == 520);
  int drums = 0, melodic = 0;
  for (const sf2::Preset& p : f.presets) (p.bank == 128 ? drums : melodic) += 1;
  CHECK(melodic >= 128);
  CHECK(drums >= 1);
  for (const sf2::SampleHeader& s : f.samples) {
    CHECK(s.start <= s.end);
    CHECK(uint64_t{s.end} * 2 <= f.smplBytes);
  }
  for (const sf2::Preset& p : f.presets)
    for (const sf2::Zone& z : p.zones) CHECK(static_cast<size_t>(z.get(sf2::kInstrument)) < f.instruments.size());
}

}  // namespace sound_font_reader_tests
