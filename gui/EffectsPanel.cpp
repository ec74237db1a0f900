#include "gui/EffectsPanel.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "core/Controllers.h"
#include "gui/EngineLink.h"
#include "gui/PartEffectsBox.h"

namespace spindle::gui {

namespace {
constexpr std::array<int, 2> kSendControllers{controllers::kReverbSend, controllers::kChorusSend};
}

EffectsPanel::EffectsPanel(EngineLink& link, QWidget* parent) : QWidget(parent), link_(link) {
  auto* layout = new QVBoxLayout(this);
  partEffects_ = new PartEffectsBox(link_, this);
  layout->addWidget(partEffects_);
  layout->addWidget(buildEffect(tr("Reverb"), "reverb"));
  layout->addWidget(buildEffect(tr("Chorus"), "chorus"));
  layout->addWidget(buildEffect(tr("Master"), "master"));
  layout->addWidget(buildSends());
  layout->addStretch(1);
  refresh();
  connect(&link_, &EngineLink::effectsChanged, this, &EffectsPanel::refresh);
  connect(&link_, &EngineLink::statsUpdated, this, &EffectsPanel::refresh);
}

void EffectsPanel::setPart(int part) { partEffects_->setPart(part); }

QWidget* EffectsPanel::settingWidget(const EffectParamInfo& info) {
  const EffectParam id = info.id;
  if (info.toggle) {
    auto* box = new QCheckBox(tr("on"), this);
    connect(box, &QCheckBox::toggled, this, [this, id](bool on) { link_.setEffect(id, on ? 1.0f : 0.0f); });
    return box;
  }
  if (info.integer) {
    auto* spin = new QSpinBox(this);
    spin->setRange(static_cast<int>(info.min), static_cast<int>(info.max));
    connect(spin, &QSpinBox::valueChanged, this, [this, id](int v) { link_.setEffect(id, static_cast<float>(v)); });
    return spin;
  }
  auto* spin = new QDoubleSpinBox(this);
  spin->setRange(static_cast<double>(info.min), static_cast<double>(info.max));
  spin->setDecimals(2);
  spin->setSingleStep(info.max > 10.0f ? 1.0 : info.max > 1.0f ? 0.1 : 0.05);
  if (!info.unit.empty()) spin->setSuffix(QStringLiteral(" ") + QString::fromLatin1(info.unit.data(), static_cast<int>(info.unit.size())));
  connect(spin, &QDoubleSpinBox::valueChanged, this, [this, id](double v) { link_.setEffect(id, static_cast<float>(v)); });
  return spin;
}

QWidget* EffectsPanel::buildEffect(const QString& title, std::string_view effect) {
  auto* group = new QGroupBox(title, this);
  auto* form = new QFormLayout(group);
  for (const auto& info : kEffectParamTable) {
    if (info.effect != effect) continue;
    QWidget* w = settingWidget(info);
    w->setObjectName(QString::fromLatin1(info.name.data(), static_cast<int>(info.name.size())));
    w->setToolTip(QString::fromLatin1(info.fluidName.data(), static_cast<int>(info.fluidName.size())));
    settings_[static_cast<size_t>(info.id)] = w;
    QString label = QString::fromLatin1(info.setting.data(), static_cast<int>(info.setting.size()));
    label.replace(QLatin1Char('-'), QLatin1Char(' '));
    form->addRow(label, w);
  }
  return group;
}

QWidget* EffectsPanel::buildSends() {
  auto* group = new QGroupBox(tr("Sends"), this);
  auto* grid = new QGridLayout(group);
  grid->addWidget(new QLabel(tr("part"), group), 0, 0);
  grid->addWidget(new QLabel(tr("reverb"), group), 0, 1);
  grid->addWidget(new QLabel(tr("chorus"), group), 0, 2);
  for (int p = 0; p < limits::kChannels; ++p) {
    grid->addWidget(new QLabel(QString::number(p + 1), group), p + 1, 0);
    for (size_t b = 0; b < kSendControllers.size(); ++b) {
      auto* spin = new QSpinBox(group);
      spin->setRange(0, 127);
      spin->setObjectName(QStringLiteral("send-%1-%2").arg(b == 0 ? "reverb" : "chorus").arg(p + 1));
      const int cc = kSendControllers[b];
      connect(spin, &QSpinBox::valueChanged, this, [this, p, cc](int v) { link_.setSend(p, cc, v); });
      grid->addWidget(spin, p + 1, static_cast<int>(b) + 1);
      sends_[static_cast<size_t>(p)][b] = spin;
    }
  }
  return group;
}

// Shows the link's settings and the engine's sends; a box the user is editing keeps
// what is typed.
void EffectsPanel::refresh() {
  for (const auto& info : kEffectParamTable) {
    QWidget* w = settings_[static_cast<size_t>(info.id)];
    if (w->hasFocus()) continue;
    const QSignalBlocker block(w);
    const float v = link_.effects().get(info.id);
    if (auto* box = qobject_cast<QCheckBox*>(w)) box->setChecked(v >= 0.5f);
    else if (auto* spin = qobject_cast<QSpinBox*>(w)) spin->setValue(static_cast<int>(v));
    else if (auto* real = qobject_cast<QDoubleSpinBox*>(w)) real->setValue(static_cast<double>(v));
  }
  for (int p = 0; p < limits::kChannels; ++p) {
    for (size_t b = 0; b < kSendControllers.size(); ++b) {
      QSpinBox* spin = sends_[static_cast<size_t>(p)][b];
      if (spin->hasFocus()) continue;
      const QSignalBlocker block(spin);
      spin->setValue(link_.send(p, kSendControllers[b]));
    }
  }
}

}  // namespace spindle::gui
