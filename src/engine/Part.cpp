#include "engine/Part.h"

#include <cmath>

#include "core/MidiEvent.h"
#include "engine/Curves.h"

namespace spindle::engine {

void Part::resetControllers(bool all) noexcept SPINDLE_REALTIME {
  const uint8_t volume = cc[midi::kCcVolume];
  const uint8_t panCc = cc[midi::kCcPan];
  cc.fill(0);
  cc[midi::kCcVolume] = all ? 100 : volume;
  cc[midi::kCcPan] = all ? 64 : panCc;
  cc[midi::kCcExpression] = 127;
  bend = 0;
  sustain = false;
  sostenuto = false;
}

void Part::setProgram(const Program* p, int fromSlot) noexcept SPINDLE_REALTIME {
  program = p;
  slot = fromSlot;
  swLast = p ? p->defaultKeyswitch : -1;
  previousNote = -1;
  sequenceCounter.fill(0);
}

float Part::mixGain(bool soloActive) const noexcept SPINDLE_REALTIME {
  if (mute || (soloActive && !solo)) return 0.0f;
  return curves::controllerGain(cc[midi::kCcVolume]) * curves::controllerGain(cc[midi::kCcExpression]) *
         std::pow(10.0f, volumeDb * 0.05f);
}

float Part::mixPan() const noexcept SPINDLE_REALTIME {
  const float ccPan = (static_cast<float>(cc[midi::kCcPan]) - 64.0f) / (cc[midi::kCcPan] < 64 ? 64.0f : 63.0f);
  return ccPan + pan;
}

}  // namespace spindle::engine
