// TimelineListModel: the Timeline panel's event list as a Qt item model over the Timeline itself
// (no item per row is built), so a log of a hundred thousand events lists at once. Rows are the
// events that pass the kind filter, in log order; a recompile's rows under it are its failing
// guards. Columns: ms on the axis, compile, event, what.
#pragma once

#include <QAbstractItemModel>

#include <memory>
#include <vector>

namespace fathom::viz {

struct Timeline;

// The colour an event kind is written in (list, details): recompiles red, hits green, ...
QColor timelineKindColour(int kind);

class TimelineListModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  static constexpr int kEventRole = Qt::UserRole;        // the event's index in Timeline::events
  static constexpr int kFailureRole = Qt::UserRole + 1;  // a failing guard's index; -1 on an event row

  explicit TimelineListModel(QObject* parent = nullptr);
  // kind: a TimelineKind to keep, or -1 for all.
  void reset(std::shared_ptr<const Timeline> timeline, int kind);
  int eventCount() const { return static_cast<int>(rows_.size()); }
  // The row of event `event` (or of its failing guard `failure`); invalid when filtered out.
  QModelIndex indexOf(int event, int failure = -1) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::shared_ptr<const Timeline> timeline_;
  std::vector<int> rows_;   // event indices shown, in log order
  std::vector<int> rowOf_;  // per event: its row, -1 when filtered out
};

}  // namespace fathom::viz
