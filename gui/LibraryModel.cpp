#include "gui/LibraryModel.h"

#include <QBrush>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QMimeData>
#include <QUrl>
#include <filesystem>
#include <iterator>
#include <map>

#include "gui/Theme.h"

namespace spindle::gui {

namespace {

QString qs(const std::string& text) { return QString::fromStdString(text); }

QString presetLabel(const library::Preset& p) {
  return QStringLiteral("%1:%2 %3").arg(p.bank, 3, 10, QLatin1Char('0')).arg(p.program, 3, 10, QLatin1Char('0')).arg(qs(p.name));
}

// The entry's folder under its root, "." for the root itself.
QString relativeFolder(const library::Entry& e) {
  namespace fs = std::filesystem;
  const fs::path folder = fs::path(e.path).parent_path();
  const fs::path relative = e.root.empty() ? folder : folder.lexically_relative(e.root);
  return relative.empty() || relative.string().starts_with("..") ? qs(folder.string()) : qs(relative.string());
}

// A folder row's label: the root's name, then the folder under it.
QString folderLabel(const library::Entry& e) {
  const QString root = QDir(qs(e.root)).dirName();
  const QString folder = relativeFolder(e);
  return folder == QStringLiteral(".") ? root : root + QLatin1Char('/') + folder;
}

QString searchText(const library::Entry& e) {
  QStringList words{qs(e.name), qs(e.format), relativeFolder(e)};
  for (const std::string& control : e.controls) words << qs(control);
  return words.join(QLatin1Char('\n'));
}

}  // namespace

// ---- LibraryMarks ----------------------------------------------------------

LibraryMarks::LibraryMarks(QSettings& store)
    : store_(store),
      favourites_(store.value(QStringLiteral("libraries/favourites")).toStringList()),
      recent_(store.value(QStringLiteral("libraries/recentlyLoaded")).toStringList()) {}

QString LibraryMarks::key(const QString& path, int preset) {
  return preset < 0 ? path : QStringLiteral("%1#%2:%3").arg(path).arg(preset / 128).arg(preset % 128);
}

void LibraryMarks::setFavourite(const QString& key, bool on) {
  favourites_.removeAll(key);
  if (on) favourites_.append(key);
  store_.setValue(QStringLiteral("libraries/favourites"), favourites_);
}

void LibraryMarks::loaded(const QString& key) {
  recent_.removeAll(key);
  recent_.prepend(key);
  while (recent_.size() > kMaxRecent) recent_.removeLast();
  store_.setValue(QStringLiteral("libraries/recentlyLoaded"), recent_);
}

// ---- LibraryModel: building the tree ---------------------------------------

LibraryModel::LibraryModel(LibraryMarks& marks, QObject* parent) : QAbstractItemModel(parent), marks_(marks) {
  batches_.setInterval(0);
  connect(&batches_, &QTimer::timeout, this, [this] {
    if (!appendBatch()) batches_.stop();
  });
}

void LibraryModel::update(std::vector<library::Entry> entries) {
  if (!unchangedFrom(entries)) return setEntries(std::move(entries));
  pending_.clear();
  for (library::Entry& e : entries)
    if (!byPath_.contains(e.path)) pending_.push_back(std::move(e));
  if (!pending_.empty() && !batches_.isActive()) batches_.start();
}

// The tree emptied in one reset, then `entries` appended in batches.
void LibraryModel::setEntries(std::vector<library::Entry> entries) {
  clearTree();
  pending_ = std::move(entries);
  if (pending_.empty()) batches_.stop();
  else batches_.start();
}

void LibraryModel::setByFolder(bool on) {
  if (on == byFolder_) return;
  byFolder_ = on;
  std::vector<library::Entry> all = clearTree();
  std::move(pending_.begin(), pending_.end(), std::back_inserter(all));
  setEntries(std::move(all));
}

// Empties the tree in one reset; returns the entries it showed.
std::vector<library::Entry> LibraryModel::clearTree() {
  beginResetModel();
  std::vector<library::Entry> shown = std::move(entries_);
  entries_.clear();
  nodes_.clear();
  top_.clear();
  byPath_.clear();
  folderNodes_.clear();
  endResetModel();
  return shown;
}

// The index reads a file again only when its stamp moved: an entry with the same stamp
// and root is the one shown.
bool LibraryModel::unchangedFrom(const std::vector<library::Entry>& entries) const {
  std::size_t known = 0;
  for (const library::Entry& e : entries) {
    const auto at = byPath_.find(e.path);
    if (at == byPath_.end()) continue;
    const library::Entry& ours = entries_[static_cast<std::size_t>(at->second)];
    if (ours.modified != e.modified || ours.modifiedNs != e.modifiedNs || ours.bytes != e.bytes || ours.root != e.root)
      return false;
    ++known;
  }
  return known == entries_.size();
}

// Takes queued entries while their rows (each its own and its presets') fit in one
// batch, at least one entry, and inserts them.
bool LibraryModel::appendBatch() {
  if (pending_.empty()) return false;
  std::vector<int> batch;
  std::size_t taken = 0;
  for (int rows = 0; taken < pending_.size(); ++taken) {
    rows += 1 + static_cast<int>(pending_[taken].presets.size());
    if (!batch.empty() && rows > kBatchRows) break;
    byPath_[pending_[taken].path] = static_cast<int>(entries_.size());
    batch.push_back(static_cast<int>(entries_.size()));
    entries_.push_back(std::move(pending_[taken]));
  }
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(taken));
  if (byFolder_) placeInFolders(batch);
  else insertEntries(-1, batch);
  return true;
}

