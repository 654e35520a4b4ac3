// The find panel: a query (name and op as regexes, module path, side, "has a guard", "saved across
// the cut"), its results in graph order, and next / previous (F3 / Shift+F3). With "Filter" on,
// nodes that do not match are dimmed in the graph. The query runs on viz::findNodes.
#pragma once

#include <QWidget>

#include <memory>
#include <optional>

#include "viz/model/Find.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;

namespace fathom::viz {

class FindPanel : public QWidget {
  Q_OBJECT
 public:
  explicit FindPanel(QWidget* parent = nullptr);
  // The graph searched (null: nothing open). Keeps the query; results are recomputed.
  void setGraph(const GraphModel* model);
  // Runs the query in the fields; false (with the error shown) for a bad regex.
  bool run();
  void setQuery(const FindQuery& query);
  FindQuery query() const;
  bool filterOn() const;
  const std::vector<int32_t>& results() const;
  void next();
  void previous();
  void focusName();

 Q_SIGNALS:
  void resultActivated(int32_t node);
  // The results (and whether to filter by them) changed.
  void resultsChanged();

 private:
  void showResults();
  void step(int32_t node);

  const GraphModel* model_ = nullptr;
  std::optional<FindCursor> cursor_;
  QLineEdit *name_ = nullptr, *op_ = nullptr, *module_ = nullptr;
  QComboBox* side_ = nullptr;
  QCheckBox *guard_ = nullptr, *saved_ = nullptr, *ignoreCase_ = nullptr, *filter_ = nullptr;
  QLabel* status_ = nullptr;
  QListWidget* list_ = nullptr;
};

}  // namespace fathom::viz
