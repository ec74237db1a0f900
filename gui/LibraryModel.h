#pragma once
// LibraryModel: the library index's entries (library/LibraryIndex.h) as a tree for the
// browser, either a list (each entry a row, a SoundFont's presets under it) or grouped
// by folder (each folder under its root a row, its entries under it). Columns: name,
// format, size, folder. The rows carry what the filter and the sort read (roles below).
//
//   list:       Piano.sfz                    by folder:  Pianos (~/sfz)
//               GM.sf2                                     Piano.sfz
//                 000:000 Grand Piano                    SoundFonts (/usr/share/sounds/sf2)
//                 000:001 Bright Piano                     GM.sf2
//                                                            000:000 Grand Piano
//
// The browser hands it the index's entries when the index's serial moved (update()).
// Entries it does not show yet are appended in batches of at most kBatchRows rows (or
// one entry whose presets are more), one batch per event-loop turn (a zero-time timer), so a scan of thousands never holds the
// gui thread for long; a changed or vanished entry rebuilds the tree in one reset
// (setEntries). Reading the model never touches the index.
//
// Thread: gui thread.
#include <QAbstractItemModel>
#include <QSettings>
#include <QStringList>
#include <QTimer>
#include <map>
#include <unordered_map>
#include <vector>

#include "library/LibraryIndex.h"

namespace spindle::gui {

// The favourites and the recently loaded entries, kept in the window's settings as keys
// "path" or "path#bank:program" (a SoundFont's preset). Most recent first.
class LibraryMarks {
 public:
  static constexpr int kMaxRecent = 20;
  explicit LibraryMarks(QSettings& store);
  static QString key(const QString& path, int preset);  // preset: bank * 128 + program, or -1
  bool favourite(const QString& key) const { return favourites_.contains(key); }
  void setFavourite(const QString& key, bool on);
  int recentRank(const QString& key) const { return static_cast<int>(recent_.indexOf(key)); }  // -1: not recent
  void loaded(const QString& key);
  const QStringList& recent() const noexcept { return recent_; }

 private:
  QSettings& store_;
  QStringList favourites_, recent_;
};

class LibraryModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column { Name, Format, Size, Folder, kColumns };
  enum Role {
    PathRole = Qt::UserRole + 1,  // the file a load takes (a folder row: empty)
    PresetRole,                   // bank * 128 + program of a preset row, else -1
    KindRole,                     // Kind
    BytesRole,                    // size on disk (qulonglong)
    ModifiedRole,                 // mtime, seconds (qlonglong)
    SearchRole,                   // the text the search matches: name, format, folder, controls (a preset: its name too)
    KeyRole,                      // LibraryMarks::key of the row
    RecentRole,                   // rank among the recently loaded, -1: not recent
    FavouriteRole,                // bool
    LoKeyRole,                    // the entry's lowest and highest key (-1: not known)
    HiKeyRole,
  };
  enum Kind { FolderRow, EntryRow, PresetRow };

  static constexpr int kBatchRows = 100;  // rows (an entry and its presets) appended per event-loop turn

  explicit LibraryModel(LibraryMarks& marks, QObject* parent = nullptr);

  void setEntries(std::vector<library::Entry> entries);  // the tree emptied in one reset, then refilled in batches
  void update(std::vector<library::Entry> entries);      // the new ones queued for batches; else setEntries
  bool appendBatch();                                    // the next batch; false when none was queued
  int pendingCount() const noexcept { return static_cast<int>(pending_.size()); }
  void setByFolder(bool on);  // the folder tree instead of the list (refilled in batches)
  bool byFolder() const noexcept { return byFolder_; }
  int entryCount() const noexcept { return static_cast<int>(entries_.size()); }
  const library::Entry* entry(const QModelIndex& index) const;  // null for a folder row
  void marksChanged();  // favourites or recent changed: the rows showing them repaint

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  QStringList mimeTypes() const override;
  QMimeData* mimeData(const QModelIndexList& indexes) const override;

 private:
  struct Node {
    int parent = -1;  // -1: a top-level row
    int row = 0;
    Kind kind = EntryRow;
    int entry = -1;   // into entries_ (a folder row: -1)
    int preset = -1;  // into the entry's presets (a preset row)
    QString folder;   // a folder row's label
    QString search;   // SearchRole
    std::vector<int> children;
  };
  int addNode(Node node);
  void addEntry(int entry, int parent);
  std::vector<library::Entry> clearTree();
  void insertEntries(int parent, const std::vector<int>& entries);  // appended under `parent` (-1: top)
  void insertFolders(const std::vector<std::pair<QString, std::vector<int>>>& folders);
  void placeInFolders(const std::vector<int>& entries);
  bool unchangedFrom(const std::vector<library::Entry>& entries) const;  // none of ours changed or vanished
  const Node* node(const QModelIndex& index) const;
  QVariant display(const Node& n, int column) const;
  QVariant value(const Node& n, int role) const;
  QString keyOf(const Node& n) const;

  LibraryMarks& marks_;
  std::vector<library::Entry> entries_;
  std::vector<Node> nodes_;
  std::vector<int> top_;  // the top-level rows' nodes
  std::unordered_map<std::string, int> byPath_;  // entries_ by path
  std::map<QString, int> folderNodes_;           // the folder rows' nodes by label
  std::vector<library::Entry> pending_;          // not shown yet, in the order they came
  QTimer batches_;                               // appends pending_ a batch per turn
  bool byFolder_ = false;
};

}  // namespace spindle::gui
