#pragma once
// VoiceSources: every envelope and LFO of one voice, started from its region's source
// list (Sources.h). Audio thread only; a member of VoiceMod, reused note after note
// (nothing here allocates).
//
// The control-rate sources (the flex LFOs and EGs) move at each control step; VoiceMod
// reads their values and adds them to its sums. The per-frame sources (the v1 envelopes
// and LFOs) are read by their destination's render stage: processEnvelope(),
// processLfo() and depth() by V1Dest, where a destination the list leaves out gives
// zeros and depth 0.
#include <array>
#include <cstdint>
#include <span>

#include "core/Realtime.h"
#include "core/Region.h"
#include "engine/mod/Envelope.h"
#include "engine/mod/Lfo.h"
#include "engine/mod/CurveTable.h"
#include "engine/mod/FlexEgBank.h"
#include "engine/mod/LfoBank.h"
#include "engine/mod/Sources.h"

namespace spindle::engine::mod {

// VoiceMod's sums by target, as the per-frame sources read them: at note start the sums
// of their stage targets (when the region has note-start slots), then at each control
// step those of their depths and frequencies.
struct TargetSums {
  const std::array<float, static_cast<size_t>(ModTarget::Count)>* sums = nullptr;
  bool noteStart = false;  // the region has note-start slots
  float operator()(ModTarget t) const noexcept { return (*sums)[static_cast<size_t>(t)]; }
};

class VoiceSources {
 public:
  // A region outside its program's plan: its per-frame sources, compiled here.
  RegionSources compileOwn(const Region& r) noexcept SPINDLE_REALTIME;

  // A note's start walks the list twice: startControlRate() takes the list and starts
  // its control-rate sources (VoiceMod adds their first values to the sums), then
  // startPerFrame() its per-frame ones, which read those sums.
  // lfoAdds: the note-start controller additions to each flex LFO; seed: the voice's
  // sample-and-hold noise; curves: the program's <curve> table, for egN_curveX.
  void startControlRate(const RegionSources& s, std::span<const LfoBank::StartAdds> lfoAdds, double sampleRate,
                        uint32_t seed, const CurveTable* curves) noexcept SPINDLE_REALTIME;
  void startPerFrame(const TargetSums& sums, float velocity01, double sampleRate) noexcept SPINDLE_REALTIME;

  // Dynamic v1 envelopes (*_dynamic): `changed` is VoiceMod::refreshEnvelopes' mask.
  // ampeg keeps its course while the voice fades.
  void followEnvelopes(uint32_t changed, const TargetSums& sums, bool fading) noexcept SPINDLE_REALTIME;
  // Control rate: the v1 LFO depths and frequencies continuous modulation moves.
  void followControllers(const TargetSums& sums, double sampleRate) noexcept SPINDLE_REALTIME;
  void release() noexcept SPINDLE_REALTIME;                   // note-off: every envelope
  void fastRelease(float seconds, float shape) noexcept SPINDLE_REALTIME;  // ampeg: a fade to 0 (Envelope's)

  // The list the voice started from.
  const RegionSources& list() const noexcept { return list_; }
  LfoBank& flexLfos() noexcept { return flexLfos_; }
  FlexEgBank& flexEgs() noexcept { return flexEgs_; }
  const LfoBank& flexLfos() const noexcept { return flexLfos_; }
  const FlexEgBank& flexEgs() const noexcept { return flexEgs_; }

  // The v1 envelope's levels (0..1), or the v1 LFO's values (dB or cents), for `frames` frames.
  void processEnvelope(V1Dest d, float* out, int frames) noexcept SPINDLE_REALTIME;
  void processLfo(V1Dest d, float* out, int frames) noexcept SPINDLE_REALTIME;
  // The v1 envelope's depth (cents), after vel2depth and the note-start sums.
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

  RegionSources list_;  // the region's, or own_'s
  V1Sources own_;       // compiled for a region without a plan
  std::array<Envelope, kV1Dests> envelopes_;
  std::array<Lfo, kV1Dests> lfos_;
  uint8_t envelopesOn_ = 0, lfosOn_ = 0;  // bit(d): the list has d's per-frame source
  float velocity01_ = 0.0f;
  LfoBank flexLfos_;
  FlexEgBank flexEgs_;
};

}  // namespace spindle::engine::mod
