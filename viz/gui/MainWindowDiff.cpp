// MainWindow's Compare menu and diff view (see MainWindow.h): "Compare with…" loads a second
// dump and diffs the current graph against one of its graphs on a worker thread (DiffLoader.h);
// the result replaces the graph tabs with the DiffView (side by side or overlaid) until the
// comparison is closed, and the "diff" dock (DiffPanel) lists the differences. A comparison the
// user abandoned (Cancel, another one started, another file opened) is dropped when it arrives.
#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMenuBar>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include "viz/gui/DiffPanel.h"
#include "viz/gui/DiffView.h"
#include "viz/gui/GraphTab.h"
#include "viz/gui/InspectorPanel.h"
#include "viz/gui/MainWindow.h"

namespace fathom::viz {

namespace {
constexpr size_t kMaxCarriedSelection = 20;  // a group's worth would expand groups on both sides
}  // namespace

void MainWindow::buildCompareMenu() {
  diffPanel_ = new DiffPanel(this);
  addPanelDock(diffPanel_, tr("Diff"), QStringLiteral("diff"), Qt::RightDockWidgetArea, QStringLiteral("inspector"));
  connect(diffPanel_, &DiffPanel::entryActivated, this, [this](int entry) {
    if (diffView_) diffView_->selectEntry(entry);
  });
  connect(diffPanel_, &DiffPanel::graphsChosen, this, &MainWindow::compareGraphs);
  connect(diffPanel_, &DiffPanel::overlayToggled, this, [this](bool on) { setDiffMode(on ? QStringLiteral("overlay") : QStringLiteral("side")); });
  connect(diffPanel_, &DiffPanel::compareRequested, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare with a dump"), QString(), tr("Fathom dumps (*.fathom.json *.json);;All files (*)"));
    if (!path.isEmpty()) compareWith(path);
  });
  connect(diffPanel_, &DiffPanel::cancelRequested, this, [this] {
    diffLoading_ = 0;
    diffPanel_->setBusy({});
    statusBar()->showMessage(tr("Comparison abandoned."), 3000);
  });

  QMenu* compare = menuBar()->addMenu(tr("&Compare"));
  compare->addAction(tr("Compare &With…"), QKeySequence(Qt::CTRL | Qt::Key_D), diffPanel_, &DiffPanel::compareRequested);
  overlayAction_ = compare->addAction(tr("&Overlay"));
  overlayAction_->setCheckable(true);
  overlayAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  connect(overlayAction_, &QAction::triggered, this, [this](bool on) { setDiffMode(on ? QStringLiteral("overlay") : QStringLiteral("side")); });
  compare->addAction(tr("&Next Difference"), QKeySequence(Qt::Key_F8), diffPanel_, &DiffPanel::next);
  compare->addAction(tr("&Previous Difference"), QKeySequence(Qt::SHIFT | Qt::Key_F8), diffPanel_, &DiffPanel::previous);
  compare->addAction(tr("Diff &Panel"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_D), this, [this] { showPanel(QStringLiteral("diff")); });
  compare->addSeparator();
  compare->addAction(tr("&Close Comparison"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D), this, &MainWindow::closeDiff);
}

void MainWindow::compareWith(const QString& path, const LoadOptions& options) {
  if (!view_) {
    diffError_ = tr("Open a dump first: the comparison takes its current graph as the left side.");
    diffPanel_->setError(diffError_);
    return;
  }
  DiffRequest request;
  request.left = view_;
  request.leftGraph = currentGraphName();
  request.rightPath = path;
  request.load = options;
  startDiff(std::move(request));
}

void MainWindow::compareGraphs(const QString& leftGraph, const QString& rightGraph) {
  if (!diffView_ || !diffView_->diff()) return;
  DiffRequest request;
  request.left = diffView_->build().left;
  request.right = diffView_->build().right;
  request.leftGraph = leftGraph;
  request.rightGraph = rightGraph;
  startDiff(std::move(request));
}

void MainWindow::startDiff(DiffRequest request) {
  const int generation = ++diffLoading_ > 0 ? diffLoading_ : (diffLoading_ = 1);
  const QString what = request.right ? tr("graphs '%1' and '%2'").arg(request.leftGraph, request.rightGraph) : QFileInfo(request.rightPath).fileName();
  diffPanel_->setBusy(tr("Comparing with %1…").arg(what));
  statusBar()->showMessage(tr("Comparing with %1…").arg(what));
  auto* watcher = new QFutureWatcher<DiffBuild>(this);
  connect(watcher, &QFutureWatcher<DiffBuild>::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (generation != diffLoading_) return;  // abandoned, or another comparison started since
    diffLoading_ = 0;
    diffPanel_->setBusy({});
    DiffBuild build = watcher->result();
    if (!build.ok()) {
      diffError_ = QString::fromStdString(build.error);
      diffPanel_->setError(diffError_);
      showPanel(QStringLiteral("diff"));
      statusBar()->showMessage(diffError_, 10000);
      return;
    }
    showDiff(std::move(build));
  });
  watcher->setFuture(buildDiffInBackground(std::move(request)));
}

void MainWindow::showDiff(DiffBuild build) {
  diffError_.clear();
  std::vector<int32_t> carried;
  if (auto* t = currentTab(); t && t->model().graphName() == build.left->model->graph(build.leftGraph).graphName() &&
                              &t->dumpModel() == build.left->model.get() && t->state().selection().size() <= kMaxCarriedSelection)
    carried = t->state().selection();
  if (!diffView_) {
    diffView_ = new DiffView(cache_, centralWidget());
    centralWidget()->layout()->addWidget(diffView_);
    connect(diffView_, &DiffView::selectionExplained, this, [this](const QString& text) {
      if (!text.isEmpty()) statusBar()->showMessage(text);
      if (GraphTab* t = diffView_->shownTab()) inspector_->show(&t->dumpModel(), t->graphIndex(), t->state().selection());
    });
    connect(diffView_, &DiffView::entryFollowed, diffPanel_, &DiffPanel::followEntry);
  }
  statusBar()->showMessage(tr("Compared in %1 s: %2").arg(build.seconds, 0, 'f', 3).arg(QString::fromStdString(build.diff->countsText())), 8000);
  tabs_->hide();
  diffView_->show();
  diffView_->setOverlay(overlayAction_->isChecked());
  diffPanel_->setDiff(nullptr);  // its rows point into the DiffModel about to be replaced
  diffView_->setDiff(std::move(build), carried);  // a carried selection says what it means in the status bar
  diffPanel_->setDiff(&diffView_->build());
  diffPanel_->followEntry(diffView_->currentEntry());
  showPanel(QStringLiteral("diff"));
}

bool MainWindow::setDiffMode(const QString& mode) {
  if (mode != QLatin1String("side") && mode != QLatin1String("overlay")) return false;
  const bool overlay = mode == QLatin1String("overlay");
  overlayAction_->setChecked(overlay);
  diffPanel_->setOverlayChecked(overlay);
  if (diffView_) diffView_->setOverlay(overlay);
  return true;
}

void MainWindow::closeDiff() {
  diffLoading_ = 0;
  if (diffPanel_) {
    diffPanel_->setBusy({});
    diffPanel_->setDiff(nullptr);
  }
  if (diffView_) {
    diffView_->hide();
    diffView_->deleteLater();
    diffView_ = nullptr;
  }
  tabs_->show();
}

bool MainWindow::diffIdle() const { return diffLoading_ == 0 && (!diffView_ || diffView_->idle()); }

}  // namespace fathom::viz