// Every row's name (its star) and roles may read differently: one range per parent.
void LibraryModel::marksChanged() {
  const auto changed = [this](const std::vector<int>& rows) {
    if (rows.empty()) return;
    const auto first = static_cast<quintptr>(rows.front()), last = static_cast<quintptr>(rows.back());
    emit dataChanged(createIndex(0, 0, first), createIndex(static_cast<int>(rows.size()) - 1, kColumns - 1, last));
  };
  changed(top_);
  for (const Node& n : nodes_) changed(n.children);
}

int LibraryModel::addNode(Node node) {
  nodes_.push_back(std::move(node));
  const int id = static_cast<int>(nodes_.size()) - 1;
  Node& n = nodes_.back();
  std::vector<int>& siblings = n.parent < 0 ? top_ : nodes_[static_cast<std::size_t>(n.parent)].children;
  n.row = static_cast<int>(siblings.size());
  siblings.push_back(id);
  return id;
}

void LibraryModel::addEntry(int entry, int parent) {
  const library::Entry& e = entries_[static_cast<std::size_t>(entry)];
  const int id = addNode({parent, 0, EntryRow, entry, -1, {}, searchText(e), {}});
  for (std::size_t p = 0; p < e.presets.size(); ++p)
    addNode({id, 0, PresetRow, entry, static_cast<int>(p), {}, qs(e.presets[p].name) + QLatin1Char('\n') + searchText(e), {}});
}

void LibraryModel::insertEntries(int parent, const std::vector<int>& entries) {
  const auto first = static_cast<int>(parent < 0 ? top_.size() : nodes_[static_cast<std::size_t>(parent)].children.size());
  const QModelIndex at = parent < 0 ? QModelIndex() : createIndex(nodes_[static_cast<std::size_t>(parent)].row, 0, static_cast<quintptr>(parent));
  beginInsertRows(at, first, first + static_cast<int>(entries.size()) - 1);
  for (const int entry : entries) addEntry(entry, parent);
  endInsertRows();
}

void LibraryModel::insertFolders(const std::vector<std::pair<QString, std::vector<int>>>& folders) {
  const auto first = static_cast<int>(top_.size());
  beginInsertRows({}, first, first + static_cast<int>(folders.size()) - 1);
  for (const auto& [label, members] : folders) {
    const int id = addNode({-1, 0, FolderRow, -1, -1, label, label, {}});
    folderNodes_[label] = id;
    for (const int entry : members) addEntry(entry, id);
  }
  endInsertRows();
}

// Each entry under its folder's row ("root/relative"), new folders' rows added.
void LibraryModel::placeInFolders(const std::vector<int>& entries) {
  std::map<QString, std::vector<int>> groups;
  for (const int entry : entries) groups[folderLabel(entries_[static_cast<std::size_t>(entry)])].push_back(entry);
  std::vector<std::pair<QString, std::vector<int>>> fresh;
  for (auto& [label, members] : groups) {
    const auto known = folderNodes_.find(label);
    if (known != folderNodes_.end()) insertEntries(known->second, members);
    else fresh.emplace_back(label, std::move(members));
  }
  if (!fresh.empty()) insertFolders(fresh);
}

// ---- LibraryModel: the item model -------------------------------------------

const LibraryModel::Node* LibraryModel::node(const QModelIndex& index) const {
  if (!index.isValid() || index.internalId() >= nodes_.size()) return nullptr;
  return &nodes_[static_cast<std::size_t>(index.internalId())];
}

const library::Entry* LibraryModel::entry(const QModelIndex& index) const {
  const Node* n = node(index);
  return n && n->entry >= 0 ? &entries_[static_cast<std::size_t>(n->entry)] : nullptr;
}

QModelIndex LibraryModel::index(int row, int column, const QModelIndex& parent) const {
  if (column < 0 || column >= kColumns || row < 0) return {};
  const Node* p = node(parent);
  const std::vector<int>& rows = p ? p->children : top_;
  if (row >= static_cast<int>(rows.size())) return {};
  return createIndex(row, column, static_cast<quintptr>(rows[static_cast<std::size_t>(row)]));
}

