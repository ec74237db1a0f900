// The coverage test's instrument as the loader would play it (formats::programFor), its
// samples made in memory: the test has no sample files, but which file a region plays
// (sample, default_path), whether it plays backwards (direction, reverse_loccN) and a
// generator's table (the oscillator opcodes) must still reach the render.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>

#include "PlayedScenarios.h"
#include "core/LoopTail.h"
#include "formats/ProgramFromInstrument.h"
#include "stream/Generators.h"

namespace spindle::test::played {

namespace {

// The frames of table entry `path`: the stereo noise for s.wav beside the instrument,
// a noise seeded by its name for any other file.
std::unique_ptr<TestSample> fileSample(const std::string& path, const std::filesystem::path& folder) {
  if (std::filesystem::path(path) == folder / "s.wav") return std::make_unique<TestSample>(noiseSample(), noiseSample(11));
  const auto seed = static_cast<uint32_t>(std::hash<std::string>{}(path));
  return std::make_unique<TestSample>(noiseSample(seed), noiseSample(seed + 1));
}

std::unique_ptr<TestSample> generatorSample(const std::string& name) {
  const std::optional<stream::GeneratedSample> g = stream::generateSample(name);
  if (!g) return std::make_unique<TestSample>(std::vector<float>(1024, 0.0f));
  auto sample = std::make_unique<TestSample>(g->frames, std::vector<float>{}, g->sampleRate);
  sample->data.loopStart = g->loopStart;
  sample->data.loopEnd = g->loopEnd;
  sample->data.oscillator = g->oscillator;
  return sample;
}

std::vector<float> reversed(std::vector<float> frames) {
  std::reverse(frames.begin(), frames.end());
  return frames;
}

// A reversed entry: the noise its path gives, backwards (whole, as the loader holds it).
std::unique_ptr<TestSample> reversedSample(const std::string& path, const std::filesystem::path& folder) {
  const std::unique_ptr<TestSample> forward = fileSample(path, folder);
  const SampleData& d = forward->data;
  std::vector<float> left(static_cast<const float*>(d.frames[0]), static_cast<const float*>(d.frames[0]) + d.totalFrames);
  std::vector<float> right(static_cast<const float*>(d.frames[1]), static_cast<const float*>(d.frames[1]) + d.totalFrames);
  return std::make_unique<TestSample>(reversed(std::move(left)), reversed(std::move(right)));
}

struct ScenarioProgram {
  std::vector<std::unique_ptr<TestSample>> samples;
  std::unique_ptr<engine::Program> program;

  ScenarioProgram(const std::string& text, const std::string& path) {
    const instrument::Instrument inst = sfz::loadString(text, path);
    program = formats::programFor(inst);
    program->regions = inst.regions;
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    for (size_t i = 0; i < inst.samples.size(); ++i) {
      const std::string& name = inst.samples[i];
      const bool backwards = std::binary_search(inst.reversedSamples.begin(), inst.reversedSamples.end(),
                                                static_cast<int32_t>(i));
      samples.push_back(stream::isGeneratorName(name) ? generatorSample(name)
                        : backwards                   ? reversedSample(name, folder)
                                                      : fileSample(name, folder));
      program->samples.push_back(&samples.back()->data);
    }
    program->prepare();
    addLoopTails();
  }

  // loop_crossfade tails, as the loader builds them (every sample here is in RAM).
  void addLoopTails() {
    const auto& regions = program->regions;
    if (std::none_of(regions.begin(), regions.end(), [](const Region& r) { return crossfadesLoop(r); })) return;
    program->loopTails.resize(regions.size());
    for (size_t i = 0; i < regions.size(); ++i) {
      const auto index = static_cast<size_t>(regions[i].sampleIndex);
      if (index < samples.size()) program->loopTails[i] = loopTailFromRam(regions[i], samples[index]->data);
    }
  }
};

// The events on MIDI channel `part` (0-based): the part that listens to it plays them.
std::vector<TimedEvent> onChannel(std::vector<TimedEvent> events, int part) {
  for (TimedEvent& e : events)
    if (e.event.status < 0xF0) e.event.status = static_cast<uint8_t>((e.event.status & 0xF0) | part);
  return events;
}

}  // namespace

std::vector<float> render(const std::string& text, const std::string& path, const Scenario& scenario) {
  const ScenarioProgram p(text, path);
  Renderer r(engine::EngineConfig{}, 256);
  if (scenario.partOutputs) r.setPartOutputs(limits::kChannels);
  r.setProgram(p.program.get(), scenario.part);
  r.run(onChannel(scenario.events, scenario.part), kFrames);
  std::vector<float> out = r.left;
  out.insert(out.end(), r.right.begin(), r.right.end());
  return out;
}

}  // namespace spindle::test::played
