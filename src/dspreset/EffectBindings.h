#pragma once
// DecentSampler <ui> controls bound to instrument effects (type="effect"
// level="instrument", the effect named by effectIndex / position or tags): the
// control's CC moves the bus parameter through a curve (BusParamCurve) built here
// on the loader thread. At each CC value the curve holds what the control's position
// there sets (its translated value, converted as EffectKinds.h converts the attribute)
// minus the value the effect loads with, so the parameter is the control's value
// wherever the control stands; a position without the binding leaves the effect's.
// Bindings to a parameter the effect does not have, or to an effect not played, are
// reported once per parameter.
#include <vector>

#include "dspreset/Controls.h"
#include "dspreset/InstrumentEffects.h"

namespace spindle::dspreset {

void bindEffects(const std::vector<Control>& controls, const std::vector<EffectSlot>& slots,
                 instrument::Instrument& out, instrument::Reporter& report);

// An effect attribute's converted value from a binding's value text (ENABLED takes
// true/false as well as numbers).
float boundValue(const EffectAttribute& a, const std::string& text, bool linear);

}  // namespace spindle::dspreset
