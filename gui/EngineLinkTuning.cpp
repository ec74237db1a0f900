// EngineLink: part tunings (Scala scale and keyboard map), read on the gui thread.
#include <QFileInfo>

#include "gui/EngineLink.h"

namespace spindle::gui {

QString EngineLink::setTuning(int part, const QString& scale, const QString& keymap) {
  instrument::TuningResult result;
  instrument::TuningFileError error;
  if (!instrument::loadTuning({scale.toStdString(), keymap.toStdString()}, result, error))
    return QString::fromStdString(error.text());
  applyTuning(part, scale, keymap, result);
  return {};
}

void EngineLink::applyTuning(int part, const QString& scale, const QString& keymap,
                             const instrument::TuningResult& tuning) {
  PartInfo& info = parts_[index(part)];
  info.scalePath = scale;
  info.keymapPath = keymap;
  info.scaleName = QString::fromStdString(tuning.scaleName);
  if (wiring_.engine->setPartTuning(part, tuning.tuning)) pendingTunings_[index(part)].reset();
  else pendingTunings_[index(part)] = tuning.tuning;  // the newest wins; retried on poll()
  emit partChanged(part);
}

void EngineLink::retryTunings() {
  for (int part = 0; part < limits::kChannels; ++part) {
    std::optional<KeyTuning>& waiting = pendingTunings_[index(part)];
    if (waiting && wiring_.engine->setPartTuning(part, *waiting)) waiting.reset();
  }
}

}  // namespace spindle::gui
