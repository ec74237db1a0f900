#pragma once
// V1Plan: a region's SFZ v1 envelopes and LFOs (ampeg, fileg, pitcheg; amplfo, fillfo,
// pitchlfo), which the SoundFont and DecentSampler loaders fill too, compiled on the
// loader thread (ModPlan::build) into the flat lists a voice walks (VoiceSources).
//
// Only the sources that can move something are listed: ampeg always (fades and the
// voice's end use it); fileg and fillfo only when the region has a filter; an envelope
// with a depth, a vel2depth or a controller on its depth; an LFO that runs at note
// start or whose depth or frequency a controller or v2 source moves. A source left out
// outputs zeros, which is what it would have added: nothing.
#include <array>
#include <cstdint>
#include <span>

#include "core/Modulation.h"
#include "core/Realtime.h"
#include "core/Region.h"

namespace spindle::engine::mod {

// What a v1 source moves; also its index in VoiceSources.
enum class V1Dest : uint8_t { Amp, Fil, Pitch };
inline constexpr size_t kV1Dests = 3;

struct V1Envelope {
  V1Dest dest = V1Dest::Amp;
  EnvelopeParams params;
  bool noteStartAdds = true;           // the note-start sums of its stage targets add to params
  ModTarget first = ModTarget::Count;  // its Delay target; Start..Release follow in enum order
  ModTarget depth = ModTarget::Count;  // its depth target; Count: none
  bool dynamic = false;   // *_dynamic: its stage controllers move it while it runs
  bool releases = true;   // note-off releases it (ampeg does not when a flex EG replaces it)
};

struct V1Lfo {
  V1Dest dest = V1Dest::Amp;
  LfoParams params;
  ModTarget depth = ModTarget::Count, freq = ModTarget::Count;
  bool depthMoves = false, freqMoves = false;  // continuous modulation moves them
};

struct V1Plan {
  uint8_t envelopeCount = 0, lfoCount = 0;
  std::array<V1Envelope, kV1Dests> envelope{};
  std::array<V1Lfo, kV1Dests> lfo{};
  // Per destination: controllers may move it later (an LFO's depth or frequency, a
  // dynamic envelope's depth), so it counts as modulated even while it is still.
  std::array<bool, kV1Dests> controlled{};

  std::span<const V1Envelope> envelopes() const noexcept { return {envelope.data(), envelopeCount}; }
  std::span<const V1Lfo> lfos() const noexcept { return {lfo.data(), lfoCount}; }
};

// touched: RegionMods::touched; flexAmp: a flex EG replaces ampeg (egN_ampeg), which
// then stays at 1 and only fades. Never allocates: the loader thread compiles every
// region with it, the audio thread a region it finds no plan for.
V1Plan compileV1(const Region& r, uint64_t touched, bool flexAmp) noexcept SPINDLE_REALTIME;

}  // namespace spindle::engine::mod
