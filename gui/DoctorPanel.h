#pragma once
// DoctorPanel: spindle-doctor's report in the GUI. One row per check (status coloured
// PASS / WARN / FAIL, title, what was found and why it matters; the fix as a child row),
// a profile chooser, and the changes that profile asks for (boot options, sysctl,
// limits, runtime steps, notes). Read-only: applying changes stays with the CLI
// (spindle-doctor --apply), which needs root.
//
// Threads: gui thread. The checks read /proc, /sys and run helper programs, so they run
// on a BackgroundJob worker; a timer picks the report up. Never the audio thread.
#include <QWidget>

#include "gui/BackgroundJob.h"
#include "tools/Doctor.h"
#include "tools/SystemRoot.h"

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QTimer;
class QTreeWidget;

namespace spindle::gui {

class DoctorPanel : public QWidget {
  Q_OBJECT

 public:
  // `system`: where the checks look (SystemRoot::live(), or a fixture tree in tests).
  explicit DoctorPanel(tools::SystemRoot system, QWidget* parent = nullptr);

  void refresh();  // runs the checks again for the chosen profile (on the worker)
  bool busy() const { return job_.running(); }
  const tools::DoctorReport& report() const noexcept { return report_; }
  QTreeWidget* checks() const noexcept { return checks_; }
  QPlainTextEdit* changes() const noexcept { return changes_; }
  void setProfile(tools::Profile profile);

 private:
  void collect();
  void showReport();
  void showChanges();

  tools::SystemRoot system_;
  tools::DoctorReport report_;
  BackgroundJob<tools::DoctorReport> job_;
  QComboBox* profile_ = nullptr;
  QLabel* summary_ = nullptr;
  QTreeWidget* checks_ = nullptr;
  QPlainTextEdit* changes_ = nullptr;
  QTimer* poll_ = nullptr;
};

}  // namespace spindle::gui
