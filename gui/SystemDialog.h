#pragma once
// SystemDialog ("System check…"): is this machine ready for low-latency audio? Three tabs:
// the doctor's report (DoctorPanel), the latency test (LatencyPanel) and the disk's
// stream starts with the preload they ask for (DiskPanel). Non-modal; the engine keeps
// playing while it is open. The same code as spindle-doctor, spindle-latency and
// spindle-diskbench (spindle_tools) does the work.
//
// Thread: gui thread (both panels run their measurements on workers of their own).
#include <QDialog>
#include <QString>

#include "tools/SystemRoot.h"

namespace spindle::gui {

class DiskPanel;
class DoctorPanel;
class LatencyPanel;

class SystemDialog : public QDialog {
  Q_OBJECT

 public:
  // `system`: what the doctor checks (SystemRoot::live(); a fixture tree in tests);
  // `diskFolder` and `preload`: where the disk test writes, and the preload setting now.
  SystemDialog(tools::SystemRoot system, const QString& diskFolder, int preload, QWidget* parent = nullptr);

  DoctorPanel* doctor() const noexcept { return doctor_; }
  LatencyPanel* latency() const noexcept { return latency_; }
  DiskPanel* disk() const noexcept { return disk_; }

 private:
  DoctorPanel* doctor_ = nullptr;
  LatencyPanel* latency_ = nullptr;
  DiskPanel* disk_ = nullptr;
};

}  // namespace spindle::gui
