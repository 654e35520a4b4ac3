// MainWindow's compile-session timeline (see MainWindow.h): the Timeline dock, its menu, and
// opening what a timeline event names - the dump (loaded in the background when it is not the one
// shown), its graph, the node - once the dump is shown.
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QStatusBar>
#include <QTimer>

#include <utility>

#include "viz/gui/GraphTab.h"
#include "viz/gui/MainWindow.h"
#include "viz/gui/TimelinePanel.h"
#include "viz/model/Timeline.h"

namespace fathom::viz {
namespace {

bool samePath(const QString& a, const QString& b) {
  const QFileInfo fa(a), fb(b);
  if (fa.exists() && fb.exists()) return fa.canonicalFilePath() == fb.canonicalFilePath();
  return fa.absoluteFilePath() == fb.absoluteFilePath();
}

}  // namespace

void MainWindow::buildTimeline() {
  timeline_ = new TimelinePanel(this);
  addPanelDock(timeline_, tr("Timeline"), QStringLiteral("timeline"), Qt::BottomDockWidgetArea, QStringLiteral("guards"));
  connect(timeline_, &TimelinePanel::targetRequested, this, &MainWindow::openTimelineTarget);
  connect(timeline_, &TimelinePanel::loaded, this, [this] {
    const bool openFirst = std::exchange(openFirstDump_, false);
    if (!timeline_->timeline()) return statusBar()->showMessage(timeline_->errorText(), 10000);
    const QString first = QString::fromStdString(resolveTimelineDump(timeline_->timeline()->path, timeline_->timeline()->firstDump()));
    if (openFirst && !view_ && loading_ == 0 && !first.isEmpty()) openFile(first);
  });
  connect(this, &MainWindow::viewChanged, this, [this] {
    timeline_->setShownDump(view_->path);
    if (timelineTarget_.isEmpty()) return;
    timelineApplyQueued_ = true;  // after openFile's "Opened ..." message, so the status bar says why
    QTimer::singleShot(0, this, [this] {
      timelineApplyQueued_ = false;
      applyTimelineTarget();
    });
  });
}

void MainWindow::buildTimelineMenu() {
  QMenu* menu = menuBar()->addMenu(tr("&Timeline"));
  menu->addAction(tr("Open &Trace Log…"), QKeySequence(Qt::CTRL | Qt::Key_T), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a trace log"), QString(),
                                                      tr("Trace logs (*.jsonl *.log *.json);;All files (*)"));
    if (!path.isEmpty()) openTraceLog(path);
  });
  menu->addAction(tr("Show the &Timeline"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T), this, &MainWindow::showTimelinePanel);
  menu->addAction(tr("Next &Recompile"), QKeySequence(Qt::Key_F8), this, [this] {
    showTimelinePanel();
    if (!timeline_->activateNext(static_cast<int>(TimelineKind::Recompile))) statusBar()->showMessage(tr("No recompile in the timeline"), 4000);
  });
  menu->addAction(tr("Next &Cache Hit"), QKeySequence(Qt::SHIFT | Qt::Key_F8), this, [this] {
    showTimelinePanel();
    if (!timeline_->activateNext(static_cast<int>(TimelineKind::CacheHit))) statusBar()->showMessage(tr("No cache hit in the timeline"), 4000);
  });
}

QString MainWindow::dumpPath() const { return view_ ? view_->path : QString(); }

bool MainWindow::timelineIdle() const { return timeline_->idle() && !timelineApplyQueued_; }

void MainWindow::openTraceLog(const QString& path) {
  showTimelinePanel();
  openFirstDump_ = !view_ && loading_ == 0;
  timeline_->load(path);
}

void MainWindow::showTimelinePanel() {
  showPanel(QStringLiteral("timeline"));
  if (auto* dock = findChild<QDockWidget*>(QStringLiteral("timeline")))
    resizeDocks({dock}, {std::max(300, height() * 9 / 20)}, Qt::Vertical);
}

void MainWindow::openTimelineTarget(const QString& dump, const QString& graph, const QString& node, const QStringList& mark,
                                    const QString& why) {
  if (dump.isEmpty() && node.isEmpty()) return;
  timelineTarget_ = QStringList{why, dump, graph, node} + mark;
  if (dump.isEmpty() || (view_ && samePath(view_->path, dump))) return applyTimelineTarget();
  if (!QFileInfo::exists(dump)) {
    timelineTarget_.clear();
    statusBar()->showMessage(tr("The trace log names %1, which does not exist (moved, or written without -o?)").arg(dump), 10000);
    return;
  }
  openFile(dump);  // applyTimelineTarget runs when it is shown (viewChanged)
}

void MainWindow::applyTimelineTarget() {
  if (timelineTarget_.size() < 4 || !view_) return;
  const QStringList target = std::exchange(timelineTarget_, {});
  const QString& why = target[0];
  if (!target[1].isEmpty() && !samePath(view_->path, target[1])) return;  // another file was opened since
  if (!target[2].isEmpty()) selectGraph(target[2]);
  const QString& node = target[3];
  bool found = node.isEmpty() || selectNode(node);
  for (const QString& g : graphNames())  // a node the named graph lacks (a joint's name in the forward)
    if (!found && selectGraph(g)) found = selectNode(node);
  if (!found) {
    statusBar()->showMessage(tr("%%1 is not in any graph of %2").arg(node, QFileInfo(view_->path).fileName()), 10000);
    return;
  }
  if (auto* tab = currentTab()) {
    std::vector<int32_t> marked;
    for (int i = 4; i < target.size(); ++i)
      if (const int32_t n = tab->model().find(target[i].toStdString()); n >= 0) marked.push_back(n);
    tab->setHighlight(marked, Highlight::Guard);
  }
  const QString where = QFileInfo(view_->path).fileName() + QStringLiteral(" › ") + currentGraphName();
  if (!node.isEmpty())
    statusBar()->showMessage(tr("Timeline: %1 → %%2 in %3").arg(why, node, where), 15000);
}

}  // namespace fathom::viz
