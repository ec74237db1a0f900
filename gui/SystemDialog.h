#pragma once
// SystemDialog ("System check…"): is this machine ready for low-latency audio? Two tabs:
// the doctor's report (DoctorPanel) and the latency test (LatencyPanel). Non-modal; the
// engine keeps playing while it is open. The same code as spindle-doctor and
// spindle-latency (spindle_tools) does the work.
//
// Thread: gui thread (both panels run their measurements on workers of their own).
#include <QDialog>

#include "tools/SystemRoot.h"

namespace spindle::gui {

class DoctorPanel;
class LatencyPanel;

class SystemDialog : public QDialog {
  Q_OBJECT

 public:
  // `system`: what the doctor checks (SystemRoot::live(); a fixture tree in tests).
  explicit SystemDialog(tools::SystemRoot system, QWidget* parent = nullptr);

  DoctorPanel* doctor() const noexcept { return doctor_; }
  LatencyPanel* latency() const noexcept { return latency_; }

 private:
  DoctorPanel* doctor_ = nullptr;
  LatencyPanel* latency_ = nullptr;
};

}  // namespace spindle::gui
