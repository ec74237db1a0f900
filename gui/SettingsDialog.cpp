#include "gui/SettingsDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

#include "core/Limits.h"

namespace spindle::gui {

SettingsDialog::SettingsDialog(const AppSettings& s, QWidget* parent) : QDialog(parent), base_(s) {
  setWindowTitle(tr("Spindle settings"));
  auto* note = new QLabel(tr("Interpolation, polyphony and following MIDI keyboards apply at once; the rest at the next start."), this);
  note->setObjectName(QStringLiteral("Caption"));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* column = new QVBoxLayout(this);
  column->addLayout(buildForm(s));
  column->addWidget(note);
  column->addWidget(buttons);
}

QCheckBox* SettingsDialog::checkBox(const QString& text, const char* name, bool checked) {
  auto* box = new QCheckBox(text, this);
  box->setObjectName(QString::fromLatin1(name));
  box->setChecked(checked);
  return box;
}

// OSC: the port, the address, and the secret other hosts sign with (docs/osc.md, Security).
void SettingsDialog::addOscRows(QFormLayout& form, const AppSettings& s) {
  oscPort_ = new QSpinBox(this);
  oscPort_->setRange(0, 65535);
  oscPort_->setSpecialValueText(tr("off"));
  oscPort_->setValue(s.oscPort);
  oscBind_ = new QLineEdit(s.oscBind, this);
  oscSecretFile_ = new QLineEdit(s.oscSecretFile, this);
  oscSecretFile_->setPlaceholderText(tr("none: OSC only on loopback (mode 0600, at least 16 bytes)"));
  oscRequireSigned_ = checkBox(tr("Loopback must sign too"), "oscRequireSigned", s.oscRequireSigned);
  oscInsecure_ = checkBox(tr("Accept unsigned OSC on a network address (anyone who reaches the port controls Spindle)"),
                          "oscInsecure", s.oscInsecure);
  form.addRow(tr("OSC port"), oscPort_);
  form.addRow(tr("OSC bind address"), oscBind_);
  form.addRow(tr("OSC secret file"), oscSecretFile_);
  form.addRow(QString(), oscRequireSigned_);
  form.addRow(QString(), oscInsecure_);
}

QFormLayout* SettingsDialog::buildForm(const AppSettings& s) {
  auto* form = new QFormLayout;
  backend_ = new QComboBox(this);
  backend_->addItem(tr("JACK"), QStringLiteral("jack"));
  backend_->addItem(tr("PipeWire"), QStringLiteral("pipewire"));
  backend_->setCurrentIndex(std::max(0, backend_->findData(s.backend)));
  clientName_ = new QLineEdit(s.clientName, this);
  polyphony_ = new QSpinBox(this);
  polyphony_->setRange(1, limits::kMaxVoices);
  polyphony_->setValue(s.polyphony);
  preload_ = new QSpinBox(this);
  preload_->setRange(-1, 1 << 22);
  preload_->setSingleStep(4096);
  preload_->setSpecialValueText(tr("whole samples in RAM"));
  preload_->setSuffix(tr(" frames"));
  preload_->setValue(s.preloadFrames);
  quality_ = new QComboBox(this);
  for (const QString& name : {tr("Linear"), tr("Hermite"), tr("Sinc"), tr("High sinc")}) quality_->addItem(name);
  quality_->setCurrentIndex(s.quality);
  connectAudio_ = checkBox(tr("Connect the outputs to the system's playback"), "connectAudio", s.connectAudio);
  connectMidi_ = checkBox(tr("Follow MIDI keyboards (connect every hardware MIDI input, also when plugged in later)"),
                          "connectMidi", s.connectMidi);
  form->addRow(tr("Audio backend"), backend_);
  form->addRow(tr("Client name"), clientName_);
  form->addRow(tr("Polyphony"), polyphony_);
  form->addRow(tr("Preload per sample"), preload_);
  form->addRow(tr("Interpolation"), quality_);
  addOscRows(*form, s);
  form->addRow(tr("Connections"), connectAudio_);
  form->addRow(QString(), connectMidi_);
  return form;
}

AppSettings SettingsDialog::settings() const {
  AppSettings s = base_;
  s.backend = backend_->currentData().toString();
  s.clientName = clientName_->text().trimmed().isEmpty() ? base_.clientName : clientName_->text().trimmed();
  s.polyphony = polyphony_->value();
  s.preloadFrames = preload_->value();
  s.quality = quality_->currentIndex();
  s.oscPort = oscPort_->value();
  s.oscBind = oscBind_->text().trimmed();
  s.oscSecretFile = oscSecretFile_->text().trimmed();
  s.oscRequireSigned = oscRequireSigned_->isChecked();
  s.oscInsecure = oscInsecure_->isChecked();
  s.connectAudio = connectAudio_->isChecked();
  s.connectMidi = connectMidi_->isChecked();
  return s;
}

}  // namespace spindle::gui
