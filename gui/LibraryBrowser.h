#pragma once
// LibraryBrowser: the Libraries panel: what the library index (library/LibraryIndex.h)
// found under the standard places and the user's folders, searched as one types.
//
//   [ search…                         ]
//   [All ▾] [Name ▾] [☐ Folders]
//   ┌ name                 format  size ┐  a click auditions the row on the preview
//   │ ★ Piano              sfz    12 MB │  part (the loaded parts stay as they are);
//   │ GM                   sf2     4 MB │  a double-click (Enter) or a drag onto a
//   │   000:000 Grand Piano             │  part strip loads it into that part; a
//   └───────────────────────────────────┘  SoundFont's presets are rows of their own
//   [████████░░ scanning 412 of 980  ✕]   while the index scans (✕ cancels)
//   [Add…] [Rescan] [☆]            312 found    ☆: the selected row a favourite or not
//
// The index runs on its own threads; a timer polls its serial() and progress() and the
// model takes the entries when the serial moved, showing the new ones a batch per
// event-loop turn, so the gui thread never waits for a scan nor holds a long turn.
// Favourites and the recently loaded entries live in the window's settings
// (LibraryMarks).
//
// Thread: gui thread.
#include <QElapsedTimer>
#include <QWidget>
#include <memory>

#include "gui/LibraryFilter.h"
#include "gui/LibraryModel.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QSettings;
class QToolButton;
class QTreeView;

namespace spindle::gui {

class LibraryBrowser : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kPollMs = 200;
  static constexpr int kScanFetchMs = 1000;

  // `index` started by the caller (or not yet: start() is its owner's business); it and
  // `store` outlive this widget.
  LibraryBrowser(library::Index& index, QSettings& store, QWidget* parent = nullptr);

  void refresh();  // what the timer does: the index's entries if its serial moved, its progress
  void loaded(const QString& path, int preset);  // remembered among the recently loaded
  void addFolder(const QString& folder);         // a user folder: indexed from now on

  QLineEdit* searchField() const noexcept { return search_; }
  QTreeView* view() const noexcept { return view_; }
  LibraryModel& model() noexcept { return model_; }
  LibraryFilter& filter() noexcept { return filter_; }
  QProgressBar* progress() const noexcept { return progress_; }
  QComboBox* showBox() const noexcept { return show_; }
  QComboBox* sortBox() const noexcept { return sort_; }
  QCheckBox* foldersBox() const noexcept { return folders_; }
  LibraryMarks& marks() noexcept { return marks_; }

 signals:
  void auditionRequested(const QString& path, int preset);  // a click on an entry or a preset
  void libraryActivated(const QString& path, int preset);   // a double-click or Enter
  void folderChosen(const QString& folder);                 // the user added a folder

 private:
  QWidget* buildTop();
  QWidget* buildBottom();
  void buildView();
  void showProgress();
  void toggleFavourite();
  bool rowAt(const QModelIndex& proxyIndex, QString& path, int& preset) const;

  library::Index& index_;
  LibraryMarks marks_;
  LibraryModel model_;
  LibraryFilter filter_;
  uint64_t serial_ = ~uint64_t{0};  // the index's serial the model shows
  QElapsedTimer fetched_;           // since the model's last fetch
  QLineEdit* search_ = nullptr;
  QComboBox* show_ = nullptr;
  QComboBox* sort_ = nullptr;
  QCheckBox* folders_ = nullptr;
  QTreeView* view_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QToolButton* cancel_ = nullptr;
  QLabel* count_ = nullptr;
};

}  // namespace spindle::gui
