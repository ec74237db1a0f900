#pragma once
// Tempo: the engine's tempo in beats per minute and where it comes from. lobpm/hibpm,
// delay_beats, stop_beats and sync_beats read it when a note starts (the song position
// sync_beats waits on counts beats at it: Engine::Impl::beatAt); the bus delays' synced taps
// follow it in every segment (engine/effects/Delay.h).
//
// Sources, strongest first:
//   Transport  the JACK transport's BBT tempo, in every process() call while it rolls
//              (Engine::setTempo before the call);
//   Clock      MIDI timing clocks (engine/MidiClock.h), while they arrive;
//   Set        the user's tempo: --tempo, /spindle/tempo, the session (CommandType::SetTempo);
//   Song       a MIDI file's tempo changes in an offline render (Engine::setSongTempo);
//   Default    120 BPM until any of them speaks.
// A running source (transport rolling, clocks arriving) decides the tempo. When it stops
// its last tempo stays, as if set, until some source speaks again: a stopped transport
// or clock never makes the tempo jump back. A set tempo replaces whatever stayed; a song's
// tempo replaces it unless a tempo was set (a set tempo outranks the file's).
//
// Audio thread only (the renderer's thread in an offline render).
#include <cstdint>

#include "core/Realtime.h"

namespace spindle::engine {

enum class TempoSource : uint8_t { Default, Song, Set, Clock, Transport };

// "default", "song", "set", "clock", "transport".
const char* tempoSourceName(TempoSource source) noexcept;

class Tempo {
 public:
  static constexpr float kDefaultBpm = 120.0f;
  // The tempos taken: 0 < bpm < 10000; others are ignored.
  static bool valid(float bpm) noexcept SPINDLE_REALTIME { return bpm > 0.0f && bpm < 10000.0f; }

  void set(float bpm) noexcept SPINDLE_REALTIME;
  void setSong(float bpm) noexcept SPINDLE_REALTIME;
  void setTransport(float bpm) noexcept SPINDLE_REALTIME;  // this process() call only
  void setClock(float bpm) noexcept SPINDLE_REALTIME;      // clocks arrive at this tempo
  void clockStopped() noexcept SPINDLE_REALTIME;
  bool clockRunning() const noexcept SPINDLE_REALTIME { return clock_ > 0.0f; }
  void endCall() noexcept SPINDLE_REALTIME;  // after each process() call

  float bpm() const noexcept SPINDLE_REALTIME;
  TempoSource source() const noexcept SPINDLE_REALTIME;

 private:
  float transport_ = 0.0f;  // 0: not rolling in this call
  float clock_ = 0.0f;      // 0: no clock running
  float held_ = kDefaultBpm;
  TempoSource heldSource_ = TempoSource::Default;
};

}  // namespace spindle::engine