QModelIndex LibraryModel::parent(const QModelIndex& child) const {
  const Node* n = node(child);
  if (!n || n->parent < 0) return {};
  const Node& p = nodes_[static_cast<std::size_t>(n->parent)];
  return createIndex(p.row, 0, static_cast<quintptr>(n->parent));
}

int LibraryModel::rowCount(const QModelIndex& parent) const {
  if (parent.column() > 0) return 0;
  const Node* p = node(parent);
  return static_cast<int>(p ? p->children.size() : top_.size());
}

int LibraryModel::columnCount(const QModelIndex&) const { return kColumns; }

QVariant LibraryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Name: return tr("Name");
    case Format: return tr("Format");
    case Size: return tr("Size");
    case Folder: return tr("Folder");
    default: return {};
  }
}

Qt::ItemFlags LibraryModel::flags(const QModelIndex& index) const {
  const Node* n = node(index);
  if (!n) return Qt::NoItemFlags;
  return Qt::ItemIsEnabled | Qt::ItemIsSelectable | (n->kind == FolderRow ? Qt::NoItemFlags : Qt::ItemIsDragEnabled);
}

QString LibraryModel::keyOf(const Node& n) const {
  if (n.entry < 0) return {};
  const library::Entry& e = entries_[static_cast<std::size_t>(n.entry)];
  if (n.preset < 0) return LibraryMarks::key(qs(e.path), -1);
  const library::Preset& p = e.presets[static_cast<std::size_t>(n.preset)];
  return LibraryMarks::key(qs(e.path), p.bank * 128 + p.program);
}

QVariant LibraryModel::display(const Node& n, int column) const {
  if (n.kind == FolderRow) return column == Name ? QVariant(n.folder) : QVariant();
  const library::Entry& e = entries_[static_cast<std::size_t>(n.entry)];
  const bool favourite = marks_.favourite(keyOf(n));
  switch (column) {
    case Name: {
      const QString name = n.kind == PresetRow ? presetLabel(e.presets[static_cast<std::size_t>(n.preset)]) : qs(e.name);
      return favourite ? QStringLiteral("★ ") + name : name;
    }
    case Format: return n.kind == PresetRow ? QStringLiteral("preset") : qs(e.format);
    case Size: return n.kind == PresetRow ? QVariant() : QVariant(QLocale().formattedDataSize(static_cast<qint64>(e.bytes)));
    case Folder: return relativeFolder(e);
    default: return {};
  }
}

QVariant LibraryModel::value(const Node& n, int role) const {
  const library::Entry* e = n.entry >= 0 ? &entries_[static_cast<std::size_t>(n.entry)] : nullptr;
  const int preset = e && n.preset >= 0 ? e->presets[static_cast<std::size_t>(n.preset)].bank * 128 +
                                              e->presets[static_cast<std::size_t>(n.preset)].program
                                        : -1;
  switch (role) {
    case PathRole: return e ? qs(e->path) : QString();
    case PresetRole: return preset;
    case KindRole: return n.kind;
    case BytesRole: return e ? qulonglong{e->bytes} : qulonglong{0};
    case ModifiedRole: return e ? qlonglong{e->modified} : qlonglong{0};
    case SearchRole: return n.search;
    case KeyRole: return keyOf(n);
    case RecentRole: return marks_.recentRank(keyOf(n));
    case FavouriteRole: return marks_.favourite(keyOf(n));
    case LoKeyRole: return e ? e->loKey : -1;
    case HiKeyRole: return e ? e->hiKey : -1;
    case Qt::ForegroundRole: return e && !e->error.empty() ? QVariant(QBrush(theme::kWarn)) : QVariant();
    case Qt::ToolTipRole:
      if (!e) return n.folder;
      return e->error.empty() ? QStringLiteral("%1\n%2 regions, %3 samples").arg(qs(e->path)).arg(e->regions).arg(e->samples)
                              : QStringLiteral("%1\n%2").arg(qs(e->path), qs(e->error));
    default: return {};
  }
}

QVariant LibraryModel::data(const QModelIndex& index, int role) const {
  const Node* n = node(index);
  if (!n) return {};
  if (role == Qt::DisplayRole) return display(*n, index.column());
  return value(*n, role);
}

QStringList LibraryModel::mimeTypes() const { return {QStringLiteral("text/uri-list")}; }

// A drag onto a part strip: the file, its preset (if any) in the URL's fragment.
QMimeData* LibraryModel::mimeData(const QModelIndexList& indexes) const {
  QList<QUrl> urls;
  for (const QModelIndex& index : indexes) {
    const Node* n = node(index);
    if (!n || n->entry < 0 || index.column() != 0) continue;
    QUrl url = QUrl::fromLocalFile(value(*n, PathRole).toString());
    if (const int preset = value(*n, PresetRole).toInt(); preset >= 0) url.setFragment(QStringLiteral("preset=%1").arg(preset));
    urls << url;
  }
  auto* mime = new QMimeData;
  mime->setUrls(urls);
  return mime;
}

}  // namespace spindle::gui
