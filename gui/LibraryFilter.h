#pragma once
// LibraryFilter: what the browser shows of the LibraryModel: the rows whose search text
// (name, format, folder, controls, preset names) holds every word typed, case-insensitive,
// optionally only the favourites or the recently loaded, sorted by name, format, size or
// recency (recently loaded first, then the newest files). A row shows when it or a row
// under it matches (a preset row: its name and its font's words).
//
// Thread: gui thread.
#include <QSortFilterProxyModel>
#include <QStringList>

namespace spindle::gui {

class LibraryFilter : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  enum Show { All, Favourites, Recent };
  enum SortBy { ByName, ByFormat, BySize, ByRecent };

  explicit LibraryFilter(QObject* parent = nullptr);
  void setText(const QString& text);
  void setShow(Show show);
  void setSortBy(SortBy by);
  SortBy sortBy() const noexcept { return sortBy_; }
  // Entry and preset rows shown now (folder rows not counted).
  int shownEntries(const QModelIndex& parent = {}) const;

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
  bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

 private:
  QStringList words_;
  Show show_ = All;
  SortBy sortBy_ = ByName;
};

}  // namespace spindle::gui
