#pragma once
// HostsPanel: the other machines' Spindles this one drives (--host, a session's hosts):
// each host's state and health, its parts, and a row that loads a library on one of its
// parts (a path on that host, typed: the file is not on this machine) or sets a level.
//
//   ┌ Hosts ─────────────────────────────────────────────────────────────────┐
//   │ host  state     voices underr. xruns memory note-on audio r.t. OSC r.t.│ routes
//   │ a     connected 3      0       0     12 MiB 5.3 ms  16.0 ms    0.40 ms │ spindle_host1: MIDI + audio
//   │ b     lost       …                                                     │ client absent
//   ┌ Parts ─────────────────────────────────────────────────────────────────┐
//   │ host part library (on the host)  instrument  level    controls / error │
//   │ [a ▾] [1 ▴▾] [/srv/libraries/piano.sfz      ] [Load]  [-6.0 dB] [Set]  │
//
// Cells and controls are named for tests (objectName "hosts", "host-parts", "host-path"..).
// Thread: gui thread; refresh() runs twice a second (HostControl never waits).
#include <QWidget>

#include <functional>
#include <vector>

#include "control/ControlTarget.h"
#include "control/HostControl.h"

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace spindle::gui {

// The routes a master makes to its hosts' NetJACK2 clients (ConnectionState::hostRoutes);
// empty: not known (the Routes column shows "–").
using HostRoutes = std::function<std::vector<control::HostRouteInfo>()>;

class HostsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit HostsPanel(control::HostControl& hosts, HostRoutes routes = {}, QWidget* parent = nullptr);

  void refresh();  // the hosts' state, health and parts as the hosts thread holds them
  QTableWidget* hostTable() const noexcept { return hostTable_; }
  QTableWidget* partTable() const noexcept { return partTable_; }

 private:
  QWidget* buildCommands();
  void fillHost(int row, const control::HostView& host, const std::vector<control::HostRouteInfo>& routes);
  void fillParts(const std::vector<control::HostView>& hosts);
  void load();
  void setLevel();

  QString routeText(const control::HostView& host, const std::vector<control::HostRouteInfo>& routes) const;

  control::HostControl& hosts_;
  HostRoutes routes_;
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
