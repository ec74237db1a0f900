#pragma once
// DecentSampler's global LFOs moving instrument effects: an <lfo scope="global"> in
// <modulators> with <binding type="effect" level="instrument" ...> children becomes a
// BusParamLfo (core/BusEffects.h) of each effect it names. Loader thread.
//
// The LFO's wave runs 0..1 (sine 0.5 + 0.5 sin, square 1 then 0, saw rising) at
// `frequency` Hz; times modAmount it is the binding's input, translated as a control's
// value is (linear over 0..1 to translationOutputMin..Max, table, fixed_value) and
// converted to the bus parameter's unit as EffectKinds.h converts the attribute. The
// binding's modBehavior (else the LFO's; set by default) adds it to the parameter,
// multiplies the parameter by it or replaces it. delayTime: the LFO holds off for that
// long after the part starts its effects. The LFO runs once per part, free from the
// part's first block with that program, advancing while the part's effects run.
//
// Everything else in <modulators> (envelopes, voice LFOs, other targets) is reported
// as not played, once per kind.
#include <vector>

#include <pugixml.hpp>

#include "dspreset/InstrumentEffects.h"

namespace spindle::dspreset {

void readGlobalLfos(const pugi::xml_node& root, const std::vector<EffectSlot>& slots, instrument::Instrument& out,
                    instrument::Reporter& report);

}  // namespace spindle::dspreset
