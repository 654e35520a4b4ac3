// The guards panel: every guard and specialization of the dump's ShapeEnv with stage, expression,
// reason, node and source. Clicking a row asks the window to select its node (nodeRequested).
// With Z3, a background `--check` marks redundant guards (with what implies them) and a minimal
// conflicting set; the explain box takes sizes (`s0=4,s1=600` or `input_ids=4x600`) and marks every
// guard they fail, with the nearest passing sizes. The analyses run on one worker thread (the
// solver's context is shared), never on the UI thread.
#pragma once

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace fathom {
struct Dump;
}

namespace fathom::viz {

class GuardsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit GuardsPanel(QWidget* parent = nullptr);
  ~GuardsPanel() override;

  // Shows `dump`'s guards (none for a static trace) and starts the background check.
  void setDump(std::shared_ptr<const Dump> dump);
  // Runs --explain for `sizes` (as typed in the box); false with a message when they do not parse.
  void explain(const QString& sizes);
  // Whether the background work (check, explain) has finished; for headless screenshots.
  bool idle() const;
  int rowCount() const;
  // Rows the last explain marked as failing (guard indices), for tests.
  QList<int> failingGuards() const;
  QString statusText() const;

 Q_SIGNALS:
  void nodeRequested(const QString& nodeName);
  void sourceRequested(const QString& fileLine);
  // After an explain: the nodes named by the guards the sizes fail (empty when they pass).
  void failingNodes(const QStringList& nodeNames);
  void idleChanged();

 private:
  void fill();
  void startCheck();
  void onRowActivated(QTreeWidgetItem* item);
  void setStatus(const QString& text);

  struct State;
  std::unique_ptr<State> state_;
  QTreeWidget* table_ = nullptr;
  QLabel* status_ = nullptr;
  QLineEdit* sizes_ = nullptr;
  QLabel* explainResult_ = nullptr;
};

}  // namespace fathom::viz
