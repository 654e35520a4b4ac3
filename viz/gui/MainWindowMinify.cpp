// MainWindow's minifier wiring (see MainWindow.h, MinifyPanel.h): the "Minifier" dock, the Minify
// menu, and the shrinking candidate drawn on the ORIGINAL graph's tab. The tab keeps its layout
// while the minifier works - only the node marks change (viz/model/ShrinkMarks.h: removed, became
// an input, the same) - so nodes that stay keep their place; once the candidate is small, the
// groups holding its nodes open (kRevealUpTo), and when the run ends with a result its nodes are
// selected for the inspector.
#include <QAction>
#include <QDockWidget>
#include <QMenuBar>
#include <QStatusBar>
#include <QTabWidget>

#include "viz/gui/GraphTab.h"
#include "viz/gui/MainWindow.h"
#include "viz/gui/MinifyPanel.h"
#include "viz/model/ShrinkMarks.h"

namespace fathom::viz {

namespace {
// A candidate this small gets its nodes revealed (their groups expanded): a collapsed group shows
// its highest-ranked mark, "removed" as soon as one node inside is, so a group still holding kept
// nodes must open to show them. Later candidates keep a subset of these nodes (each is a cut of
// the best before it), so the layout changes once or twice as the run gets there, then stays.
constexpr size_t kRevealUpTo = 200;
}  // namespace

void MainWindow::buildMinifyPanel() {
  minify_ = new MinifyPanel(this);
  addPanelDock(minify_, tr("Minifier"), QStringLiteral("minify"), Qt::RightDockWidgetArea, QStringLiteral("inspector"));
  connect(tabs_, &QTabWidget::currentChanged, this, [this] { minify_->setGraph(currentGraphName()); });
  connect(minify_, &MinifyPanel::started, this, [this](const QString& graph) {
    if (GraphTab* t = minifiedTab(graph)) {
      selectGraph(graph);
      t->setMarks({});
    }
  });
  connect(minify_, &MinifyPanel::improved, this, [this](const QString& graph) { showShrink(graph); });
  connect(minify_, &MinifyPanel::finished, this, [this] {
    statusBar()->showMessage(QString::fromStdString(minify_->run().outcome()), 10000);
    const auto& started = minify_->run().started();
    GraphTab* t = started ? minifiedTab(QString::fromStdString(started->graph)) : nullptr;
    const auto& best = minify_->run().lastImprovement();
    if (!t || !best || minify_->resultPath().isEmpty()) return;
    const ShrinkView v = mapCandidate(t->model(), best->inputs, best->calls);
    if (!v.kept.empty() && v.kept.size() <= kRevealUpTo) t->select(v.kept, true);
  });
  connect(minify_, &MinifyPanel::openRequested, this, [this](const QString& path) { openFile(path); });
}

void MainWindow::buildMinifyMenu() {
  QMenu* menu = menuBar()->addMenu(tr("&Minify"));
  menu->addAction(tr("&Start Minifying"), QKeySequence(Qt::CTRL | Qt::Key_M), this, [this] {
    showPanel(QStringLiteral("minify"));
    minify_->start();
  });
  menu->addAction(tr("&Cancel, Keep the Best So Far"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M), minify_, &MinifyPanel::cancel);
  menu->addSeparator();
  menu->addAction(tr("&Open the Result"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O), minify_, &MinifyPanel::openResult);
  menu->addAction(tr("&Export the Result…"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_E), minify_, &MinifyPanel::exportDialog);
  menu->addSeparator();
  menu->addAction(tr("Show the &Minifier"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_M), this, [this] { showPanel(QStringLiteral("minify")); });
}

// The panel minifies the dump this window shows; a dump opened since is left alone.
void MainWindow::minifyViewChanged() {
  minify_->setDump(view_ ? view_->path : QString(), view_ ? view_->dump : nullptr);
  minify_->setGraph(currentGraphName());
}

GraphTab* MainWindow::minifiedTab(const QString& graph) const {
  if (!view_ || view_->path.toStdString() != minify_->run().choices().input) return nullptr;
  const int i = view_->model->graphIndex(graph.toStdString());
  return i >= 0 && i < tabs_->count() ? static_cast<GraphTab*>(tabs_->widget(i)) : nullptr;
}

void MainWindow::showShrink(const QString& graph) {
  GraphTab* t = minifiedTab(graph);
  const auto& best = minify_->run().lastImprovement();
  if (!t || !best) return;
  ShrinkView v = mapCandidate(t->model(), best->inputs, best->calls);
  t->setMarks(std::move(v.marks));
  if (v.kept.size() <= kRevealUpTo) t->reveal(v.kept);
}

}  // namespace fathom::viz
