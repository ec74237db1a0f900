#pragma once
// VoicePitch: how fast a voice reads its source. The increment (source frames per
// output frame) the note starts from, the pitch bend as played (bend_smooth), the
// controllers' cents, and per segment either one increment or, while pitcheg or
// pitchlfo move or the bend glides, one per frame. Audio thread only; a member of Voice.
#include "core/Realtime.h"
#include "core/Region.h"
#include "core/SampleData.h"
#include "engine/voices/Random.h"
#include "engine/mod/VoiceSources.h"

namespace spindle::engine {

class VoicePitch {
 public:
  static constexpr double kMaxIncrement = 32.0;  // source frames per output frame

  // pitch_keycenter, keytrack, transpose, tune, veltrack and a bipolar pitch_random (in
  // cents), over the file's rate; asTable: the sample plays as a one-cycle table.
  // keyPosition: the key's pitch in semitones (12-TET: the key), which keytrack follows.
  void setup(const Region& r, const SampleData& d, int key, double keyPosition, int velocity, double sampleRate,
             bool asTable, Prng& rng) noexcept SPINDLE_REALTIME;
  // The key moved to keyPosition while the voice sounds (MIDI Tuning Standard real-time).
  void retune(double keyPosition) noexcept SPINDLE_REALTIME;
  void startBend(float cents) noexcept { bendCents_ = bendTarget_ = cents; }
  void setModCents(float cents) noexcept { modCents_ = cents; }       // controllers' sum
  void setSourcesMove(bool moving) noexcept { sourcesMove_ = moving; }  // pitcheg or pitchlfo
  bool sourcesMove() const noexcept { return sourcesMove_; }
  // The last computeIncrements() wrote one increment per frame (the sources move, or
  // the bend glides).
  bool perFrame() const noexcept { return perFrame_; }
  // This segment's increment without pitcheg and pitchlfo.
  double increment() const noexcept { return increment_; }

  // The segment's increment from the bend (cents, moving towards bendCents) and extra
  // cents (loop_tune); while the sources move or the bend glides, per-frame increments
  // written over pitchEnv. Returns the frames covered: fewer than `frames` when a glide
  // ends (the rest plays at one increment, from the frame the glide ends at).
  int computeIncrements(float bendCents, float extraCents, mod::VoiceSources& sources, float* pitchEnv,
                         float* pitchLfo, int frames) noexcept SPINDLE_REALTIME;

 private:
  bool smoothBend(float targetCents) noexcept SPINDLE_REALTIME;
  float glideStep(float from) const noexcept SPINDLE_REALTIME;

  double keyPosition_ = 60.0;
  double keytrack_ = 100.0;
  double baseIncrement_ = 1.0;  // source frames per output frame before bend and modulation
  double increment_ = 1.0;      // this segment's constant increment (unmodulated pitch)
  bool sourcesMove_ = false;
  bool perFrame_ = false;
  float modCents_ = 0.0f;
  // bend_smooth: the pitch bend as played, the bend it glides to, and the glide's cents
  // per frame.
  float bendSmoothMs_ = 0.0f;
  float bendCents_ = 0.0f, bendTarget_ = 0.0f, bendRate_ = 0.0f;
  double sampleRate_ = 48000.0;
};

}  // namespace spindle::engine
