#pragma once
// VoiceEq: a voice's 3-band EQ (eq1..eq3, eqN_type) with velocity (vel2freq, vel2gain)
// and controller modulation of every band. It runs when a band has gain or a controller
// may give it some. Audio thread only; a member of Voice.
#include "core/Realtime.h"
#include "core/Region.h"
#include "engine/dsp/Eq.h"
#include "engine/mod/VoiceMod.h"

namespace spindle::engine {

class VoiceEq {
 public:
  void setup(const Region& r, const mod::VoiceMod& mod, int velocity, double sampleRate, bool stereo) noexcept
      SPINDLE_REALTIME;
  // Control rate: the bands controllers move.
  void followModulation(const Region& r, const mod::VoiceMod& mod, int velocity) noexcept SPINDLE_REALTIME {
    if (modulated_) update(r, mod, velocity);
  }
  void process(float* left, float* right, int frames) noexcept SPINDLE_REALTIME;

 private:
  void update(const Region& r, const mod::VoiceMod& mod, int velocity) noexcept SPINDLE_REALTIME;

  dsp::Eq eq_;
  bool active_ = false, modulated_ = false, stereo_ = false;
};

}  // namespace spindle::engine
