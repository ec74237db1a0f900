#include "gui/ControlStrip.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <cmath>

namespace spindle::gui {

namespace {

int midiValue(float value) { return static_cast<int>(std::lround(std::clamp(value, 0.0f, 1.0f) * 127.0f)); }

}  // namespace

ControlStrip::ControlStrip(QWidget* parent) : QWidget(parent) {
  grid_ = new QGridLayout(this);
  grid_->setContentsMargins(0, 0, 0, 0);
  grid_->setHorizontalSpacing(6);
  grid_->setVerticalSpacing(2);
  empty_ = new QLabel(tr("The instrument names no controls (label_cc)."), this);
  empty_->setObjectName(QStringLiteral("Caption"));
  grid_->addWidget(empty_, 0, 0, 1, kColumns * 3);
}

QString ControlStrip::labelText(int index) const { return labels_.at(static_cast<std::size_t>(index))->text(); }

void ControlStrip::clear() {
  for (auto* list : {&labels_, &values_})
    for (QLabel* w : *list) delete w;
  for (QSlider* s : sliders_) delete s;
  for (QComboBox* c : steps_) delete c;
  labels_.clear();
  values_.clear();
  sliders_.clear();
  steps_.clear();
  sent_.clear();
}

void ControlStrip::setControls(const std::vector<controllers::ControllerLabel>& controls,
                               const std::vector<float>& values) {
  clear();
  for (std::size_t i = 0; i < controls.size(); ++i)
    addControl(static_cast<int>(i), controls[i], i < values.size() ? values[i] : 0.0f);
  empty_->setVisible(controls.empty());
  for (int c = 0; c < kColumns; ++c) grid_->setColumnStretch(c * 3 + 1, 1);
}

// Row r, column c of the grid holds label, slider and value at grid columns 3c..3c+2;
// a control with steps spans the slider's and the value's columns with its list.
void ControlStrip::addControl(int index, const controllers::ControllerLabel& control, float value) {
  const int row = index / kColumns, column = (index % kColumns) * 3;
  auto* label = new QLabel(QString::fromStdString(control.label), this);
  label->setToolTip(tr("CC %1").arg(control.cc));
  label->setMaximumWidth(120);
  auto* text = new QLabel(this);
  text->setObjectName(QStringLiteral("Value"));
  text->setFixedWidth(26);
  text->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  labels_.push_back(label);
  values_.push_back(text);
  sent_.push_back({});
  grid_->addWidget(label, row, column);
  if (control.steps.empty()) {
    grid_->addWidget(addSlider(index, control, value, text), row, column + 1);
    grid_->addWidget(text, row, column + 2);
  } else {
    grid_->addWidget(addSteps(index, control, value), row, column + 1, 1, 2);
    text->hide();
  }
}

QWidget* ControlStrip::addSlider(int index, const controllers::ControllerLabel& control, float value, QLabel* text) {
  auto* slider = new QSlider(Qt::Horizontal, this);
  slider->setRange(0, 127);
  slider->setValue(midiValue(value));
  slider->setMinimumWidth(60);
  slider->setObjectName(QStringLiteral("Control%1").arg(control.cc));
  text->setText(QString::number(slider->value()));
  const bool midi = control.cc < controllers::kFirstExtended;
  const QString name = QString::fromStdString(control.label);
  slider->setEnabled(midi);
  slider->setToolTip(midi ? tr("%1: CC %2").arg(name).arg(control.cc)
                          : tr("%1: controller %2 is the instrument's own (no MIDI message reaches it)")
                                .arg(name)
                                .arg(control.cc));
  connect(slider, &QSlider::valueChanged, this, [this, index, text, cc = control.cc](int v) {
    text->setText(QString::number(v));
    sent_[static_cast<std::size_t>(index)] = Sent{v, kSentPolls};
    emit controlChanged(cc, v);
  });
  sliders_.push_back(slider);
  steps_.push_back(nullptr);
  return slider;
}

QWidget* ControlStrip::addSteps(int index, const controllers::ControllerLabel& control, float value) {
  auto* list = new QComboBox(this);
  for (const std::string& step : control.steps) list->addItem(QString::fromStdString(step));
  const int n = list->count();
  list->setCurrentIndex(controllers::stepOf(midiValue(value), n));
  list->setObjectName(QStringLiteral("Control%1").arg(control.cc));
  list->setToolTip(tr("%1: CC %2, %3 steps").arg(QString::fromStdString(control.label)).arg(control.cc).arg(n));
  list->setEnabled(control.cc < controllers::kFirstExtended);
  connect(list, &QComboBox::currentIndexChanged, this, [this, index, n, cc = control.cc](int k) {
    const int v = controllers::stepValue(k, n);
    sent_[static_cast<std::size_t>(index)] = Sent{v, kSentPolls};
    emit controlChanged(cc, v);
  });
  sliders_.push_back(nullptr);
  steps_.push_back(list);
  return list;
}

void ControlStrip::showValues(const std::vector<float>& values) {
  for (std::size_t i = 0; i < sliders_.size() && i < values.size(); ++i) {
    const int v = midiValue(values[i]);
    Sent& sent = sent_[i];
    if (sent.polls > 0 && v != sent.value && --sent.polls > 0) continue;  // the engine has not caught up yet
    sent.polls = 0;
    if (QComboBox* list = steps_[i]) {
      const int k = controllers::stepOf(v, list->count());
      if (list->currentIndex() == k || list->view()->isVisible()) continue;
      const QSignalBlocker quiet(list);
      list->setCurrentIndex(k);
      continue;
    }
    QSlider* s = sliders_[i];
    if (s->isSliderDown() || s->value() == v) continue;
    const QSignalBlocker quiet(s);
    s->setValue(v);
    values_[i]->setText(QString::number(v));
  }
}

}  // namespace spindle::gui
