// MainWindow's interpreter wiring (see MainWindow.h and InterpPanel.h): the "Interpreter" dock,
// the Debug menu, the selection handed to the panel, the panel's marks drawn on the graph tabs and
// the view following the run (switching to the graph that runs).
#include <QAction>
#include <QDockWidget>
#include <QMenuBar>
#include <QStatusBar>
#include <QTabWidget>

#include "viz/gui/GraphTab.h"
#include "viz/gui/InterpPanel.h"
#include "viz/gui/MainWindow.h"

namespace fathom::viz {

void MainWindow::buildInterp() {
  interp_ = new InterpPanel(this);
  QDockWidget* dock = addPanelDock(interp_, tr("Interpreter"), QStringLiteral("interp"), Qt::BottomDockWidgetArea, QStringLiteral("guards"));
  // The table and the lists need more height than the guards' 190 px: grow the bottom docks when
  // the interpreter comes to the front.
  connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) {
    if (visible && dock->height() < 330) resizeDocks({dock}, {330}, Qt::Vertical);
  });
  connect(interp_, &InterpPanel::shown, this, &MainWindow::showInterp);
  connect(interp_, &InterpPanel::nodeRequested, this, [this](const QString& graph, int32_t node) {
    if (view_ && node >= 0) goToNode(view_->model->graphIndex(graph.toStdString()), node);
  });
  connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::interpSelectionChanged);
  // Esc pauses a run: while one runs, the window's other Esc action (clear the selection) steps
  // aside, since two actions on one key would both be dead.
  connect(interp_, &InterpPanel::runningChanged, this, [this](bool running) {
    for (QAction* a : findChildren<QAction*>())
      if (a != interp_->pauseAction() && a->shortcut() == QKeySequence(Qt::Key_Escape)) a->setEnabled(!running);
  });
}

void MainWindow::buildDebugMenu() {
  QMenu* debug = menuBar()->addMenu(tr("&Debug"));
  const QList<QAction*> actions = interp_->debugActions();
  for (int i = 0; i < actions.size(); ++i) {
    if (i == 3 || i == 5 || i == actions.size() - 1) debug->addSeparator();  // run | breakpoints | restart, pause | report
    debug->addAction(actions[i]);
  }
  debug->addSeparator();
  debug->addAction(tr("&Interpreter Panel"), QKeySequence(Qt::CTRL | Qt::Key_3), this, [this] { showPanel(QStringLiteral("interp")); });
}

void MainWindow::interpSetView() {
  interp_->setDump(view_ ? view_->dump : nullptr);
  for (int i = 0; i < tabs_->count(); ++i)
    connect(static_cast<GraphTab*>(tabs_->widget(i)), &GraphTab::selectionChanged, this, &MainWindow::interpSelectionChanged);
  interpSelectionChanged();
}

void MainWindow::interpSelectionChanged() {
  auto* t = currentTab();
  if (!t) return interp_->setSelection(QString(), -1);
  const auto& selection = t->state().selection();
  interp_->setSelection(QString::fromStdString(t->model().graphName()), selection.size() == 1 ? selection.front() : -1);
}

// New marks go into each tab's state; the followed tab is redrawn once, by the selection.
void MainWindow::showInterp(const QStringList& changed, const QString& followGraph, int32_t followNode) {
  GraphTab* followed = nullptr;
  for (int i = 0; i < tabs_->count(); ++i) {
    auto* tab = static_cast<GraphTab*>(tabs_->widget(i));
    const QString name = QString::fromStdString(tab->model().graphName());
    if (name == followGraph && followNode >= 0) followed = tab;
    if (!changed.contains(name)) continue;
    const InterpGraphMarks* marks = interp_->snapshot().marksOf(name.toStdString());
    tab->state().setMarks(marks ? marks->marks : std::vector<NodeMark>{});
    tab->state().setBreakpoints(marks ? marks->breakpoints : std::vector<bool>{});
    if (tab != followed || followNode < 0) tab->refresh(true);
  }
  if (!followed) return;
  interp_->expansionOf(followGraph).follow(followed->state(), followNode);
  goToNode(followed->graphIndex(), followNode);
}

bool MainWindow::interpIdle() const { return interp_->idle(); }

}  // namespace fathom::viz
