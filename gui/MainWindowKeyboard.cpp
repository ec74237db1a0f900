// MainWindow, the keyboard row: its caption, the selected part's MPE zone and the
// on-screen keyboard (PianoKeyboard.h), which plays the selected part, or the member
// channels of the zone the part is the master of.
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "gui/Audition.h"
#include "gui/EngineLink.h"
#include "gui/MainWindow.h"
#include "gui/PianoKeyboard.h"

namespace spindle::gui {

namespace {

constexpr int kLowerMaster = 0, kUpperMaster = limits::kChannels - 1;

}  // namespace

QWidget* MainWindow::buildKeyboard(QWidget* parent) {
  auto* box = new QWidget(parent);
  auto* column = new QVBoxLayout(box);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(2);
  auto* row = new QHBoxLayout;
  keyboardCaption_ = new QLabel(box);
  keyboardCaption_->setObjectName(QStringLiteral("Caption"));
  row->addWidget(keyboardCaption_, 1);
  mpeZone_ = new QSpinBox(box);
  mpeZone_->setRange(0, engine::MpeLayout::kChannels - 1);
  mpeZone_->setPrefix(tr("MPE zone: "));
  mpeZone_->setSuffix(tr(" member channels"));
  mpeZone_->setSpecialValueText(tr("MPE off"));
  mpeZone_->setToolTip(tr("MPE (MIDI Polyphonic Expression): part 1 is the master of the lower zone (members from "
                          "channel 2 up), part 16 of the upper (members from channel 15 down). Each note of an MPE "
                          "controller plays on a member channel of its own and bends, presses and brightens (CC74) "
                          "alone. An MPE Configuration Message from the controller sets it too."));
  row->addWidget(mpeZone_);
  column->addLayout(row);
  keyboard_ = new PianoKeyboard(box);
  keyboard_->setMinimumHeight(96);
  column->addWidget(keyboard_, 1);
  connect(keyboard_, &PianoKeyboard::noteOn, this, &MainWindow::playKey);
  connect(keyboard_, &PianoKeyboard::noteOff, this, [this](int key) { playKey(key, 0); });
  connect(keyboard_, &PianoKeyboard::channelMessage, this, [this](int status, int data1, int data2) {
    link_.sendMidi(static_cast<uint8_t>(status), static_cast<uint8_t>(data1), static_cast<uint8_t>(data2));
  });
  connect(mpeZone_, &QSpinBox::valueChanged, this, [this](int members) {
    if (selected_ == kLowerMaster || selected_ == kUpperMaster) link_.setMpeZone(selected_ == kUpperMaster, members);
  });
  return box;
}

// While an audition is on (a browser entry clicked, no part chosen since), the keys play
// the preview part; otherwise the selected part. Velocity 0: the key's note-off.
void MainWindow::playKey(int key, int velocity) {
  if (audition_->active()) return audition_->key(key, velocity > 0);
  if (velocity > 0) link_.noteOn(selected_, key, velocity);
  else link_.noteOff(selected_, key);
}

// The zone box follows the engine (a controller's MPE Configuration Message, OSC, --mpe)
// whenever the engine's zone moves; what the user types stays until the engine has it.
void MainWindow::showKeyboard() {
  const MpeChannels zone = link_.mpeChannels(selected_);
  const int members = zone.on() ? zone.last - zone.first + 1 : 0;
  mpeZone_->setEnabled(selected_ == kLowerMaster || selected_ == kUpperMaster);
  if (members != mpeShown_) {
    mpeShown_ = members;
    const QSignalBlocker quiet(mpeZone_);
    mpeZone_->setValue(members);
  }
  keyboard_->setMpeChannels(zone);
  keyboard_->setNoteMarks(link_.noteMarks(selected_));
  keyboard_->setLit(link_.litKeys(selected_));
}

}  // namespace spindle::gui
