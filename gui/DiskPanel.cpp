#include "gui/DiskPanel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>
#include <utility>

namespace spindle::gui {

DiskPanel::DiskPanel(QString folder, int currentPreload, QWidget* parent)
    : QWidget(parent), folder_(std::move(folder)), currentPreload_(currentPreload) {
  auto* intro = new QLabel(tr("How long a stream takes to start on the disk of %1, with other streams reading: "
                              "each sample's preload must cover it.").arg(folder_), this);
  intro->setWordWrap(true);
  run_ = new QPushButton(tr("Run"), this);
  status_ = new QLabel(this);
  starts_ = new QLabel(tr("Not measured yet."), this);
  preload_ = new QLabel(this);
  use_ = new QPushButton(tr("Use this preload"), this);
  use_->setEnabled(false);
  auto* top = new QHBoxLayout;
  top->addWidget(run_);
  top->addWidget(status_, 1);
  auto* bottom = new QHBoxLayout;
  bottom->addWidget(preload_, 1);
  bottom->addWidget(use_);
  auto* column = new QVBoxLayout(this);
  column->addWidget(intro);
  column->addLayout(top);
  column->addWidget(starts_);
  column->addLayout(bottom);
  column->addStretch(1);
  poll_ = new QTimer(this);
  poll_->setInterval(100);
  connect(poll_, &QTimer::timeout, this, &DiskPanel::pickUp);
  connect(run_, &QPushButton::clicked, this, &DiskPanel::run);
  connect(use_, &QPushButton::clicked, this, [this] {
    if (result_.preloadFrames <= 0) return;
    currentPreload_ = static_cast<int>(result_.preloadFrames);
    emit preloadChosen(currentPreload_);
    preload_->setText(tr("Preload for this disk: %1 frames per sample (now the setting: from the next start)")
                          .arg(currentPreload_));
  });
}

void DiskPanel::run() {
  tools::StreamStartOptions options;
  options.dir = folder_.toStdString();
  options = tools::quickStreamStart(options);
  if (!job_.start([options] { return tools::runStreamStart(options); })) return;
  run_->setEnabled(false);
  use_->setEnabled(false);
  status_->setText(tr("measuring for about %1 s…").arg(static_cast<int>(options.seconds) + 1));
  poll_->start();
}

void DiskPanel::pickUp() {
  std::optional<tools::StreamStartResult> taken = job_.take();
  if (!taken) return;
  poll_->stop();
  result_ = std::move(*taken);
  run_->setEnabled(true);
  status_->clear();
  if (!result_.error.empty()) {
    starts_->setText(tr("Could not measure: %1").arg(QString::fromStdString(result_.error)));
    preload_->clear();
    return;
  }
  starts_->setText(tr("%1 starts: median %2 ms, p99 %3 ms, worst %4 ms%5")
                       .arg(result_.startsMs.size())
                       .arg(result_.medianMs, 0, 'f', 1)
                       .arg(result_.p99Ms, 0, 'f', 1)
                       .arg(result_.worstMs, 0, 'f', 1)
                       .arg(result_.cacheDropped ? QString() : tr(" (the page cache could not be dropped)")));
  preload_->setText(tr("Preload for this disk: %1 frames per sample (now: %2)").arg(result_.preloadFrames).arg(currentPreload_));
  use_->setEnabled(true);
}

}  // namespace spindle::gui
