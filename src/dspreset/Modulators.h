#pragma once
// A DecentSampler preset's <modulators> as the per-voice modulation of its regions: the
// SFZ v2 sources the engine already plays. Loader thread.
//
//   <lfo>                          a flex LFO (FlexLfo): sine, square (0/1), saw (up);
//                                  frequency, delayTime; scope="global" (the default)
//                                  on the engine's clock (FlexLfo::clock): every voice
//                                  at the phase one LFO running since frame 0 has
//   <envelope scope="voice">       a flex EG (FlexEg): attack to 1, decay to sustain,
//                                  held, release to 0; the curves as stage shapes
//   <random scope="voice">         a sample-and-hold flex LFO seeded by `seed` and the
//                                  voice: mode note_on (one draw), periodic (frequency)
//   <midiVelocity scope="voice">   a controller slot on the note-on velocity (131)
//   <midiCC number="N">            a controller slot on CC N (the part's own channel)
//
// Each source is read as a value x in 0..1 times modAmount (an LFO's wave and a random
// draw mapped from -1..1 to 0..1, a square already 0..1). A <binding> turns it into the
// parameter value T(x): linear (translationOutputMin + (max - min) x, reversed with
// translationReversed), fixed_value, or for velocity and CC a table (a generated curve
// of the change at each controller value); modBehavior (on the binding, else on the
// modulator, else "set") combines it with the unmodulated value P0: add P0 + T,
// multiply P0 T, set T. With a linear or fixed translation the change from P0 is
// d0 + d1 x in the target's own unit: d0 is added to the region's value, d1 becomes
// the source's depth, so the source at 0 (an LFO in its delay) changes nothing.
//
//   AMP_VOLUME (group, instrument)  gain factor (P / P0), on the amplitude
//   GROUP_TUNING / GLOBAL_TUNING     cents (100 per semitone), on the pitch
//   PAN                              percent, on the pan
//   ENV_ATTACK ... ENV_RELEASE       seconds / percent, the amplitude envelope at note
//                                    start (velocity and CC only)
//   type="effect" level="group"      Hz added to the cutoff (ModTarget::CutoffHz,
//   FX_FILTER_FREQUENCY              Cutoff2Hz) of the region filter the effect became:
//                                    the group's filter effects in order are filter 1, 2
//   FX_FILTER_RESONANCE              that filter's resonance, dB over Q 0.7071 (velocity
//                                    and CC only: through a curve)
//
//   mpeTimbre, mpePressure           controllers 74 and 129 (channel pressure): an MPE
//                                    note's own, the channel's outside an MPE zone
//
// Not played, reported once each with the reason: global-scope envelopes, random and
// velocity; tables on LFOs, envelopes and random; bindings
// to any other parameter. Bindings to instrument-level effects are left to the bus effects.
#include <memory>
#include <string>

#include <pugixml.hpp>

#include "core/Region.h"
#include "instrument/Instrument.h"
#include "instrument/Reporter.h"

namespace spindle::dspreset {

class Modulators {
 public:
  Modulators();
  ~Modulators();
  Modulators(Modulators&&) noexcept;
  Modulators& operator=(Modulators&&) noexcept;

  // Reads root's <modulators>; what is not played is reported to `report`. The
  // preset's XML, `out` and `report` must outlive the object: apply() adds curves to
  // `out` and reports what a region cannot take.
  static Modulators read(const pugi::xml_node& root, instrument::Instrument& out, instrument::Reporter& report);

  // Adds the modulation of group `groupIndex` (0-based in <groups>) to a region of it.
  void apply(int groupIndex, Region& r) const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace spindle::dspreset
