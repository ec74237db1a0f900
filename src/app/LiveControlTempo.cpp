// LiveControl, the tempo: the set tempo goes to the audio thread as a command like every
// other setting; the tempo playing comes from the engine's stats.
#include "app/LiveControl.h"

namespace spindle::app {

bool LiveControl::setTempo(float bpm) {
  engine::Command command = partCommand(engine::CommandType::SetTempo, 0);
  command.value = bpm;
  if (!queue(command)) return false;
  std::lock_guard lock(mutex_);
  state_.settings.tempo = bpm;
  return true;
}

control::TempoStatus LiveControl::tempo() {
  const engine::EngineStats stats = engine_.stats();
  return {stats.tempo, engine::tempoSourceName(stats.tempoSource)};
}

}  // namespace spindle::app
