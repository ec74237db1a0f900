#pragma once
// VoiceSources: the SFZ v1 envelopes and LFOs of one voice (ampeg, fileg, pitcheg;
// amplfo, fillfo, pitchlfo), indexed by what they move. Audio thread only; a member of
// Voice, reused note after note (start() never allocates).
//
// start() walks the region's V1Plan, compiled on the loader thread: it sets up and
// starts each listed source with the note-start sums of its targets (VoiceMod). The
// voice's render stages ask for a destination's values frame by frame; a source the
// plan leaves out writes zeros and has depth 0.
#include <array>
#include <cstdint>

#include "core/Realtime.h"
#include "core/Region.h"
#include "engine/dsp/Envelope.h"
#include "engine/dsp/Lfo.h"
#include "engine/mod/V1Plan.h"
#include "engine/mod/VoiceMod.h"

namespace spindle::engine::mod {

class VoiceSources {
 public:
  // After mod.start(): the plan is the one mod's region was compiled with, else (a
  // region outside its program's plan) compiled here.
  void start(const VoiceMod& mod, const Region& r, float velocity01, double sampleRate) noexcept SPINDLE_REALTIME;
  // Dynamic envelopes (*_dynamic): `changed` is VoiceMod::refreshEnvelopes' mask.
  // ampeg keeps its course while the voice fades.
  void followEnvelopes(uint32_t changed, const VoiceMod& mod, float velocity01, bool fading) noexcept
      SPINDLE_REALTIME;
  // Control rate: the LFO depths and frequencies continuous modulation moves.
  void followControllers(const VoiceMod& mod, double sampleRate) noexcept SPINDLE_REALTIME;
  void release() noexcept SPINDLE_REALTIME;                   // note-off
  void fastRelease(float seconds) noexcept SPINDLE_REALTIME;  // ampeg: a linear fade to 0

  // The envelope's levels (0..1), or the LFO's values (dB or cents), for `frames` frames.
  void processEnvelope(V1Dest d, float* out, int frames) noexcept SPINDLE_REALTIME;
  void processLfo(V1Dest d, float* out, int frames) noexcept SPINDLE_REALTIME;
  // The envelope's depth (cents), after vel2depth and the note-start sums.
  float depth(V1Dest d) const noexcept SPINDLE_REALTIME;
  bool lfoActive(V1Dest d) const noexcept SPINDLE_REALTIME;
  // Whether d's values may be other than zero: an envelope depth, a running LFO, or
  // controllers that may give it one.
  bool modulates(V1Dest d) const noexcept SPINDLE_REALTIME;

  // ampeg: its level now, and whether it has released (or faded) to 0.
  float level() const noexcept SPINDLE_REALTIME { return envelopes_[0].level(); }
  bool finished() const noexcept SPINDLE_REALTIME { return envelopes_[0].finished(); }

 private:
  static uint8_t bit(V1Dest d) noexcept { return static_cast<uint8_t>(1u << static_cast<unsigned>(d)); }
  static size_t at(V1Dest d) noexcept { return static_cast<size_t>(d); }

  const V1Plan& plan() const noexcept { return plan_ ? *plan_ : own_; }

  const V1Plan* plan_ = nullptr;  // the program's; null: own_
  V1Plan own_;                    // compiled for a region without a plan
  std::array<dsp::Envelope, kV1Dests> envelopes_;
  std::array<dsp::Lfo, kV1Dests> lfos_;
  uint8_t envelopesOn_ = 0, lfosOn_ = 0;  // bit(d): the plan lists d's source
};

}  // namespace spindle::engine::mod
