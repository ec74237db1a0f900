#include "gui/PartEffectsBox.h"

#include <QCheckBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "gui/EngineLink.h"

namespace spindle::gui {

namespace {

// Whether two lists name the same effects (type and bus), whatever their flags.
bool sameEffects(const std::vector<PartEffectInfo>& a, const std::vector<PartEffectInfo>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].type != b[i].type || a[i].bus != b[i].bus) return false;
  return true;
}

}  // namespace

PartEffectsBox::PartEffectsBox(EngineLink& link, QWidget* parent)
    : QGroupBox(tr("Instrument effects"), parent), link_(link) {
  setObjectName(QStringLiteral("part-effects"));
  auto* layout = new QVBoxLayout(this);
  title_ = new QLabel(this);
  title_->setObjectName(QStringLiteral("part-effects-title"));
  layout->addWidget(title_);
  empty_ = new QLabel(tr("The instrument has no effects of its own."), this);
  layout->addWidget(empty_);
  rows_ = new QVBoxLayout;
  layout->addLayout(rows_);
  connect(&link_, &EngineLink::partChanged, this, [this](int part) {
    if (part == part_) refresh();
  });
  refresh();
}

void PartEffectsBox::setPart(int part) {
  part_ = part;
  refresh();
}

void PartEffectsBox::rebuild(const std::vector<PartEffectInfo>& effects) {
  for (QCheckBox* box : boxes_) delete box;
  boxes_.clear();
  for (const PartEffectInfo& e : effects) {
    const QString bus = QString::fromStdString(busName(e.bus));
    auto* box = new QCheckBox(tr("%1  %2  (%3 bus): bypass").arg(e.index + 1).arg(QString::fromStdString(e.type), bus), this);
    box->setObjectName(QStringLiteral("effect-bypass-%1").arg(e.index + 1));
    box->setToolTip(tr("Bypassed: the effect's input passes on (a 5 ms crossfade)"));
    box->setEnabled(e.index < kBypassableEffects);
    const int part = part_, index = e.index;
    connect(box, &QCheckBox::toggled, this, [this, part, index](bool on) { link_.setEffectBypass(part, index, on); });
    rows_->addWidget(box);
    boxes_.push_back(box);
  }
  shown_ = effects;
}

// The part's list as the link holds it now: rebuilt when the instrument's effects
// differ from the ones shown, else only the flags follow.
void PartEffectsBox::refresh() {
  const PartInfo& info = link_.part(part_);
  title_->setText(tr("Part %1%2").arg(part_ + 1).arg(info.name.isEmpty() ? tr(": no instrument")
                                                                           : QStringLiteral(" (%1)").arg(info.name)));
  const std::vector<PartEffectInfo> effects = link_.partEffects(part_);
  if (!sameEffects(effects, shown_) || boxes_.size() != effects.size()) rebuild(effects);
  empty_->setVisible(effects.empty() && !info.name.isEmpty());
  for (size_t i = 0; i < boxes_.size(); ++i) {
    const QSignalBlocker block(boxes_[i]);
    boxes_[i]->setChecked(effects[i].bypassed);
  }
}

}  // namespace spindle::gui
