#pragma once
// A region's modulation sources: every envelope and LFO, whichever format wrote it, in
// one list compiled on the loader thread (ModPlan::build) that each voice walks
// (VoiceSources). A source runs at one of two rates:
//
//   per frame     the SFZ v1 envelopes and LFOs (ampeg, fileg, pitcheg; amplfo, fillfo,
//                 pitchlfo), which the SoundFont and DecentSampler loaders fill too. Each
//                 moves one destination (amplitude, cutoff, pitch), and that
//                 destination's render stage reads its values frame by frame.
//   control rate  the SFZ v2 LFOs (lfoN_*) and flex envelopes (egN_*). Each moves the
//                 continuous targets its mask names, by its depths, at the end of every
//                 control step (VoiceMod).
//
// Only the per-frame sources that can move something are listed: ampeg always (fades
// and the voice's end use it); fileg and fillfo only when the region has a filter; an
// envelope with a depth, a vel2depth or a controller on its depth; an LFO that runs at
// note start or whose depth or frequency a controller or v2 source moves. A source left
// out outputs zeros, which is what it would have added: nothing.
#include <array>
#include <cstdint>
#include <span>

#include "core/Modulation.h"
#include "core/Realtime.h"
#include "core/Region.h"

namespace spindle::engine::mod {

enum class SourceKind : uint8_t { Envelope, Lfo, FlexLfo, FlexEg };

// What a per-frame source moves.
enum class V1Dest : uint8_t { Amp, Fil, Pitch };
inline constexpr size_t kV1Dests = 3;

struct ModSource {
  SourceKind kind = SourceKind::Envelope;
  uint8_t slot = 0;      // Envelope, Lfo: its V1Dest; FlexLfo, FlexEg: its entry (k-th lfoN / egN)
  uint8_t params = 0;    // its parameters' index among the region's of its kind
  uint64_t targets = 0;  // FlexLfo, FlexEg: the continuous targets it moves (bit t)

  bool perFrame() const noexcept { return kind == SourceKind::Envelope || kind == SourceKind::Lfo; }
};

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

// A region's sources as a voice walks them: the list, and beside it the parameters of
// each kind (a source's `params` indexes its kind's span).
struct RegionSources {
  std::span<const ModSource> list;
  std::span<const V1Envelope> envelopes;
  std::span<const V1Lfo> lfos;
  std::span<const FlexLfo> flexLfos;
  std::span<const FlexEg> flexEgs;
  // Bit d: controllers may move V1Dest d later (an LFO's depth or frequency, a dynamic
  // envelope's depth), so it counts as modulated even while it is still.
  uint8_t controlled = 0;
};

// The per-frame sources of one region, at most one envelope and one LFO per
// destination: what compileV1 lists, in fixed storage.
struct V1Sources {
  std::array<ModSource, 2 * kV1Dests> list{};
  std::array<V1Envelope, kV1Dests> envelope{};
  std::array<V1Lfo, kV1Dests> lfo{};
  uint8_t count = 0, envelopes = 0, lfos = 0, controlled = 0;

  RegionSources view() const noexcept {
    return {{list.data(), count}, {envelope.data(), envelopes}, {lfo.data(), lfos}, {}, {}, controlled};
  }
};

// touched: RegionMods::touched, the targets with a slot; flexAmp: a flex EG replaces ampeg (egN_ampeg), which
// then stays at 1 and only fades. Never allocates: the loader thread compiles every
// region with it, the audio thread a region it finds no plan for.
V1Sources compileV1(const Region& r, const ModTargetSet& touched, bool flexAmp) noexcept SPINDLE_REALTIME;

}  // namespace spindle::engine::mod
