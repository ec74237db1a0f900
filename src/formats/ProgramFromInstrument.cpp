#include "formats/ProgramFromInstrument.h"

#include "stream/SamplePool.h"

#include <utility>

#include "core/LoopTail.h"
#include "formats/ImpulseResponses.h"
#include "formats/PresetFallback.h"
#include "stream/LoopTails.h"

namespace spindle::formats {

std::unique_ptr<engine::Program> programFor(const instrument::Instrument& instrument) {
  auto program = std::make_unique<engine::Program>();
  program->name = instrument.name;
  program->swDefault = instrument.swDefault;
  program->controllerDefaults = instrument.controllerDefaults;
  program->controllerLabels = instrument.controllerLabels;
  program->keyLabels = instrument.keyLabels;
  program->presets = instrument.presets;
  program->busLayout = instrument.buses;
  for (const instrument::Curve& c : instrument.curves) program->curves.push_back(ModCurve{c.index, c.points});
  return program;
}

uint64_t finishProgram(engine::Program& program, stream::SamplePool& pool, std::vector<std::string>& warnings) {
  resampleImpulseResponses(program.busLayout, pool.options().outputRate);
  program.prepare();
  program.loopTails.clear();
  uint64_t bytes = 0;
  for (std::size_t i = 0; i < program.regions.size(); ++i) {
    const Region& r = program.regions[i];
    const bool known = r.sampleIndex >= 0 && static_cast<std::size_t>(r.sampleIndex) < program.samples.size();
    const SampleData* sample = known ? program.samples[static_cast<std::size_t>(r.sampleIndex)] : nullptr;
    if (sample && !sample->table && wantsOscillator(r, sample->totalFrames)) pool.makeTable(sample);
    if (!sample || (!crossfadesLoop(r) && loopExitFrames(r, *sample) <= 0)) continue;
    std::string error;
    LoopTail tail = stream::buildLoopTail(r, *sample, error);
    if (!error.empty()) warnings.push_back(error);
    if (tail.empty()) continue;
    program.loopTails.resize(program.regions.size());
    bytes += tail.bytes();
    program.loopTails[i] = std::move(tail);
  }
  if (std::string fallback = percussionFallback(program); !fallback.empty()) warnings.push_back(std::move(fallback));
  return bytes;
}

}  // namespace spindle::formats
