#include "gui/SystemDialog.h"

#include <QDialogButtonBox>
#include <QTabWidget>
#include <QVBoxLayout>
#include <utility>

#include "gui/DiskPanel.h"
#include "gui/DoctorPanel.h"
#include "gui/LatencyPanel.h"

namespace spindle::gui {

SystemDialog::SystemDialog(tools::SystemRoot system, const QString& diskFolder, int preload, QWidget* parent)
    : QDialog(parent) {
  setWindowTitle(tr("System check"));
  doctor_ = new DoctorPanel(std::move(system), this);
  latency_ = new LatencyPanel(this);
  disk_ = new DiskPanel(diskFolder, preload, this);
  auto* tabs = new QTabWidget(this);
  tabs->addTab(doctor_, tr("Doctor"));
  tabs->addTab(latency_, tr("Latency test"));
  tabs->addTab(disk_, tr("Disk"));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
  auto* column = new QVBoxLayout(this);
  column->addWidget(tabs, 1);
  column->addWidget(buttons);
  resize(900, 620);
}

}  // namespace spindle::gui
