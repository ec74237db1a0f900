#include "gui/TuningButton.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>

namespace spindle::gui {

TuningButton::TuningButton(int part, QWidget* parent) : QToolButton(parent), part_(part) {
  setObjectName(QStringLiteral("Tuning"));
  setPopupMode(QToolButton::InstantPopup);
  setFixedWidth(72);
  auto* menu = new QMenu(this);
  menu->addAction(tr("Scala scale (.scl)…"), this, [this] { browse(true); });
  menu->addAction(tr("Keyboard map (.kbm)…"), this, [this] { browse(false); });
  menu->addSeparator();
  menu->addAction(tr("12-TET (clear)"), this, [this] { clear(); });
  setMenu(menu);
  showTuning({}, {}, {});
}

void TuningButton::showTuning(const QString& scaleName, const QString& scalePath, const QString& keymapPath) {
  const QString name = scaleName.isEmpty() ? QStringLiteral("12-TET") : scaleName;
  setText(fontMetrics().elidedText(name, Qt::ElideRight, width() - 18));
  QString tip = tr("Tuning: %1").arg(name);
  if (!scalePath.isEmpty()) tip += tr("\nScale: %1").arg(scalePath);
  if (!keymapPath.isEmpty()) tip += tr("\nKeyboard map: %1").arg(keymapPath);
  setToolTip(tip);
}

void TuningButton::browse(bool scale) {
  const QString file = QFileDialog::getOpenFileName(
      this, scale ? tr("Scala scale for part %1").arg(part_ + 1) : tr("Keyboard map for part %1").arg(part_ + 1),
      QString(), scale ? tr("Scala scales (*.scl)") : tr("Scala keyboard maps (*.kbm)"));
  if (file.isEmpty()) return;
  if (scale) chooseScale(file);
  else chooseKeymap(file);
}

}  // namespace spindle::gui
