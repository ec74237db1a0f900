// sync_beats and sync_offset (a region's start waits for the song's next beat of the
// grid), and output (a region plays to the output pair N after its part's own), on a
// held 0.5 sample: onsets to the frame, levels on each output.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ModTestSupport.h"
#include "catch.h"

namespace sync_output_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

// The first frame where the left channel sounds.
int64_t onset(const std::vector<float>& left, int64_t from = 0) {
  for (auto i = static_cast<size_t>(from); i < left.size(); ++i)
    if (std::fabs(left[i]) > 1e-4f) return static_cast<int64_t>(i);
  return -1;
}

std::unique_ptr<Renderer> render(const std::string& opcodes, std::vector<TimedEvent> events, int64_t frames,
                                 float bpm = 0.0f) {
  SfzProgram p("<region> sample=s.wav amp_veltrack=0 " + opcodes + "\n", constant(0.5f, 96000));
  REQUIRE(p.warnings.empty());
  auto r = std::make_unique<Renderer>(engine::EngineConfig{}, 256);
  r->setProgram(p.program.get());
  if (bpm > 0.0f) {
    engine::Command c;
    c.type = engine::CommandType::SetTempo;
    c.value = bpm;
    r->post(c);
  }
  r->run(std::move(events), frames);
  return r;
}

}  // namespace

TEST_CASE("sync_beats: a note waits for the next multiple of sync_beats beats from the song's start",
          "[engine][tempo]") {
  // 120 BPM at 48 kHz: a beat is 24,000 frames.
  CHECK(onset(render("", {noteOn(4800, 60)}, 30000)->left) == 4800);
  CHECK(onset(render("sync_beats=1", {noteOn(4800, 60)}, 30000)->left) == 24000);
  CHECK(onset(render("sync_beats=1", {noteOn(0, 60)}, 30000)->left) == 0);  // on the beat: at once
  CHECK(onset(render("sync_beats=2", {noteOn(30000, 60)}, 60000)->left) == 48000);
  CHECK(onset(render("sync_beats=0.5", {noteOn(13000, 60)}, 30000)->left) == 24000);
  // sync_offset moves the grid: beats 0.25, 1.25...
  CHECK(onset(render("sync_beats=1 sync_offset=0.25", {noteOn(4800, 60)}, 30000)->left) == 6000);
  CHECK(onset(render("sync_beats=1 sync_offset=0.25", {noteOn(7000, 60)}, 40000)->left) == 30000);
  // At the set tempo: 60 BPM, a beat is 48,000 frames.
  CHECK(onset(render("sync_beats=1", {noteOn(4800, 60)}, 50000, 60.0f)->left) == 48000);
  // Counted after delay: 0.3 s (14,400 frames) brings the note to 19,200, the beat is still 24,000.
  CHECK(onset(render("sync_beats=1 delay=0.3", {noteOn(4800, 60)}, 30000)->left) == 24000);
}

TEST_CASE("sync_beats: a MIDI Start puts the song at beat 0", "[engine][tempo]") {
  const TimedEvent start{10000, MidiEvent{0, midi::kStart, 0, 0}};
  CHECK(onset(render("sync_beats=1", {start, noteOn(12000, 60)}, 40000)->left) == 34000);
  CHECK(onset(render("sync_beats=1", {start, noteOn(10000, 60)}, 40000)->left) == 10000);
}

TEST_CASE("output=N: a region plays to the output pair N after its part's own", "[engine][multiout]") {
  SfzProgram p("<region> sample=s.wav amp_veltrack=0 key=60 output=2\n<region> sample=s.wav amp_veltrack=0 key=62\n",
               constant(0.5f, 96000));
  REQUIRE(p.warnings.empty());
  const auto peak = [](const std::vector<float>& x) {
    float m = 0.0f;
    for (float v : x) m = std::max(m, std::fabs(v));
    return m;
  };
  for (const int part : {0, 3}) {
    CAPTURE(part);
    Renderer r(engine::EngineConfig{}, 256);
    r.setPartOutputs(limits::kChannels);
    r.setProgram(p.program.get(), part);
    r.run({cc(0, 7, 127, part), noteOn(0, 60, 100, part), noteOn(4800, 62, 100, part)}, 9600);
    // Part 0 plays on the main pair; part 3 on its own output. Key 60 goes 2 pairs on.
    const std::vector<float>& own = part == 0 ? r.left : r.partLeft[3];
    const std::vector<float>& routed = r.partLeft[static_cast<size_t>(part + 2)];
    CHECK(routed[2400] == Approx(0.5f));
    CHECK(routed[7200] == Approx(0.5f));  // key 60 still, key 62 not there
    CHECK(own[2400] == 0.0f);
    CHECK(own[7200] == Approx(0.5f));
    CHECK(r.partRight[static_cast<size_t>(part + 2)][2400] == Approx(0.5f));
    for (size_t k = 1; k < r.partLeft.size(); ++k)
      if (static_cast<int>(k) != part && static_cast<int>(k) != part + 2) CHECK(peak(r.partLeft[k]) == 0.0f);
  }
  // Without outputs of its own, the region plays with its part on the main pair.
  Renderer plain(engine::EngineConfig{}, 256);
  plain.setProgram(p.program.get());
  plain.run({cc(0, 7, 127), noteOn(0, 60)}, 4800);
  CHECK(plain.left[2400] == Approx(0.5f));
}

TEST_CASE("output=N beyond the last part's output plays with its part", "[engine][multiout]") {
  SfzProgram p("<region> sample=s.wav amp_veltrack=0 output=15\n", constant(0.5f, 96000));
  Renderer r(engine::EngineConfig{}, 256);
  r.setPartOutputs(limits::kChannels);
  r.setProgram(p.program.get(), 1);
  r.run({cc(0, 7, 127, 1), noteOn(0, 60, 100, 1)}, 4800);
  CHECK(r.partLeft[1][2400] == Approx(0.5f));  // part 1 + 15 is past the 16th part
}

}  // namespace sync_output_tests
