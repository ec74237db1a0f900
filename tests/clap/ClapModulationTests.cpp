// CLAP parameter modulation of the library's labelled controls: naming a note (its id,
// or its key) it moves that note alone, through the note's slot; naming none it moves
// the whole part and stays while the control's value moves; a note's modulation ends
// with the note.
#include "ClapExpression.h"
#include "catch.h"

namespace clap_modulation_tests {

using namespace spindle::test;

namespace {

constexpr std::size_t kFrames = 141 * 256;  // 36096
constexpr uint32_t kBlock = 256;
constexpr clap_id kLevelControl = param::kFirstControl;  // CC20, 64 when the library loads

// Key 60 on the left only, key 72 on the right only (ClapExpression.h's sine), each at
// a level proportional to CC20, the library's "Level" control.
std::filesystem::path writeLevelInstrument(const std::filesystem::path& dir) {
  writeSidesInstrument(dir);
  const char* region = " loop_mode=loop_continuous loop_start=0 loop_end=47999 ampeg_release=0.01 amplitude_oncc20=100";
  std::ofstream(dir / "level.sfz") << "<control> label_cc20=Level set_cc20=64\n"
                                   << "<region> sample=sine.wav key=60 pitch_keycenter=60 pan=-100" << region << "\n"
                                   << "<region> sample=sine.wav key=72 pitch_keycenter=72 pan=100" << region << "\n";
  return dir / "level.sfz";
}

// One host event of a script: a note, a note expression (VOLUME), a control's value or
// its modulation (note id and key -1: the whole part's).
struct Step {
  uint32_t frame;
  enum Kind { On, Off, Volume, Value, Mod } kind;
  int32_t noteId = -1;
  int16_t key = -1;
  double value = 0.0;
};

struct Render {
  Stereo out;
  std::vector<int32_t> ended;  // the NOTE_END note ids, in order
};

Render render(const std::filesystem::path& instrument, const std::vector<Step>& script) {
  ClapHost host({48000.0, kBlock, true});
  Render r;
  if (!host.ok() || !host.loadState(stateFor(instrument)) || !host.activate()) return r;
  std::size_t next = 0;
  for (std::size_t done = 0; done < kFrames; done += kBlock) {
    for (; next < script.size() && script[next].frame < done + kBlock; ++next) {
      const Step& s = script[next];
      const auto at = static_cast<uint32_t>(s.frame - done);
      if (s.kind == Step::On || s.kind == Step::Off)
        host.note(s.kind == Step::On ? CLAP_EVENT_NOTE_ON : CLAP_EVENT_NOTE_OFF, at, s.noteId, 0, s.key, 100.0 / 127.0);
      else if (s.kind == Step::Volume) host.expression(at, CLAP_NOTE_EXPRESSION_VOLUME, s.noteId, -1, -1, -1, s.value);
      else if (s.kind == Step::Value) host.param(at, kLevelControl, s.value);
      else host.paramMod(at, kLevelControl, s.value, s.noteId, -1, -1, s.key);
    }
    host.process(kBlock);
    for (const ClapHost::SentNoteEnd& end : host.noteEnds()) r.ended.push_back(end.noteId);
    r.out.left.insert(r.out.left.end(), host.left(), host.left() + kBlock);
    r.out.right.insert(r.out.right.end(), host.right(), host.right() + kBlock);
  }
  return r;
}

// Note 1 (key 60, left) from 1000, note 2 (key 72, right) from 2000, both to the end.
std::vector<Step> twoNotes(std::vector<Step> more) {
  std::vector<Step> script{{1000, Step::On, 1, 60}, {2000, Step::On, 2, 72}};
  script.insert(script.end(), more.begin(), more.end());
  std::stable_sort(script.begin(), script.end(), [](const Step& a, const Step& b) { return a.frame < b.frame; });
  return script;
}

bool sameBytes(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

TEST_CASE("A control modulated for one note id moves that note alone", "[clap][modulation]") {
  const auto instrument = writeLevelInstrument(clapScratch("mod-note"));
  const Render plain = render(instrument, twoNotes({}));
  const Render modulated = render(instrument, twoNotes({{12000, Step::Mod, 1, -1, 32.0}, {24000, Step::Mod, 1, -1, -48.0}}));
  REQUIRE(modulated.out.left.size() == kFrames);
  const double level1 = rms(modulated.out.left, 4000, 11000);
  REQUIRE(level1 > 0.05);
  CHECK(std::fabs(rms(plain.out.left, 4000, 11000) / level1 - 1.0) < 1e-6);
  CHECK(std::fabs(rms(modulated.out.left, 14000, 23000) / level1 - 96.0 / 64.0) < 0.01);  // 64 + 32
  CHECK(std::fabs(rms(modulated.out.left, 26000, 35000) / level1 - 16.0 / 64.0) < 0.01);  // 64 - 48
  // Note 2 (right) as without the modulation, byte for byte.
  REQUIRE(rms(plain.out.right, 4000, 11000) > 0.05);
  CHECK(sameBytes(modulated.out.right, plain.out.right));
}

TEST_CASE("A note-on with its key's modulation at its frame starts modulated; the other note stays", "[clap][modulation]") {
  const auto instrument = writeLevelInstrument(clapScratch("mod-key"));
  const Render plain = render(instrument, twoNotes({}));
  const Render modulated = render(instrument, twoNotes({{2000, Step::Mod, -1, 72, -32.0}}));
  REQUIRE(modulated.out.right.size() == kFrames);
  const double level2 = rms(plain.out.right, 4000, 11000);
  REQUIRE(level2 > 0.05);
  // From its first frames (1024 from its note-on) at 64 - 32.
  CHECK(std::fabs(rms(modulated.out.right, 2000, 3024) / rms(plain.out.right, 2000, 3024) - 0.5) < 0.01);
  CHECK(std::fabs(rms(modulated.out.right, 4000, 35000) / rms(plain.out.right, 4000, 35000) - 0.5) < 0.01);
  CHECK(sameBytes(modulated.out.left, plain.out.left));
}

TEST_CASE("A control modulated for no note moves every note and outlives the control's automation",
          "[clap][modulation]") {
  const auto instrument = writeLevelInstrument(clapScratch("mod-part"));
  const Render r = render(instrument, twoNotes({{12000, Step::Mod, -1, -1, 16.0}, {24000, Step::Value, -1, -1, 32.0}}));
  REQUIRE(r.out.left.size() == kFrames);
  const double left = rms(r.out.left, 4000, 11000), right = rms(r.out.right, 4000, 11000);
  REQUIRE(left > 0.05);
  REQUIRE(right > 0.05);
  CHECK(std::fabs(rms(r.out.left, 14000, 23000) / left - 80.0 / 64.0) < 0.01);  // 64 + 16
  CHECK(std::fabs(rms(r.out.right, 14000, 23000) / right - 80.0 / 64.0) < 0.01);
  CHECK(std::fabs(rms(r.out.left, 26000, 35000) / left - 48.0 / 64.0) < 0.01);  // set to 32, + 16
  CHECK(std::fabs(rms(r.out.right, 26000, 35000) / right - 48.0 / 64.0) < 0.01);
}

// CLAP: a polyphonic amount already holds the monophonic one, so a modulated note hears
// the control's value plus its own amount, whatever the part's modulation.
TEST_CASE("A note's modulation replaces the part's for that note, as the value and the part's move",
          "[clap][modulation]") {
  const auto instrument = writeLevelInstrument(clapScratch("mod-both"));
  const Render r = render(instrument, twoNotes({{12000, Step::Mod, -1, -1, 16.0}, {12000, Step::Mod, 1, -1, 32.0},
                                                {24000, Step::Value, -1, -1, 32.0}, {24000, Step::Mod, -1, -1, -16.0}}));
  REQUIRE(r.out.left.size() == kFrames);
  const double left = rms(r.out.left, 4000, 11000), right = rms(r.out.right, 4000, 11000);
  REQUIRE(left > 0.05);
  CHECK(std::fabs(rms(r.out.left, 14000, 23000) / left - 96.0 / 64.0) < 0.01);    // 64 + 32
  CHECK(std::fabs(rms(r.out.right, 14000, 23000) / right - 80.0 / 64.0) < 0.01);  // 64 + 16
  CHECK(std::fabs(rms(r.out.left, 26000, 35000) / left - 64.0 / 64.0) < 0.01);    // 32 + 32
  CHECK(std::fabs(rms(r.out.right, 26000, 35000) / right - 16.0 / 64.0) < 0.01);  // 32 - 16
}

TEST_CASE("A note's modulation ends with it: the next note in its slot sounds unmodulated", "[clap][modulation]") {
  const auto instrument = writeLevelInstrument(clapScratch("mod-end"));
  // Note 1 modulated ends at 12000 (its slot free after its 10 ms release); note 3 on
  // its key at 20000 takes a slot at its note-on (its volume expression), slot 0 again.
  const Render r = render(instrument, {{1000, Step::On, 1, 60}, {2000, Step::Mod, 1, -1, 48.0},
                                       {12000, Step::Off, 1, 60}, {20000, Step::On, 3, 60},
                                       {20000, Step::Volume, 3, -1, 1.0}});
  REQUIRE(r.out.left.size() == kFrames);
  CHECK(r.ended == std::vector<int32_t>{1});
  const double modulated = rms(r.out.left, 3000, 11000);
  REQUIRE(modulated > 0.05);
  CHECK(std::fabs(rms(r.out.left, 22000, 35000) / modulated - 64.0 / 112.0) < 0.01);
  const Render plain = render(instrument, {{1000, Step::On, 1, 60}, {12000, Step::Off, 1, 60}, {20000, Step::On, 3, 60}});
  CHECK(std::fabs(rms(r.out.left, 22000, 35000) / rms(plain.out.left, 22000, 35000) - 1.0) < 0.001);
}

}  // namespace clap_modulation_tests
