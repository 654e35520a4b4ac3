// DiffEntriesModel (see the header).
#include "viz/gui/DiffEntriesModel.h"

#include <QBrush>

#include "viz/gui/ScenePainter.h"

namespace fathom::viz {
void DiffEntriesModel::setDiff(const DiffModel* diff) {
  beginResetModel();
  diff_ = diff;
  refill();
  endResetModel();
}

void DiffEntriesModel::setFilter(std::optional<NodeDiffState> state) {
  beginResetModel();
  filter_ = state;
  refill();
  endResetModel();
}

void DiffEntriesModel::refill() {
  rows_.clear();
  rowOf_.clear();
  if (!diff_) return;
  rowOf_.assign(diff_->entries().size(), -1);
  for (size_t e = 0; e < diff_->entries().size(); ++e) {
    if (filter_ && diff_->entries()[e].state != *filter_) continue;
    rowOf_[e] = static_cast<int32_t>(rows_.size());
    rows_.push_back(static_cast<int32_t>(e));
  }
}

int DiffEntriesModel::entryAt(int row) const { return row >= 0 && static_cast<size_t>(row) < rows_.size() ? rows_[static_cast<size_t>(row)] : -1; }
int DiffEntriesModel::rowOf(int entry) const { return entry >= 0 && static_cast<size_t>(entry) < rowOf_.size() ? rowOf_[static_cast<size_t>(entry)] : -1; }

int DiffEntriesModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }
int DiffEntriesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 3; }

QVariant DiffEntriesModel::data(const QModelIndex& index, int role) const {
  const int entry = entryAt(index.row());
  if (entry < 0) return {};
  const DiffEntry& e = diff_->entries()[static_cast<size_t>(entry)];
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case 0: return QString::fromUtf8(nodeDiffStateName(e.state).data(), static_cast<qsizetype>(nodeDiffStateName(e.state).size()));
      case 1: return QString::fromStdString(e.name);
      default: return QString::fromStdString(e.what);
    }
  }
  if (role == Qt::ToolTipRole) {
    QStringList lines{QString::fromStdString(e.name)};
    for (const auto& c : e.changes) lines << QStringLiteral("  ") + QString::fromStdString(c);
    if (e.changes.empty()) lines << QStringLiteral("  ") + QString::fromStdString(e.what);
    return lines.join(QLatin1Char('\n'));
  }
  if (role == Qt::BackgroundRole && index.column() == 0) return QBrush(markColor(diffMark(e.state)));
  return {};
}

QVariant DiffEntriesModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case 0: return tr("state");
    case 1: return tr("node");
    default: return tr("what changed");
  }
}

}  // namespace fathom::viz
