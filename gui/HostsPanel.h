#pragma once
// HostsPanel: the other machines' Spindles this one drives (--host, a session's hosts):
// each host's state and health, its parts, and a row that loads a library on one of its
// parts (a path on that host, typed: the file is not on this machine) or sets a level.
//
//   ┌ Hosts ─────────────────────────────────────────────────────────────────┐
//   │ host  state     voices underr. xruns memory note-on audio r.t. OSC r.t.│
//   │ a     connected 3      0       0     12 MiB 5.3 ms  16.0 ms    0.40 ms │
//   │ b     lost       …                                                     │
//   ┌ Parts ─────────────────────────────────────────────────────────────────┐
//   │ host part library (on the host)  instrument  level    controls / error │
//   │ [a ▾] [1 ▴▾] [/srv/libraries/piano.sfz      ] [Load]  [-6.0 dB] [Set]  │
//
// Cells and controls are named for tests (objectName "hosts", "host-parts", "host-path"..).
// Thread: gui thread; refresh() runs twice a second (HostControl never waits).
#include <QWidget>

#include "control/HostControl.h"

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace spindle::gui {

class HostsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit HostsPanel(control::HostControl& hosts, QWidget* parent = nullptr);

  void refresh();  // the hosts' state, health and parts as the hosts thread holds them
  QTableWidget* hostTable() const noexcept { return hostTable_; }
  QTableWidget* partTable() const noexcept { return partTable_; }

 private:
  QWidget* buildCommands();
  void fillHost(int row, const control::HostView& host);
  void fillParts(const std::vector<control::HostView>& hosts);
  void load();
  void setLevel();

  control::HostControl& hosts_;
  QTableWidget* hostTable_ = nullptr;
  QTableWidget* partTable_ = nullptr;
  QComboBox* host_ = nullptr;
  QSpinBox* part_ = nullptr;
  QLineEdit* path_ = nullptr;
  QDoubleSpinBox* level_ = nullptr;
};

// "12.5 MiB", "3.2 ms", "–" for a value not measured (-1).
QString hostFigure(double value, const char* unit, int decimals);

}  // namespace spindle::gui
