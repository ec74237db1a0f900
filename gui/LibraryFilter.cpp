#include "gui/LibraryFilter.h"

#include "gui/LibraryModel.h"

namespace spindle::gui {

LibraryFilter::LibraryFilter(QObject* parent) : QSortFilterProxyModel(parent) {
  // A folder or a font shows when something under it matches. A preset row matches
  // its own name and its font's words, so a font's name shows all its presets, a
  // preset's name that preset under its font.
  setRecursiveFilteringEnabled(true);
  setDynamicSortFilter(true);
  sort(LibraryModel::Name, Qt::AscendingOrder);
}

void LibraryFilter::setText(const QString& text) {
  const QStringList words = text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
  if (words == words_) return;
  words_ = words;
  invalidateFilter();
}

void LibraryFilter::setShow(Show show) {
  if (show == show_) return;
  show_ = show;
  invalidateFilter();
}

void LibraryFilter::setSortBy(SortBy by) {
  sortBy_ = by;
  invalidate();
  sort(LibraryModel::Name, by == ByRecent || by == BySize ? Qt::DescendingOrder : Qt::AscendingOrder);
}

bool LibraryFilter::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  const QModelIndex row = sourceModel()->index(sourceRow, 0, sourceParent);
  if (row.data(LibraryModel::KindRole).toInt() == LibraryModel::FolderRow) return words_.isEmpty() && show_ == All;
  if (show_ == Favourites && !row.data(LibraryModel::FavouriteRole).toBool()) return false;
  if (show_ == Recent && row.data(LibraryModel::RecentRole).toInt() < 0) return false;
  const QString text = row.data(LibraryModel::SearchRole).toString();
  for (const QString& word : words_)
    if (!text.contains(word, Qt::CaseInsensitive)) return false;
  return true;
}

// Descending for size and recency (the largest, the most recent first): the keys are
// turned so that "more" sorts later.
bool LibraryFilter::lessThan(const QModelIndex& left, const QModelIndex& right) const {
  const auto name = [](const QModelIndex& i) { return i.data(Qt::DisplayRole).toString(); };
  const auto byName = [&] { return QString::localeAwareCompare(name(left), name(right)) < 0; };
  switch (sortBy_) {
    case ByFormat: {
      const int c = QString::compare(left.siblingAtColumn(LibraryModel::Format).data().toString(),
                                     right.siblingAtColumn(LibraryModel::Format).data().toString(), Qt::CaseInsensitive);
      return c != 0 ? c < 0 : byName();
    }
    case BySize: return left.data(LibraryModel::BytesRole).toULongLong() < right.data(LibraryModel::BytesRole).toULongLong();
    case ByRecent: {
      // Recently loaded (rank 0 the newest) above the rest, then the newest files.
      const auto rank = [](const QModelIndex& i) {
        const int r = i.data(LibraryModel::RecentRole).toInt();
        return r < 0 ? -1 : LibraryMarks::kMaxRecent - r;
      };
      if (rank(left) != rank(right)) return rank(left) < rank(right);
      return left.data(LibraryModel::ModifiedRole).toLongLong() < right.data(LibraryModel::ModifiedRole).toLongLong();
    }
    case ByName: break;
  }
  return byName();
}

int LibraryFilter::shownEntries(const QModelIndex& parent) const {
  int count = 0;
  for (int r = 0; r < rowCount(parent); ++r) {
    const QModelIndex row = index(r, 0, parent);
    if (row.data(LibraryModel::KindRole).toInt() != LibraryModel::FolderRow) ++count;
    count += shownEntries(row);
  }
  return count;
}

}  // namespace spindle::gui
