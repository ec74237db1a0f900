#pragma once
// DiskPanel: the "Disk" tab of the System check. Measures how long a stream takes to
// start on this machine's disk under load, through Spindle's own disk thread
// (tools/StreamStart.h, as spindle-diskbench --starts-only runs it), and offers the
// preload that covers it: "Use this preload" keeps it as the setting (spindle.conf's
// engine/preloadFrames, for instruments loaded from the next start on).
//
//   [Run]  measuring…
//   112 starts: median 0.8 ms, p99 3.1 ms, worst 4.9 ms
//   preload for this disk: 2048 frames per sample (now: 4096)   [Use this preload]
//
// Threads: gui thread; the measurement runs on a BackgroundJob worker (and the disk
// thread it starts), in a temporary folder of `folder`; the engine keeps playing.
#include <QString>
#include <QWidget>

#include "gui/BackgroundJob.h"
#include "tools/StreamStart.h"

class QLabel;
class QPushButton;
class QTimer;

namespace spindle::gui {

class DiskPanel : public QWidget {
  Q_OBJECT

 public:
  // `folder`: where the test files go (the library folder: its disk is the one measured);
  // `currentPreload`: the setting now, shown beside the recommendation.
  DiskPanel(QString folder, int currentPreload, QWidget* parent = nullptr);

  void run();  // starts the measurement (the quick size)
  bool busy() const { return job_.running(); }
  const tools::StreamStartResult& result() const noexcept { return result_; }
  QPushButton* useButton() const noexcept { return use_; }

 signals:
  // "Use this preload": the frames to keep as the setting.
  void preloadChosen(int frames);

 private:
  void pickUp();

  QString folder_;
  int currentPreload_;
  tools::StreamStartResult result_;
  BackgroundJob<tools::StreamStartResult> job_;
  QPushButton* run_ = nullptr;
  QPushButton* use_ = nullptr;
  QLabel* status_ = nullptr;
  QLabel* starts_ = nullptr;
  QLabel* preload_ = nullptr;
  QTimer* poll_ = nullptr;
};

}  // namespace spindle::gui
