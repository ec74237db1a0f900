// Engine: the tempo (engine/Tempo.h): the transport's, the set one, a song's, and the
// MIDI clock's, measured from the frames its clocks arrive at (engine/MidiClock.h).
#include "engine/EngineImpl.h"

namespace spindle::engine {

void Engine::Impl::setTempo(float bpm) noexcept SPINDLE_REALTIME {
  tempoState.setTransport(bpm);
  refreshTempo();
}

// A clock's frame is the engine's frame of its event, so the interval between two clocks
// is exact to the frame whatever the blocks.
void Engine::Impl::clockEvent(uint8_t status, uint64_t frame) noexcept SPINDLE_REALTIME {
  switch (status) {
    case midi::kClock:
      if (midiClock.tick(frame, config.sampleRate)) tempoState.setClock(midiClock.bpm());
      break;
    case midi::kStart:  // the song starts at this frame: beat 0
      songBeats -= beatAt(frame);
      midiClock.restart();
      break;
    case midi::kContinue: midiClock.restart(); break;
    case midi::kStop:
      midiClock.stop();
      tempoState.clockStopped();
      break;
    default: break;
  }
  refreshTempo();
}

// At the start of a call: clocks that stopped coming without a stop message.
void Engine::Impl::checkClock() noexcept SPINDLE_REALTIME {
  if (tempoState.clockRunning() && !midiClock.running(frameCounter, config.sampleRate)) {
    tempoState.clockStopped();
    refreshTempo();
  }
}

// Frames after frameCounter run at the tempo now.
double Engine::Impl::beatAt(uint64_t frame) const noexcept SPINDLE_REALTIME {
  const double frames = static_cast<double>(frame) - static_cast<double>(frameCounter);
  return songBeats + frames * static_cast<double>(tempo) / (60.0 * config.sampleRate);
}

void Engine::Impl::refreshTempo() noexcept SPINDLE_REALTIME { tempo = tempoState.bpm(); }

}  // namespace spindle::engine
