#include "gui/LibraryBrowser.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace spindle::gui {

LibraryBrowser::LibraryBrowser(library::Index& index, QSettings& store, QWidget* parent)
    : QWidget(parent), index_(index), marks_(store), model_(marks_) {
  filter_.setSourceModel(&model_);
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(4, 4, 4, 4);
  column->setSpacing(3);
  column->addWidget(buildTop());
  buildView();
  column->addWidget(view_, 1);
  column->addWidget(buildBottom());
  auto* timer = new QTimer(this);
  connect(timer, &QTimer::timeout, this, &LibraryBrowser::refresh);
  timer->start(kPollMs);
  refresh();
}

QWidget* LibraryBrowser::buildTop() {
  auto* top = new QWidget(this);
  auto* rows = new QVBoxLayout(top);  // two narrow rows: the dock starts narrow
  rows->setContentsMargins(0, 0, 0, 0);
  rows->setSpacing(3);
  auto* row = new QHBoxLayout;
  search_ = new QLineEdit(top);
  search_->setPlaceholderText(tr("Search name, format, folder, controls, presets"));
  search_->setClearButtonEnabled(true);
  show_ = new QComboBox(top);
  show_->addItems({tr("All"), tr("Favourites"), tr("Recent")});
  show_->setToolTip(tr("Every instrument, the favourites, or the recently loaded"));
  sort_ = new QComboBox(top);
  sort_->addItems({tr("Name"), tr("Format"), tr("Size"), tr("Recent")});
  sort_->setToolTip(tr("Sort by name, format, size (largest first) or recency (recently loaded, then newest)"));
  folders_ = new QCheckBox(tr("Folders"), top);
  folders_->setToolTip(tr("Group the instruments by folder"));
  for (QComboBox* box : {show_, sort_}) box->setMinimumWidth(56);  // narrower than their texts: the dock starts narrow
  rows->addWidget(search_);
  row->addWidget(show_, 1);
  row->addWidget(sort_, 1);
  row->addWidget(folders_);
  rows->addLayout(row);
  connect(search_, &QLineEdit::textChanged, &filter_, &LibraryFilter::setText);
  connect(show_, &QComboBox::currentIndexChanged, this,
          [this](int i) { filter_.setShow(static_cast<LibraryFilter::Show>(i)); });
  connect(sort_, &QComboBox::currentIndexChanged, this,
          [this](int i) { filter_.setSortBy(static_cast<LibraryFilter::SortBy>(i)); });
  connect(folders_, &QCheckBox::toggled, &model_, &LibraryModel::setByFolder);
  return top;
}

void LibraryBrowser::buildView() {
  view_ = new QTreeView(this);
  view_->setModel(&filter_);
  view_->setUniformRowHeights(true);
  view_->setAlternatingRowColors(true);
  view_->setDragEnabled(true);
  view_->setDragDropMode(QAbstractItemView::DragOnly);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->header()->setStretchLastSection(false);
  view_->header()->setSectionResizeMode(LibraryModel::Name, QHeaderView::Stretch);
  view_->setColumnHidden(LibraryModel::Folder, true);  // in the tooltip and the folder tree
  view_->setToolTip(tr("Click: audition on the preview voices. Double-click or drag onto a part: load it there"));
  // The folder tree opens each folder's row as it comes.
  connect(&filter_, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex& parent, int first, int last) {
    if (parent.isValid() || !model_.byFolder()) return;
    for (int row = first; row <= last; ++row) view_->expand(filter_.index(row, 0));
  });
  connect(view_, &QTreeView::clicked, this, [this](const QModelIndex& index) {
    QString path;
    int preset = -1;
    if (rowAt(index, path, preset)) emit auditionRequested(path, preset);
  });
  connect(view_, &QTreeView::activated, this, [this](const QModelIndex& index) {
    QString path;
    int preset = -1;
    if (rowAt(index, path, preset)) emit libraryActivated(path, preset);
  });
}

