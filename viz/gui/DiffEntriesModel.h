// DiffEntriesModel: the differences of a DiffModel as a Qt table model (state, node, what
// changed), filtered by state. Rows are computed on demand from the DiffModel, so a list of
// 10,000 differences costs a vector of indices, not 10,000 widgets.
#pragma once

#include <QAbstractTableModel>

#include <optional>
#include <vector>

#include "viz/model/DiffModel.h"

namespace fathom::viz {

class DiffEntriesModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  using QAbstractTableModel::QAbstractTableModel;

  // The diff to show (must outlive its use here; null clears) and the state to keep (none: all).
  void setDiff(const DiffModel* diff);
  void setFilter(std::optional<NodeDiffState> state);
  std::optional<NodeDiffState> filter() const { return filter_; }

  int entryAt(int row) const;   // -1 when out of range
  int rowOf(int entry) const;   // -1 when the entry is filtered out or out of range

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  void refill();

  const DiffModel* diff_ = nullptr;
  std::optional<NodeDiffState> filter_;
  std::vector<int32_t> rows_;     // entry per row
  std::vector<int32_t> rowOf_;    // row per entry, -1 when filtered out
};

}  // namespace fathom::viz
