// The interpreter panel (dock "Interpreter"): drives viz/model/InterpSession - the engine's debug
// interpreter over one graph, or an AOT dump's training step - with step (F10), continue (F5),
// run to the selected node (Ctrl+F10), a breakpoint on the selected node (F9) or on its op
// (Shift+F9), restart at the sizes in the box (Ctrl+Shift+F5; refused with the failing guard when
// the guards forbid them) and pause (Esc / Pause). It shows a status line (graph, node k/N, state,
// mismatches so far), the fake-vs-real table of the selected node (or the one the run stopped at),
// the mismatches (a click selects the node) and the breakpoints (Delete removes one). "Open check
// report…" lays a `fathom check --json` file over the dump instead.
//
// Every operation runs on a worker thread, one at a time; the UI keeps answering and shows
// "running…" with the nodes run so far and a Pause button. When one ends, shown() tells the window
// which graph tabs have new marks and the node the view follows (FollowExpansion: the view opens
// the groups on the way to it, and closes the ones it opened for the node before).
#pragma once

#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>

#include "viz/model/FollowExpansion.h"
#include "viz/model/InterpSnapshot.h"
#include "viz/model/InterpTable.h"

class QAction;
class QLabel;
class QLineEdit;
class QPushButton;
class QTimer;
class QTreeWidget;

namespace fathom {
struct Dump;
}

namespace fathom::viz {

class InterpSession;

class InterpPanel : public QWidget {
  Q_OBJECT
 public:
  explicit InterpPanel(QWidget* parent = nullptr);
  ~InterpPanel() override;

  // The dump to run (null: none); the previous dump's run ends (a running one is cancelled).
  void setDump(std::shared_ptr<const Dump> dump);
  // The graph tab on show and its selected node (-1 when none): what run-to and the breakpoint
  // actions act on, and the table's node. A dump without a partition runs this tab's graph.
  void setSelection(const QString& graph, int32_t node);

  // The actions (buttons here, items of the Debug menu): each starts one operation and returns
  // false, saying why in the status line (errorText()), when it cannot (one is running, no dump,
  // no node selected, no such node).
  bool step(int count = 1);
  bool continueRun();
  bool runToSelected();
  bool runTo(const QString& graph, const QString& node);
  bool toggleBreakpoint();        // on the selected node
  bool breakOnSelectedOp();
  bool addBreakpoint(const QString& graph, const QString& target);  // a node ("%x", "x") or an op
  bool removeBreakpoint(const QString& graph, int id);
  bool restart();                 // at the sizes in the box ("" as recorded)
  bool restartAt(const QString& sizes);
  bool openReport(const QString& path);
  void pause();                   // the operation under way stops between two nodes

  QList<QAction*> debugActions() const;  // for the Debug menu, in order
  QAction* pauseAction() const { return pause_; }
  // The groups the view opened to follow the run in graph `graph`'s tab.
  FollowExpansion& expansionOf(const QString& graph);

  bool running() const { return running_; }
  bool idle() const { return !running_; }
  const InterpSnapshot& snapshot() const { return snapshot_; }
  const InterpTable& table() const { return table_; }
  QString statusText() const;
  QString errorText() const { return error_; }
  int mismatchRows() const;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;  // Delete in the breakpoint list

 Q_SIGNALS:
  // After an operation or a breakpoint change: these graphs have new marks or breakpoints
  // (snapshot().marksOf(); none: cleared), and the view follows node `node` of `graph` (-1: stays).
  void shown(const QStringList& changed, const QString& graph, int32_t node);
  void nodeRequested(const QString& graph, int32_t node);    // a mismatch row was clicked
  void runningChanged(bool running);

 private:
  struct Outcome;
  struct State;
  using Operation = std::function<std::string(InterpSession& session, const std::atomic<bool>* cancel)>;
  bool start(const QString& what, Operation op, bool follow = true);
  void finished(const Outcome& outcome, bool follow);
  void breakpointsChanged(const std::string& message);  // shows the session's new snapshot
  bool ensureSession();
  const Dump* dump() const;
  bool refuse(const QString& why);
  void buildActions();
  void buildWidgets();
  void showSnapshot();
  void showTable();
  void updateTable();
  void updateProgress();
  void setRunning(bool running);

  std::unique_ptr<State> state_;
  InterpSnapshot snapshot_;
  InterpTable table_;
  bool running_ = false;
  QString error_;
  QString graph_;          // the tab on show
  int32_t selected_ = -1;  // its selected node
  QAction *step_ = nullptr, *continue_ = nullptr, *runTo_ = nullptr, *toggle_ = nullptr, *breakOp_ = nullptr,
          *restart_ = nullptr, *pause_ = nullptr, *report_ = nullptr;
  QLabel* status_ = nullptr;
  QLabel* message_ = nullptr;
  QLineEdit* sizes_ = nullptr;
  QPushButton* pauseButton_ = nullptr;
  QLabel* caption_ = nullptr;
  QTreeWidget* fields_ = nullptr;
  QLabel* values_ = nullptr;
  QTreeWidget* mismatches_ = nullptr;
  QTreeWidget* breakpoints_ = nullptr;
  QTimer* progress_ = nullptr;
};

}  // namespace fathom::viz
