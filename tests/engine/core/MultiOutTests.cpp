// Engine::process with per-part outputs (--multi-out): a part with its own output
// sounds there only, at the exact frames; the others mix into the main pair; the sum
// of all outputs equals the plain stereo render.
#include <vector>

#include "engine/core/EngineTestSupport.h"

namespace multi_out_tests {

using namespace spindle;

namespace {

constexpr int kFrames = 1024;

struct MultiRig {
  test::TestProgram program;
  engine::Engine engine;
  std::vector<float> left = std::vector<float>(kFrames), right = std::vector<float>(kFrames);
  std::vector<std::vector<float>> parts = std::vector<std::vector<float>>(2 * limits::kChannels);

  explicit MultiRig(int maxBlockFrames) : engine(config(maxBlockFrames)) {
    std::vector<float> impulse(16, 0.0f);
    impulse[0] = 1.0f;
    program.addRegion(program.addSample(std::make_unique<test::TestSample>(impulse))).loopMode = LoopMode::OneShot;
    const engine::Program* p = program.prepare();
    for (int part = 0; part < limits::kChannels; ++part) {
      engine::Command c;
      c.type = engine::CommandType::SetProgram;
      c.part = static_cast<int8_t>(part);
      c.program = p;
      REQUIRE(engine.postCommand(c));
    }
    for (auto& buffer : parts) buffer.assign(kFrames, 7.0f);  // garbage: process() must overwrite it
  }
  static engine::EngineConfig config(int maxBlockFrames) {
    engine::EngineConfig c;
    c.maxBlockFrames = maxBlockFrames;
    return c;
  }
  // Outputs for the parts listed; the rest mix into the main pair.
  engine::PartOutputs outputs(const std::vector<int>& own) {
    engine::PartOutputs out{};
    for (const int p : own) {
      out[static_cast<size_t>(p)] = {parts[static_cast<size_t>(2 * p)].data(), parts[static_cast<size_t>(2 * p + 1)].data()};
    }
    return out;
  }
  const std::vector<float>& partLeft(int p) const { return parts[static_cast<size_t>(2 * p)]; }
};

// Onsets: the first sounding frame after silence (the pitched impulse spans 2 frames).
std::vector<int> sounding(const std::vector<float>& x) {
  std::vector<int> frames;
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i] != 0.0f && (i == 0 || x[i - 1] == 0.0f)) frames.push_back(static_cast<int>(i));
  return frames;
}

MidiEvent on(uint32_t frame, int channel, int key) {
  return MidiEvent{frame, static_cast<uint8_t>(0x90 | channel), static_cast<uint8_t>(key), 100};
}

}  // namespace

TEST_CASE("Engine multi-out: part k's notes land only in output k, at the exact frames", "[engine][multiout]") {
  for (const int maxBlock : {1024, 100}) {  // 100: the call is split into sub-blocks
    MultiRig rig(maxBlock);
    const std::vector<MidiEvent> events = {on(5, 0, 60), on(130, 1, 61), on(131, 2, 62), on(250, 0, 63),
                                           on(700, 15, 64), on(999, 1, 65)};
    const engine::PartOutputs out = rig.outputs({0, 1, 15});
    rig.engine.process(events.data(), static_cast<int>(events.size()), rig.left.data(), rig.right.data(), out,
                       kFrames);
    CHECK(sounding(rig.partLeft(0)) == std::vector<int>{5, 250});
    CHECK(sounding(rig.partLeft(1)) == std::vector<int>{130, 999});
    CHECK(sounding(rig.partLeft(15)) == std::vector<int>{700});
    CHECK(sounding(rig.left) == std::vector<int>{131});  // part 2 has no output of its own
    CHECK(sounding(rig.right) == std::vector<int>{131});
    CHECK(sounding(rig.parts[1]) == std::vector<int>{5, 250});  // part 0's right channel
    CHECK(rig.partLeft(3) == std::vector<float>(kFrames, 7.0f));  // not given: untouched
    const auto starts = rig.engine.noteStarts();
    REQUIRE(starts.size() == events.size());
    for (size_t i = 0; i < starts.size(); ++i) CHECK(starts[i].firstOffset == static_cast<int32_t>(events[i].frame));
  }
}

TEST_CASE("Engine multi-out: the outputs add up to the stereo render", "[engine][multiout]") {
  MultiRig multi(128), plain(128);
  const std::vector<MidiEvent> events = {on(3, 0, 60), on(3, 1, 60), on(77, 4, 70), on(500, 1, 72)};
  const engine::PartOutputs out = multi.outputs({1, 4});
  multi.engine.process(events.data(), static_cast<int>(events.size()), multi.left.data(), multi.right.data(), out,
                       kFrames);
  plain.engine.process(events.data(), static_cast<int>(events.size()), plain.left.data(), plain.right.data(), kFrames);
  for (size_t i = 0; i < kFrames; ++i) {
    const float sumLeft = multi.left[i] + multi.partLeft(1)[i] + multi.partLeft(4)[i];
    const float sumRight = multi.right[i] + multi.parts[3][i] + multi.parts[9][i];
    REQUIRE(sumLeft == Approx(plain.left[i]).margin(1e-7));
    REQUIRE(sumRight == Approx(plain.right[i]).margin(1e-7));
  }
}

TEST_CASE("Engine multi-out: a later plain call mixes every part into the main pair again", "[engine][multiout]") {
  MultiRig rig(256);
  const std::vector<MidiEvent> first = {on(10, 1, 60)};
  const engine::PartOutputs out = rig.outputs({1});
  rig.engine.process(first.data(), 1, rig.left.data(), rig.right.data(), out, 256);
  CHECK(sounding(std::vector<float>(rig.partLeft(1).begin(), rig.partLeft(1).begin() + 256)) == std::vector<int>{10});
  const std::vector<MidiEvent> second = {on(20, 1, 61)};
  rig.engine.process(second.data(), 1, rig.left.data(), rig.right.data(), 256);
  CHECK(sounding(std::vector<float>(rig.left.begin(), rig.left.begin() + 256)) == std::vector<int>{20});
}

}  // namespace multi_out_tests