QWidget* LibraryBrowser::buildBottom() {
  auto* bottom = new QWidget(this);
  auto* grid = new QVBoxLayout(bottom);
  grid->setContentsMargins(0, 0, 0, 0);
  auto* scan = new QHBoxLayout;
  progress_ = new QProgressBar(bottom);
  progress_->setFormat(tr("scanning %v of %m"));
  cancel_ = new QToolButton(bottom);
  cancel_->setText(QStringLiteral("✕"));
  cancel_->setToolTip(tr("Stop the scan (what it found stays)"));
  scan->addWidget(progress_, 1);
  scan->addWidget(cancel_);
  auto* buttons = new QHBoxLayout;
  auto* add = new QToolButton(bottom);
  add->setText(tr("Add…"));
  add->setToolTip(tr("Add a folder of instruments: indexed from now on, kept in the settings"));
  auto* rescan = new QToolButton(bottom);
  rescan->setText(tr("Rescan"));
  auto* favourite = new QToolButton(bottom);
  favourite->setText(QStringLiteral("☆"));
  favourite->setToolTip(tr("Mark or unmark the selected instrument as a favourite"));
  count_ = new QLabel(bottom);
  count_->setObjectName(QStringLiteral("Caption"));
  count_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  for (QWidget* w : {static_cast<QWidget*>(add), static_cast<QWidget*>(rescan), static_cast<QWidget*>(favourite)})
    buttons->addWidget(w);
  buttons->addWidget(count_, 1, Qt::AlignRight);
  grid->addLayout(scan);
  grid->addLayout(buttons);
  connect(cancel_, &QToolButton::clicked, this, [this] { index_.cancel(); });
  connect(rescan, &QToolButton::clicked, this, [this] { index_.rescan(); });
  connect(favourite, &QToolButton::clicked, this, &LibraryBrowser::toggleFavourite);
  connect(add, &QToolButton::clicked, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("A folder of instruments"));
    if (!dir.isEmpty()) addFolder(dir);
  });
  return bottom;
}

// Cheap unless the index changed: one serial read and one progress read. The model
// shows what is new in batches, one per event-loop turn (LibraryModel::update); while a
// scan runs, the entries are fetched at most every kScanFetchMs (a fetch copies them all).
void LibraryBrowser::refresh() {
  const uint64_t serial = index_.serial();
  const bool scanning = index_.progress().scanning;
  if (serial != serial_ && (!scanning || !fetched_.isValid() || fetched_.elapsed() >= kScanFetchMs)) {
    serial_ = serial;
    fetched_.start();
    model_.update(index_.entries());
  }
  showProgress();
}

void LibraryBrowser::showProgress() {
  const library::Progress p = index_.progress();
  progress_->setVisible(p.scanning);
  cancel_->setVisible(p.scanning);
  if (p.scanning) {
    progress_->setMaximum(std::max(p.total, 1));
    progress_->setValue(std::min(p.done, std::max(p.total, 1)));
  }
  count_->setText(tr("%n found", nullptr, model_.entryCount()));
}

void LibraryBrowser::loaded(const QString& path, int preset) {
  marks_.loaded(LibraryMarks::key(path, preset));
  model_.marksChanged();
  filter_.invalidate();
}

void LibraryBrowser::addFolder(const QString& folder) {
  index_.addRoot(folder.toStdString());
  emit folderChosen(folder);
}

void LibraryBrowser::toggleFavourite() {
  const QModelIndex current = view_->currentIndex();
  const QString key = current.data(LibraryModel::KeyRole).toString();
  if (key.isEmpty()) return;
  marks_.setFavourite(key, !marks_.favourite(key));
  model_.marksChanged();
  filter_.invalidate();
}

// The file and preset of a row of the view; false for a folder row.
bool LibraryBrowser::rowAt(const QModelIndex& proxyIndex, QString& path, int& preset) const {
  const QModelIndex row = proxyIndex.siblingAtColumn(0);
  if (row.data(LibraryModel::KindRole).toInt() == LibraryModel::FolderRow) return false;
  path = row.data(LibraryModel::PathRole).toString();
  preset = row.data(LibraryModel::PresetRole).toInt();
  return !path.isEmpty();
}

}  // namespace spindle::gui
