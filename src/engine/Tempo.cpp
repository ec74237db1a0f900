#include "engine/Tempo.h"

namespace spindle::engine {

const char* tempoSourceName(TempoSource source) noexcept {
  switch (source) {
    case TempoSource::Song: return "song";
    case TempoSource::Set: return "set";
    case TempoSource::Clock: return "clock";
    case TempoSource::Transport: return "transport";
    case TempoSource::Default: break;
  }
  return "default";
}

void Tempo::set(float bpm) noexcept SPINDLE_REALTIME {
  if (!valid(bpm)) return;
  held_ = bpm;
  heldSource_ = TempoSource::Set;
}

void Tempo::setSong(float bpm) noexcept SPINDLE_REALTIME {
  if (!valid(bpm) || heldSource_ == TempoSource::Set) return;
  held_ = bpm;
  heldSource_ = TempoSource::Song;
}

void Tempo::setTransport(float bpm) noexcept SPINDLE_REALTIME {
  if (valid(bpm)) transport_ = bpm;
}

void Tempo::setClock(float bpm) noexcept SPINDLE_REALTIME {
  if (valid(bpm)) clock_ = bpm;
}

void Tempo::clockStopped() noexcept SPINDLE_REALTIME {
  if (clock_ <= 0.0f) return;
  held_ = clock_;
  heldSource_ = TempoSource::Clock;
  clock_ = 0.0f;
}

void Tempo::endCall() noexcept SPINDLE_REALTIME {
  if (transport_ <= 0.0f) return;
  held_ = transport_;
  heldSource_ = TempoSource::Transport;
  transport_ = 0.0f;
}

float Tempo::bpm() const noexcept SPINDLE_REALTIME {
  return transport_ > 0.0f ? transport_ : clock_ > 0.0f ? clock_ : held_;
}

TempoSource Tempo::source() const noexcept SPINDLE_REALTIME {
  return transport_ > 0.0f ? TempoSource::Transport : clock_ > 0.0f ? TempoSource::Clock : heldSource_;
}

}  // namespace spindle::engine
