// The preview part (limits::kPreviewPart): the library browser's audition. Its notes come
// as commands and sound in the main output; no MIDI channel reaches it, a solo never
// mutes it, its note-ons are counted apart, and the MIDI parts never see them.
#include <algorithm>
#include <cmath>

#include "EngineTestSupport.h"
#include "catch.h"

namespace preview_part_tests {

using namespace spindle;
using namespace spindle::test;

namespace {

constexpr int kBlock = 256;

engine::Command previewNote(int key, int velocity) {
  engine::Command c;
  c.type = engine::CommandType::PreviewNote;
  c.part = static_cast<int8_t>(limits::kPreviewPart);
  c.count = key;
  c.value = static_cast<float>(velocity);
  return c;
}

float peakFrom(const Renderer& r, size_t from) {
  float p = 0.0f;
  for (size_t i = from; i < r.left.size(); ++i) p = std::max({p, std::fabs(r.left[i]), std::fabs(r.right[i])});
  return p;
}

struct PreviewRig {
  TestProgram program;
  Renderer out{{}, kBlock};
  PreviewRig() {
    program.addRegion(program.addSample(std::make_unique<TestSample>(sine(440.0, 48000.0, 96000, 0.5f))));
    out.setProgram(program.prepare(), limits::kPreviewPart);
  }
};

}  // namespace

TEST_CASE("a preview note sounds in the main output and is counted apart from the parts", "[engine][preview]") {
  PreviewRig rig;
  rig.out.post(previewNote(69, 100));
  rig.out.run({}, 4 * kBlock);
  const engine::EngineStats stats = rig.out.engine.stats();
  CHECK(stats.previewNotes == 1);
  CHECK(stats.preview.voices == 1);
  CHECK(stats.preview.held(69));
  CHECK(stats.preview.program != nullptr);
  CHECK(stats.activeVoices == 1);
  for (const engine::PartStats& part : stats.parts) {
    CHECK(part.voices == 0);
    CHECK(part.program == nullptr);
    CHECK(part.peak == 0.0f);
  }
  CHECK(stats.preview.peak > 0.2f);
  CHECK(peakFrom(rig.out, 0) == Approx(stats.preview.peak).margin(0.05));
  CHECK(rig.out.engine.noteStarts().empty());  // no MIDI event to pair with: no latency record

  rig.out.post(previewNote(69, 0));  // note-off
  rig.out.run({}, kBlock);
  CHECK_FALSE(rig.out.engine.stats().preview.held(69));
  CHECK(rig.out.engine.stats().previewNotes == 1);
}

TEST_CASE("no MIDI channel reaches the preview part, and a solo does not mute it", "[engine][preview]") {
  PreviewRig rig;
  std::vector<TimedEvent> everyChannel;
  for (int channel = 0; channel < limits::kChannels; ++channel) everyChannel.push_back(noteOn(0, 60, 100, channel));
  rig.out.run(everyChannel, kBlock);
  CHECK(rig.out.engine.stats().activeVoices == 0);  // the MIDI parts have no program
  CHECK(rig.out.engine.stats().previewNotes == 0);
  CHECK(peakFrom(rig.out, 0) == 0.0f);

  engine::Command solo;
  solo.type = engine::CommandType::SetPartSolo;
  solo.part = 3;
  solo.flag = true;
  rig.out.post(solo);
  rig.out.post(previewNote(64, 100));
  const size_t from = rig.out.left.size();
  rig.out.run({}, 4 * kBlock);
  CHECK(rig.out.engine.stats().preview.voices == 1);
  CHECK(peakFrom(rig.out, from) > 0.2f);
}

TEST_CASE("key -1 silences the preview part; a new program there leaves the parts alone", "[engine][preview]") {
  PreviewRig rig;
  TestProgram onPart;
  onPart.addRegion(onPart.addSample(std::make_unique<TestSample>(sine(300.0, 48000.0, 96000, 0.5f))));
  rig.out.setProgram(onPart.prepare(), 2);
  rig.out.post(previewNote(60, 100));
  rig.out.post(previewNote(67, 100));
  rig.out.run({noteOn(0, 60, 100, 2)}, kBlock);
  CHECK(rig.out.engine.stats().preview.voices == 2);
  CHECK(rig.out.engine.stats().parts[2].voices == 1);

  rig.out.post(previewNote(-1, 0));  // all sound off: a short fade
  rig.out.run({}, 4 * kBlock);
  CHECK(rig.out.engine.stats().preview.voices == 0);
  CHECK(rig.out.engine.stats().preview.heldKeys == std::array<uint64_t, 2>{});
  CHECK(rig.out.engine.stats().parts[2].voices == 1);  // part 3 plays on
  CHECK(rig.out.engine.stats().previewNotes == 2);
}

}  // namespace preview_part_tests
