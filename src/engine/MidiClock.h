#pragma once
// MidiClock: the tempo MIDI timing clocks (0xF8, 24 to the quarter note) give, measured
// from the frames they arrive at (the engine's frame count, so a port's events count to
// the frame and a midi thread's keep their spacing: they all play one period late).
//
//   clocks:   |    |    |    |   ...   |    |        bpm = 60 * rate * intervals
//   frames:   f0   f1   f2            fN-1 fN              / (24 * (fN - f0))
//             <------ the last kWindow intervals ------>
//
// The tempo is the mean interval over the last kWindow clocks (one beat): a clock's
// jitter moves it by jitter / (kWindow * interval), so a keyboard's millisecond of
// jitter at 120 BPM moves it by under 0.25 BPM, and it follows a tempo change within a
// beat. It speaks once kMinIntervals intervals are measured. A gap longer than a clock
// at kMinBpm, a start (0xFA), a continue (0xFB) or a stop (0xFC) begins a new
// measurement, and the tempo measured so far stays until the new one speaks.
//
// Audio thread only; no allocation.
#include <array>
#include <cstdint>

#include "core/Realtime.h"

namespace spindle::engine {

class MidiClock {
 public:
  static constexpr int kClocksPerBeat = 24;
  static constexpr int kWindow = 24;
  static constexpr int kMinIntervals = 2;
  static constexpr double kMinBpm = 20.0;  // slower clocks count as stopped

  // A timing clock at `frame`; true when it gave a new tempo (bpm()).
  bool tick(uint64_t frame, double sampleRate) noexcept SPINDLE_REALTIME;
  // Start, continue: the next clock begins a new measurement.
  void restart() noexcept SPINDLE_REALTIME { count_ = 0; }
  // Stop: the clock no longer runs until its next tick, which begins a new measurement.
  void stop() noexcept SPINDLE_REALTIME {
    count_ = 0;
    seen_ = false;
  }
  // Whether clocks still arrive at `frame`: the last one no longer ago than a clock at kMinBpm.
  bool running(uint64_t frame, double sampleRate) const noexcept SPINDLE_REALTIME;
  // The last tempo measured (0 before the first).
  float bpm() const noexcept SPINDLE_REALTIME { return bpm_; }

  static double longestInterval(double sampleRate) noexcept SPINDLE_REALTIME {
    return 60.0 * sampleRate / (kClocksPerBeat * kMinBpm);
  }

 private:
  std::array<uint64_t, kWindow + 1> frames_{};  // a ring of the last clocks' frames
  int count_ = 0;                               // clocks in it since the measurement began
  int newest_ = 0;                              // the ring's slot of the last clock
  uint64_t last_ = 0;
  bool seen_ = false;
  float bpm_ = 0.0f;
};

}  // namespace spindle::engine
