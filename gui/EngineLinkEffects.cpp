// EngineLink, the shared reverb and chorus (the session clamps and posts a setting; the
// sends are MIDI controllers of the part's channel, through the window's own MIDI input
// like its keyboard), the parts' instrument effects and their tunings.
#include <algorithm>
#include <cmath>

#include "core/MidiEvent.h"
#include "gui/EngineLink.h"

namespace spindle::gui {

void EngineLink::setEffect(EffectParam param, float value) {
  if (control_.setEffect(param, value)) commanded();
}

void EngineLink::setSend(int part, int cc, int value) {
  const auto status = static_cast<uint8_t>(midi::kControlChange | std::clamp(part, 0, limits::kChannels - 1));
  sendMidi(status, static_cast<uint8_t>(cc), static_cast<uint8_t>(std::clamp(value, 0, 127)));
}

int EngineLink::send(int part, int cc) const {
  return static_cast<int>(std::lround(control_.engine().controllerValue(part, cc) * 127.0f));
}

void EngineLink::setEffectBypass(int part, int effect, bool on) {
  if (part < 0 || part >= limits::kChannels) return;
  if (control_.setPartEffectBypass(part, effect, on)) commanded();
}

// The files are read here, by the session; a bad one changes nothing.
QString EngineLink::setTuning(int part, const QString& scale, const QString& keymap) {
  std::string error;
  if (!control_.setPartTuning(part, scale.toStdString(), keymap.toStdString(), error))
    return QString::fromStdString(error.empty() ? std::string("the command queue is full") : error);
  commanded();
  return {};
}

}  // namespace spindle::gui
