// Release keys and polyphony scopes, on renders: trigger=release_key against trigger=release
// under the sustain pedal, and polyphony at each header level.
#include <string>
#include <vector>

#include "ModTestSupport.h"
#include "catch.h"

namespace voice_group_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

// The first frame at or after `from` whose magnitude exceeds 1e-6; -1 when none.
int64_t firstSound(const std::vector<float>& x, size_t from = 0) {
  for (size_t i = from; i < x.size(); ++i)
    if (std::fabs(x[i]) > 1e-6f) return static_cast<int64_t>(i);
  return -1;
}

// A silent attack region on key 60 and a release region sounding 0.5 (left only).
SfzProgram releaseProgram(const std::string& trigger) {
  SfzProgram p("<region> sample=a.wav key=60 amplitude=0\n"
               "<region> sample=a.wav key=60 amp_veltrack=0 pan=-100 trigger=" + trigger,
               constant(0.5f, 48000));
  REQUIRE(p.warnings.empty());
  return p;
}

}  // namespace

TEST_CASE("trigger=release_key sounds at the note-off although the sustain pedal is down", "[engine][v2]") {
  // Pedal down at 0, note 100..1000, pedal up at 2000.
  const std::vector<TimedEvent> events = {cc(0, 7, 127), cc(0, 64, 127), noteOn(100, 60), noteOff(1000, 60),
                                          cc(2000, 64, 0)};
  const auto key = play(releaseProgram("release_key"), events, 3000);
  CHECK(firstSound(key->left) == 1000);
  const auto pedal = play(releaseProgram("release"), events, 3000);
  CHECK(firstSound(pedal->left) == 2000);
  // Without the pedal both sound at the note-off; release_key does not sound again at pedal up.
  const auto bare = play(releaseProgram("release_key"), {cc(0, 7, 127), noteOn(100, 60), noteOff(1000, 60)}, 3000);
  CHECK(firstSound(bare->left) == 1000);
  CHECK(key->engine.stats().notesStarted == 2);  // the attack voice and one release_key voice
}

namespace {

// Voices sounding after notes on `keys`, 0.05 s apart (each region loops a constant).
uint32_t voicesAfterNotes(const std::string& sfz, const std::vector<int>& keys) {
  SfzProgram p(sfz, constant(0.5f, 48000));
  REQUIRE(p.warnings.empty());
  std::vector<TimedEvent> events = {cc(0, 7, 127)};
  for (size_t i = 0; i < keys.size(); ++i) events.push_back(noteOn(static_cast<int64_t>(i) * 2400, keys[i]));
  const auto r = play(p, events, static_cast<int64_t>(keys.size()) * 2400 + 4800);
  return r->engine.stats().activeVoices;
}

constexpr const char* kLoop = " sample=a.wav loop_mode=loop_continuous ";

}  // namespace

TEST_CASE("polyphony in <global> limits the whole instrument", "[engine][v2]") {
  const std::string sfz = std::string("<global> polyphony=2 <group> <region> key=60") + kLoop +
                          "<group> <region> key=62" + kLoop + "<region> key=64" + kLoop;
  CHECK(voicesAfterNotes(sfz, {60, 62, 64}) == 2);
  CHECK(voicesAfterNotes(sfz, {60, 62, 64, 60, 62}) == 2);
}

TEST_CASE("polyphony in <master> limits that master's regions only", "[engine][v2]") {
  const std::string sfz = std::string("<master> polyphony=1 <group> <region> lokey=60 hikey=61") + kLoop +
                          "<master> <group> <region> lokey=62 hikey=63" + kLoop;
  CHECK(voicesAfterNotes(sfz, {60, 61}) == 1);
  CHECK(voicesAfterNotes(sfz, {60, 61, 62, 63}) == 3);
}

TEST_CASE("polyphony in <group> without group= limits that header's regions", "[engine][v2]") {
  const std::string sfz = std::string("<group> polyphony=1 <region> key=60") + kLoop + "<region> key=61" + kLoop +
                          "<group> <region> key=62" + kLoop;
  CHECK(voicesAfterNotes(sfz, {60, 61}) == 1);
  CHECK(voicesAfterNotes(sfz, {60, 61, 62, 62}) == 3);
}

TEST_CASE("polyphony with group=N limits every region of polyphony group N", "[engine][v2]") {
  // Two <group> headers share group=3; only the first gives the limit.
  const std::string sfz = std::string("<group> group=3 polyphony=2 <region> key=60") + kLoop +
                          "<group> group=3 <region> key=61" + kLoop + "<group> group=4 <region> key=62" + kLoop;
  CHECK(voicesAfterNotes(sfz, {60, 61, 61, 62, 62}) == 4);  // 2 of group 3, 2 of group 4
  // rgc:audio's polyphony test: region-level group=2 polyphony=1 shared by two regions.
  const std::string rgc = std::string("<region> group=1 hikey=59 polyphony=7") + kLoop +
                          "<region> group=2 lokey=60 hikey=71 polyphony=1" + kLoop +
                          "<region> group=2 lokey=72 polyphony=1" + kLoop;
  CHECK(voicesAfterNotes(rgc, {60, 72, 65}) == 1);
  CHECK(voicesAfterNotes(rgc, {40, 41, 42, 60, 72}) == 4);
}

TEST_CASE("polyphony in <region> without group= limits the region's own voices", "[engine][v2]") {
  const std::string sfz = std::string("<region> key=60 polyphony=1") + kLoop + "<region> key=61" + kLoop;
  CHECK(voicesAfterNotes(sfz, {60, 60, 61, 61}) == 3);
}

}  // namespace voice_group_tests
