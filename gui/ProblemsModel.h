#pragma once
// ProblemsModel: every problem the last load of each part reported (missing samples,
// samples over the memory budget, unknown opcodes, bad values...), one row each with
// its file and line, then the problems met while playing (a sample file the disk could
// not read: EIO, deleted, truncated), one row each naming the file; for the problems
// panel: a list to read, never one popup per problem.
//
// Thread: gui thread.
#include <QAbstractTableModel>
#include <array>
#include <vector>

#include "core/Limits.h"
#include "session/LoadReport.h"

namespace spindle::gui {

using Problem = session::Problem;  // one row: a problem a load found, or one met while playing

class ProblemsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Part = 0, Severity, Location, Message, kColumns };
  using QAbstractTableModel::QAbstractTableModel;

  // Replaces what `part` reported before (a new load of the part, or an empty list).
  void setProblems(int part, const std::vector<Problem>& problems);
  // Replaces the runtime rows (EngineLink::runtimeProblems()), listed after the loads'.
  void setRuntimeProblems(const std::vector<Problem>& problems);
  int errorCount() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  // "file:line" (":line" left out when the problem is about the whole file).
  static QString location(const Problem& problem);

 private:
  struct Row {
    int part = 0;
    Problem problem;
  };
  const Row& rowAt(int index) const;

  static constexpr int kRuntimePart = -1;  // a runtime row: no part ("-" in the Part column)
  std::vector<Row> rows_;     // load problems: sorted by part, then in the order reported
  std::vector<Row> runtime_;  // runtime problems, oldest first
};

}  // namespace spindle::gui
