// MainWindow, the Hosts tab: the remote Spindles a master drives (HostsPanel.h).
#include <QDockWidget>
#include <QTimer>

#include "gui/HostsPanel.h"
#include "gui/MainWindow.h"

namespace spindle::gui {

void MainWindow::showHosts(control::HostControl& hosts, HostRoutes routes) {
  if (hosts_) return;
  hosts_ = new HostsPanel(hosts, std::move(routes), this);
  auto* dock = new QDockWidget(tr("Hosts"), this);
  dock->setObjectName(QStringLiteral("Hosts"));
  dock->setWidget(hosts_);
  dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  if (auto* health = findChild<QDockWidget*>(QStringLiteral("Health"))) tabifyDockWidget(health, dock);
  else addDockWidget(Qt::RightDockWidgetArea, dock);
  dock->raise();
  QTimer::singleShot(0, dock, &QDockWidget::raise);  // once the tab exists (tabifying is laid out later)
}

void MainWindow::watchHosts(control::HostControl& hosts, HostRoutes routes) {
  if (hosts_) return;
  if (!hosts.hosts().empty()) return showHosts(hosts, std::move(routes));
  auto* timer = new QTimer(this);
  connect(timer, &QTimer::timeout, this, [this, timer, &hosts, routes = std::move(routes)] {
    if (hosts.hosts().empty()) return;
    timer->stop();
    timer->deleteLater();
    showHosts(hosts, routes);
  });
  timer->start(500);
}

}  // namespace spindle::gui
