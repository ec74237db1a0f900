#include "gui/LibraryPanels.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

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

}  // namespace spindle::gui
