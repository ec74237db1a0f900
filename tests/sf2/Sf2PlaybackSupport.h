#pragma once
// A SoundFont the test wrote, loaded through the app Loader (as spindle-render loads
// it: samples are slices of the file, decoded whole into RAM) and played by an Engine
// at 48 kHz, offline, block by block (EngineTestSupport.h's Renderer).
#include <memory>
#include <string>
#include <vector>

#include "EngineTestSupport.h"
#include "Sf2TestSupport.h"
#include "session/Loader.h"

namespace spindle::test {

inline constexpr double kOutputRate = 48000.0;

struct FontPlayer {
  session::Loader loader;
  std::unique_ptr<engine::Program> program;

  explicit FontPlayer(const std::filesystem::path& file) { take(loader.load(file)); }
  FontPlayer(const Sf2Spec& spec, const std::string& name) : FontPlayer(saveFont(spec, name)) {}

  // Renders `frames` frames of `events`, the program set on each of `parts`.
  std::unique_ptr<Renderer> play(const std::vector<TimedEvent>& events, int64_t frames,
                                 const std::vector<int>& parts = {0}) const {
    auto r = std::make_unique<Renderer>(engine::EngineConfig{}, 256);
    for (int part : parts) r->setProgram(program.get(), part);
    r->run(events, frames);
    return r;
  }

 private:
  void take(session::Loader::Result result) {
    INFO(result.report.sfzPath.string());
    REQUIRE(result.program);
    REQUIRE(result.report.samplesLoaded == result.report.samples);
    program = std::move(result.program);
  }
};

inline size_t at(double seconds) { return static_cast<size_t>(seconds * kOutputRate); }

inline double rmsDb(const std::vector<float>& x, double from, double to) {
  double sum = 0.0;
  for (size_t i = at(from); i < at(to); ++i) sum += static_cast<double>(x[i]) * static_cast<double>(x[i]);
  const double mean = sum / static_cast<double>(at(to) - at(from));
  return mean > 0.0 ? 10.0 * std::log10(mean) : -300.0;
}

inline double hzOver(const std::vector<float>& x, double from, double to) { return measureHz(x, at(from), at(to), kOutputRate); }

}  // namespace spindle::test
