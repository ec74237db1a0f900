#pragma once
// SettingsDialog: backend and client name, polyphony, preload size, interpolation
// quality, OSC port and bind address, and what Spindle connects by itself. The caller
// saves what it returns (Settings.h); quality, polyphony (up to the voices allocated at
// start) and following MIDI keyboards apply at once, the rest at the next start (the
// outputs are connected once per server connection: io/Connections.h).
//
// Thread: gui thread.
#include <QDialog>

#include "gui/Settings.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLineEdit;
class QSpinBox;

namespace spindle::gui {

class SettingsDialog : public QDialog {
  Q_OBJECT

 public:
  explicit SettingsDialog(const AppSettings& settings, QWidget* parent = nullptr);
  AppSettings settings() const;

 private:
  QCheckBox* checkBox(const QString& text, const char* name, bool checked);
  QFormLayout* buildForm(const AppSettings& settings);
  void addOscRows(QFormLayout& form, const AppSettings& settings);

  AppSettings base_;  // fields the dialog does not edit (the library folder) pass through
  QComboBox* backend_ = nullptr;
  QLineEdit* clientName_ = nullptr;
  QSpinBox* polyphony_ = nullptr;
  QSpinBox* preload_ = nullptr;
  QComboBox* quality_ = nullptr;
  QSpinBox* oscPort_ = nullptr;
  QLineEdit* oscBind_ = nullptr;
  QLineEdit* oscSecretFile_ = nullptr;
  QCheckBox* oscRequireSigned_ = nullptr;
  QCheckBox* oscInsecure_ = nullptr;
  QCheckBox* connectAudio_ = nullptr;
  QCheckBox* connectMidi_ = nullptr;
};

}  // namespace spindle::gui
