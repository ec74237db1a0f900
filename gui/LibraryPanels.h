#pragma once
// The side panels around the parts:
//   ProblemsPanel   the problems of every part's last load, one row each with file:line,
//                   then those met while playing (disk errors), one row each per file
// (The library browser is LibraryBrowser.h.)
//
// Thread: gui thread.
#include <QWidget>

class QLabel;
class QTableView;

namespace spindle::gui {

class ProblemsModel;

class ProblemsPanel : public QWidget {
  Q_OBJECT

 public:
  ProblemsPanel(ProblemsModel& model, QWidget* parent = nullptr);
  void refresh();  // the summary line, after the model changed
  QTableView* view() const noexcept { return view_; }

 private:
  ProblemsModel& model_;
  QLabel* summary_ = nullptr;
  QTableView* view_ = nullptr;
};

}  // namespace spindle::gui
