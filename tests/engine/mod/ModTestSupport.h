#pragma once
// Helpers for the modulation tests: a Program built from SFZ text (every sample of the
// text played from one sample synthesized in memory; its <effect> buses too), and level
// measurements.
#include <memory>
#include <string>
#include <vector>

#include "EngineTestSupport.h"
#include "core/LoopTail.h"
#include "sfz/Parser.h"

namespace spindle::test {

struct SfzProgram {
  std::unique_ptr<TestSample> sample;
  std::unique_ptr<engine::Program> program = std::make_unique<engine::Program>();
  std::vector<std::string> warnings;

  SfzProgram(const std::string& text, std::vector<float> frames, const std::string& path = "/virtual/mod-test.sfz",
             std::vector<float> right = {}) {
    sample = std::make_unique<TestSample>(std::move(frames), std::move(right));
    const instrument::Instrument inst = sfz::loadString(text, path);
    for (const instrument::Diagnostic& d : inst.diagnostics) {
      if (d.message.find("sample not found") == std::string::npos) warnings.push_back(d.message);
    }
    program->regions = inst.regions;
    program->samples.assign(inst.samples.size(), &sample->data);
    for (const instrument::Curve& c : inst.curves) program->curves.push_back(ModCurve{c.index, c.points});
    program->busLayout = inst.buses;
    program->prepare();
    // loop_crossfade tails, as the loader builds them (every test sample is in RAM).
    for (const Region& r : program->regions) {
      if (spindle::crossfadesLoop(r)) program->loopTails.resize(program->regions.size());
    }
    for (std::size_t i = 0; i < program->loopTails.size(); ++i)
      program->loopTails[i] = loopTailFromRam(program->regions[i], sample->data);
  }
};

// Renders notes/CCs of one program on part 0 and returns the renderer.
inline std::unique_ptr<Renderer> play(const SfzProgram& p, std::vector<TimedEvent> events, int64_t frames,
                                      int block = 256) {
  auto r = std::make_unique<Renderer>(engine::EngineConfig{}, block);
  r->setProgram(p.program.get());
  r->run(std::move(events), frames);
  return r;
}

inline double rms(const std::vector<float>& x, size_t from, size_t to) {
  double sum = 0.0;
  for (size_t i = from; i < to; ++i) sum += static_cast<double>(x[i]) * static_cast<double>(x[i]);
  return std::sqrt(sum / static_cast<double>(to - from));
}

inline double toDb(double gain) { return 20.0 * std::log10(gain); }

}  // namespace spindle::test
