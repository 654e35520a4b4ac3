// TimelineListModel (see the header). An index's internal id is 0 on an event row and the parent
// row + 1 on a failing guard's row.
#include "viz/gui/TimelineListModel.h"

#include <QColor>

#include "viz/model/Timeline.h"

namespace fathom::viz {
namespace {

enum Column { Time, Compile, Kind, What, ColumnCount };

QString q(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

QColor timelineKindColour(int k) {
  switch (static_cast<TimelineKind>(k)) {
    case TimelineKind::Recompile: return QColor(190, 20, 20);
    case TimelineKind::CacheHit: return QColor(20, 120, 45);
    case TimelineKind::LateGuard: return QColor(200, 90, 0);
    case TimelineKind::CompileStart:
    case TimelineKind::CompileEnd: return QColor(40, 80, 160);
    default: return QColor(30, 30, 40);
  }
}

TimelineListModel::TimelineListModel(QObject* parent) : QAbstractItemModel(parent) {}

void TimelineListModel::reset(std::shared_ptr<const Timeline> timeline, int kind) {
  beginResetModel();
  timeline_ = std::move(timeline);
  rows_.clear();
  rowOf_.assign(timeline_ ? timeline_->events.size() : 0, -1);
  for (size_t i = 0; timeline_ && i < timeline_->events.size(); ++i)
    if (kind < 0 || static_cast<int>(timeline_->events[i].kind) == kind) {
      rowOf_[i] = static_cast<int>(rows_.size());
      rows_.push_back(static_cast<int>(i));
    }
  endResetModel();
}

QModelIndex TimelineListModel::indexOf(int event, int failure) const {
  if (event < 0 || event >= static_cast<int>(rowOf_.size()) || rowOf_[static_cast<size_t>(event)] < 0) return {};
  const QModelIndex row = index(rowOf_[static_cast<size_t>(event)], 0);
  return failure < 0 ? row : index(failure, 0, row);
}

QModelIndex TimelineListModel::index(int row, int column, const QModelIndex& parent) const {
  if (!hasIndex(row, column, parent)) return {};
  return createIndex(row, column, parent.isValid() ? static_cast<quintptr>(parent.row() + 1) : quintptr{0});
}

QModelIndex TimelineListModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || child.internalId() == 0) return {};
  return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr{0});
}

int TimelineListModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return static_cast<int>(rows_.size());
  if (parent.internalId() != 0 || parent.column() != 0) return 0;
  return static_cast<int>(timeline_->events[static_cast<size_t>(rows_[static_cast<size_t>(parent.row())])].failures.size());
}

int TimelineListModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant TimelineListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* names[] = {"ms", "Compile", "Event", "What"};
  return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

QVariant TimelineListModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !timeline_) return {};
  const bool failureRow = index.internalId() != 0;
  const int event = rows_[static_cast<size_t>(failureRow ? index.internalId() - 1 : index.row())];
  const TimelineEvent& e = timeline_->events[static_cast<size_t>(event)];
  if (role == kEventRole) return event;
  if (role == kFailureRole) return failureRow ? index.row() : -1;
  if (role == Qt::ForegroundRole && (index.column() == Kind || index.column() == What))
    return failureRow ? QColor(150, 20, 20) : timelineKindColour(static_cast<int>(e.kind));
  if (role != Qt::DisplayRole) return {};
  if (failureRow) {
    const FailingGuard& g = e.failures[static_cast<size_t>(index.row())];
    switch (index.column()) {
      case Compile: return QStringLiteral("entry #%1").arg(g.entry);
      case Kind: return tr("failing guard");
      case What: return QStringLiteral("%1  [%2]  with %3  —  %4").arg(q(g.expr), q(g.kind), q(g.actual), q(g.provenance()));
      default: return {};
    }
  }
  switch (index.column()) {
    case Time: return QString::number(static_cast<double>(e.axisUs) / 1000.0, 'f', 2);
    case Compile: return e.session >= 0 ? q(timeline_->compiles[static_cast<size_t>(e.session)].label()) : QStringLiteral("-");
    case Kind: return q(e.name);
    case What: return q(e.summary);
    default: return {};
  }
}

}  // namespace fathom::viz
