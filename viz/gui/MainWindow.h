// The fathom-gui main window: one tab per graph of the open dump (forward, backward, joint, ...),
// the inspector, guards, find and minifier panels as docks, and the File / View / Go / Minify
// menus. Opening a file loads it, builds its view models and groups on a worker thread with a
// busy bar (Esc or Cancel abandons it); a bad file shows the CLI's one-line error in the window.
// Every action has a keyboard shortcut, and the public slots below are what the headless
// --screenshot mode and the tests drive.
#pragma once

#include <QMainWindow>

#include <memory>

#include "viz/gui/DumpLoader.h"

class QDockWidget;
class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;

namespace fathom::viz {

class DiffPanel;
class DiffView;
class FindPanel;
class GraphTab;
class GuardsPanel;
class InspectorPanel;
class InterpPanel;
class LayoutCache;
class MinifyPanel;
class Navigator;
struct DiffBuild;
struct DiffRequest;
class TimelinePanel;
struct DumpView;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens in the background (the window keeps answering).
  void openFile(const QString& path, const LoadOptions& options = {});
  // Shows an already loaded dump (its view models are built here, on the calling thread).
  void showLoaded(const LoadedDump& loaded);

  bool selectGraph(const QString& name);
  bool selectNode(const QString& name);       // in the current graph; "%x" or "x"
  bool expandGroup(const QString& label);     // in the current graph
  bool showPanel(const QString& name);        // guards, inspector, find, minify
  void explainSizes(const QString& sizes);
  bool exportView(const QString& path, bool wholeGraph);  // .svg or .png
  bool exportDot(const QString& path);

  QStringList graphNames() const;
  QString currentGraphName() const;
  QString errorText() const;        // the error shown for the last file, empty if none
  bool idle() const;                // nothing loading, laying out or checking
  GraphTab* currentTab() const;
  GuardsPanel* guardsPanel() const { return guards_; }
  InspectorPanel* inspector() const { return inspector_; }
  FindPanel* findPanel() const { return find_; }
  MinifyPanel* minifyPanel() const { return minify_; }  // MainWindowMinify.cpp

  // Compare (MainWindowDiff.cpp): the current graph against a graph of another dump, built in
  // the background, shown side by side or overlaid in place of the tabs; the "diff" dock lists
  // the differences.
  void compareWith(const QString& path, const LoadOptions& options = {});
  void compareGraphs(const QString& leftGraph, const QString& rightGraph);  // in the open comparison
  bool setDiffMode(const QString& mode);  // "side" or "overlay"
  void closeDiff();
  DiffView* diffView() const { return diffView_; }
  DiffPanel* diffPanel() const { return diffPanel_; }
  QString diffError() const { return diffError_; }  // why the last comparison failed, empty if it did not
  InterpPanel* interpPanel() const { return interp_; }
  QString dumpPath() const;         // the dump shown, "" when none

  // The compile-session timeline (MainWindowTimeline.cpp): reads a trace log in the background;
  // with no dump shown, opens the first compile's dump the log names.
  void openTraceLog(const QString& path);
  void showTimelinePanel();         // raises the Timeline dock at a height its lanes fit in
  // Shows `dump` (opening it when another is shown), `graph`, selects `node` and outlines `mark`;
  // the status bar says `why`.
  void openTimelineTarget(const QString& dump, const QString& graph, const QString& node, const QStringList& mark = {},
                          const QString& why = {});
  TimelinePanel* timelinePanel() const { return timeline_; }

 Q_SIGNALS:
  void viewChanged();               // a dump is shown (its tabs were rebuilt)

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  // A dock holding `panel`, found by `name` (showPanel); with `tabWith`, tabbed behind that dock,
  // which stays in front.
  QDockWidget* addPanelDock(QWidget* panel, const QString& title, const QString& name, Qt::DockWidgetArea area,
                            const QString& tabWith = {});
  void buildMenus();
  void openDialog();
  void exportDialog(bool wholeGraph);
  void setView(std::shared_ptr<const DumpView> view);
  void showError(const QString& path, const QString& message);
  void onTabChanged(int index);
  void onSelectionChanged();
  void onFindResults();
  void goToNode(int32_t graph, int32_t node);
  void navigate(int direction);     // -1 back, +1 forward
  void follow(bool toUser);
  void addRecent(const QString& path);
  void fillRecentMenu();
  void buildCompareMenu();
  void startDiff(DiffRequest request);
  void showDiff(DiffBuild build);
  bool diffIdle() const;
  void buildMinifyPanel();
  void buildMinifyMenu();
  void minifyViewChanged();
  GraphTab* minifiedTab(const QString& graph) const;
  void showShrink(const QString& graph);
  // The interpreter panel's wiring (MainWindowInterp.cpp).
  void buildInterp();
  void buildDebugMenu();
  void interpSetView();
  void interpSelectionChanged();
  void showInterp(const QStringList& changed, const QString& followGraph, int32_t followNode);
  bool interpIdle() const;
  void buildTimeline();             // MainWindowTimeline.cpp: the dock, its menu, the pending target
  void buildTimelineMenu();
  void applyTimelineTarget();
  bool timelineIdle() const;

  std::shared_ptr<const DumpView> view_;
  std::shared_ptr<LayoutCache> cache_;
  QTabWidget* tabs_ = nullptr;
  InspectorPanel* inspector_ = nullptr;
  GuardsPanel* guards_ = nullptr;
  FindPanel* find_ = nullptr;
  MinifyPanel* minify_ = nullptr;
  InterpPanel* interp_ = nullptr;
  QLabel* error_ = nullptr;
  QProgressBar* busy_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  int loading_ = 0;                 // generation of the load in flight; 0: none
  int lastTab_ = -1;
  std::unique_ptr<Navigator> navigator_;
  QString errorText_;
  DiffView* diffView_ = nullptr;
  DiffPanel* diffPanel_ = nullptr;
  QAction* overlayAction_ = nullptr;
  int diffLoading_ = 0;  // generation of the comparison being built; 0: none
  QString diffError_;
  TimelinePanel* timeline_ = nullptr;
  QStringList timelineTarget_;      // why, dump, graph, node, nodes to mark: waiting for the dump to load
  bool openFirstDump_ = false;
  bool timelineApplyQueued_ = false;  // the target is applied after the load's own status message
};

}  // namespace fathom::viz
