#pragma once
// The side panels around the parts:
//   ProblemsPanel   the problems of every part's last load, one row each with file:line,
//                   then those met while playing (disk errors), one row each per file
//   LibraryBrowser  a folder of libraries as a tree of folders and .sfz files; activating
//                   a file (double-click, Enter) loads it into the selected part
//
// Thread: gui thread.
#include <QWidget>

class QFileSystemModel;
class QLabel;
class QTableView;
class QTreeView;

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

class LibraryBrowser : public QWidget {
  Q_OBJECT

 public:
  explicit LibraryBrowser(QWidget* parent = nullptr);
  void setFolder(const QString& folder);
  QString folder() const;
  QFileSystemModel* model() const noexcept { return files_; }

 signals:
  void libraryActivated(const QString& sfzFile);
  void folderChosen(const QString& folder);

 private:
  QFileSystemModel* files_ = nullptr;
  QTreeView* tree_ = nullptr;
  QLabel* path_ = nullptr;
};

}  // namespace spindle::gui
