#include "gui/LibraryPanels.h"

#include <QFileDialog>
#include <QFileSystemModel>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include "gui/InstrumentFiles.h"
#include "gui/ProblemsModel.h"

namespace spindle::gui {

ProblemsPanel::ProblemsPanel(ProblemsModel& model, QWidget* parent) : QWidget(parent), model_(model) {
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(4, 4, 4, 4);
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("Caption"));
  view_ = new QTableView(this);
  view_->setModel(&model_);
  view_->setAlternatingRowColors(true);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setShowGrid(false);
  view_->verticalHeader()->hide();
  view_->verticalHeader()->setDefaultSectionSize(20);
  view_->horizontalHeader()->setStretchLastSection(true);
  view_->setColumnWidth(ProblemsModel::Part, 40);
  view_->setColumnWidth(ProblemsModel::Severity, 64);
  view_->setColumnWidth(ProblemsModel::Location, 220);
  column->addWidget(summary_);
  column->addWidget(view_, 1);
  connect(&model_, &QAbstractItemModel::modelReset, this, &ProblemsPanel::refresh);
  refresh();
}

void ProblemsPanel::refresh() {
  const int all = model_.rowCount(), errors = model_.errorCount();
  summary_->setText(all == 0 ? tr("No problems in the loaded libraries.")
                             : tr("%1 errors, %2 warnings (hover a row for the full path)").arg(errors).arg(all - errors));
}

LibraryBrowser::LibraryBrowser(QWidget* parent) : QWidget(parent) {
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(4, 4, 4, 4);
  auto* top = new QHBoxLayout;
  path_ = new QLabel(this);
  path_->setObjectName(QStringLiteral("Caption"));
  path_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // a long path must not widen the dock
  auto* choose = new QToolButton(this);
  choose->setText(tr("Folder…"));
  top->addWidget(path_, 1);
  top->addWidget(choose);
  files_ = new QFileSystemModel(this);
  files_->setNameFilters(instrumentNameFilters());
  files_->setNameFilterDisables(false);
  files_->setFilter(QDir::AllDirs | QDir::Files | QDir::NoDotAndDotDot);
  tree_ = new QTreeView(this);
  tree_->setModel(files_);
  for (int c = 1; c < files_->columnCount(); ++c) tree_->hideColumn(c);
  tree_->setHeaderHidden(true);
  tree_->setToolTip(tr("Double-click a library to load it into the selected part"));
  column->addLayout(top);
  column->addWidget(tree_, 1);
  connect(tree_, &QTreeView::activated, this, [this](const QModelIndex& index) {
    if (!files_->isDir(index)) emit libraryActivated(files_->filePath(index));
  });
  connect(choose, &QToolButton::clicked, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder of libraries"), folder());
    if (dir.isEmpty()) return;
    setFolder(dir);
    emit folderChosen(dir);
  });
}

void LibraryBrowser::setFolder(const QString& folder) {
  const QString dir = QDir(folder.isEmpty() ? QDir::homePath() : folder).canonicalPath();
  tree_->setRootIndex(files_->setRootPath(dir));
  path_->setText(QDir(dir).dirName());
  path_->setToolTip(dir);
}

QString LibraryBrowser::folder() const { return files_->rootPath(); }

}  // namespace spindle::gui
