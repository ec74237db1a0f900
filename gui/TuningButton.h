#pragma once
// TuningButton: a part's tuning in its strip. Shows the scale's name ("12-TET" without
// one); its menu chooses a Scala scale (.scl) or keyboard map (.kbm) in a file dialog,
// or goes back to 12-TET. It only emits requests; MainWindow passes them to the
// EngineLink, which reads the files.
//
// Thread: gui thread.
#include <QString>
#include <QToolButton>

namespace spindle::gui {

class TuningButton : public QToolButton {
  Q_OBJECT

 public:
  explicit TuningButton(int part, QWidget* parent = nullptr);

  // The tuning the part plays: the scale's name, or empty for 12-TET.
  void showTuning(const QString& scaleName, const QString& scalePath, const QString& keymapPath);
  // What the menu's entries do after their file dialog (tests call them directly).
  void chooseScale(const QString& file) { emit scaleChosen(part_, file); }
  void chooseKeymap(const QString& file) { emit keymapChosen(part_, file); }
  void clear() { emit cleared(part_); }

 signals:
  void scaleChosen(int part, const QString& file);
  void keymapChosen(int part, const QString& file);
  void cleared(int part);

 private:
  void browse(bool scale);

  int part_;
};

}  // namespace spindle::gui
