#include "gui/ProblemsModel.h"

#include <QBrush>
#include <QColor>
#include <QFileInfo>
#include <algorithm>

namespace spindle::gui {

void ProblemsModel::setProblems(int part, const std::vector<Problem>& problems) {
  beginResetModel();
  std::erase_if(rows_, [part](const Row& r) { return r.part == part; });
  const auto at = std::find_if(rows_.begin(), rows_.end(), [part](const Row& r) { return r.part > part; });
  std::vector<Row> added;
  added.reserve(problems.size());
  for (const Problem& p : problems) added.push_back(Row{part, p});
  rows_.insert(at, added.begin(), added.end());
  endResetModel();
}

void ProblemsModel::setRuntimeProblems(const std::vector<Problem>& problems) {
  beginResetModel();
  runtime_.clear();
  for (const Problem& p : problems) runtime_.push_back(Row{kRuntimePart, p});
  endResetModel();
}

int ProblemsModel::errorCount() const {
  auto isError = [](const Row& r) { return r.problem.severity == Problem::Severity::Error; };
  return static_cast<int>(std::count_if(rows_.begin(), rows_.end(), isError) +
                          std::count_if(runtime_.begin(), runtime_.end(), isError));
}

int ProblemsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size() + runtime_.size());
}

const ProblemsModel::Row& ProblemsModel::rowAt(int index) const {
  const auto k = static_cast<std::size_t>(index);
  return k < rows_.size() ? rows_[k] : runtime_[k - rows_.size()];
}

int ProblemsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kColumns; }

QString ProblemsModel::location(const Problem& problem) {
  const QString file = QString::fromStdString(problem.file);
  return problem.line > 0 ? QStringLiteral("%1:%2").arg(file).arg(problem.line) : file;
}

QVariant ProblemsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const Row& row = rowAt(index.row());
  const bool error = row.problem.severity == Problem::Severity::Error;
  if (role == Qt::ForegroundRole && index.column() == Severity)
    return QBrush(error ? QColor(0xff, 0x6b, 0x5e) : QColor(0xf2, 0xc1, 0x4e));
  if (role == Qt::ToolTipRole) return location(row.problem);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Part: return row.part == kRuntimePart ? QVariant(QStringLiteral("-")) : QVariant(row.part + 1);
    case Severity: return error ? tr("error") : tr("warning");
    case Location: {  // the full path is in the tooltip
      const QString file = QFileInfo(QString::fromStdString(row.problem.file)).fileName();
      return row.problem.line > 0 ? QStringLiteral("%1:%2").arg(file).arg(row.problem.line) : file;
    }
    case Message: return QString::fromStdString(row.problem.message);
    default: return {};
  }
}

QVariant ProblemsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const names[kColumns] = {"Part", "", "File:line", "Problem"};
  return tr(names[section]);
}

}  // namespace spindle::gui
