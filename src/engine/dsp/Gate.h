#pragma once
// Gate: the SFZ gate effect on a stereo pair. Audio thread only.
//
// A level follower (a one-pole of the shorter of gate_attack and gate_release, on |x|)
// opens the gate while it is above gate_threshold (dB) and closes it below; the gain
// moves toward 1 (open) with a one-pole of gate_attack seconds and toward 0 (closed)
// with one of gate_release seconds. gate_onccN is a manual control, 0 % leaving the
// gate to its level and 100 % holding it closed: the open gain is 1 - manual / 100.
// Unlinked, each side opens on its own level; with gate_stlink both follow
// |left| + |right|. The ranges are sfizz's: threshold -100..0 dB (0 by default, so an
// unset threshold closes the gate on anything below full scale), times 0..10 s. It runs
// at twice the rate (Oversampled2x), as sfizz's does.
#include <array>

#include "core/Realtime.h"
#include "engine/dsp/HalfBand.h"

namespace spindle::engine::dsp {

struct GateSettings {
  float attack = 0.005f, release = 0.05f;  // seconds
  float thresholdDb = 0.0f;
  float manual = 0.0f;  // %, 100 closes the gate
  bool linked = false;
};

class Gate {
 public:
  void setup(double sampleRate) noexcept SPINDLE_REALTIME;  // also clears
  void process(float* left, float* right, int frames, const GateSettings& s) noexcept SPINDLE_REALTIME;

 private:
  struct Side {
    float level = 0.0f;  // the follower
    float gain = 0.0f;   // 0 closed .. 1 open
  };
  float gainFor(Side& side, float detected, float threshold, float open) noexcept SPINDLE_REALTIME;

  std::array<Side, 2> sides_{};
  Oversampled2x oversampled_;
  double sampleRate_ = 96000.0;  // twice the bus's
  float followPole_ = 0.0f, attackPole_ = 0.0f, releasePole_ = 0.0f;
};

}  // namespace spindle::engine::dsp
