// MainWindow (see the header).
#include "viz/gui/MainWindow.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "engine/dump/Dump.h"
#include "viz/gui/FindPanel.h"
#include "viz/gui/GraphCanvas.h"
#include "viz/gui/GraphTab.h"
#include "viz/gui/GuardsPanel.h"
#include "viz/gui/InspectorPanel.h"
#include "viz/model/Find.h"

namespace fathom::viz {

namespace {

struct BuiltView {
  std::shared_ptr<const DumpView> view;
  LoadedDump loaded;  // path, error, seconds
};

// The view models of a loaded dump: every graph's model and group tree.
BuiltView buildView(LoadedDump loaded) {
  BuiltView out;
  out.view = buildDumpView(loaded.path, loaded.dump, &loaded.error);
  if (!out.view) loaded.dump.reset();
  out.loaded = std::move(loaded);
  return out;
}

std::string bare(const QString& nodeName) {
  return (nodeName.startsWith(QLatin1Char('%')) ? nodeName.mid(1) : nodeName).toStdString();
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), cache_(std::make_shared<LayoutCache>()) {
  setWindowTitle(QStringLiteral("fathom-gui"));
  setAcceptDrops(true);
  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  error_ = new QLabel(central);
  error_->setWordWrap(true);
  error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_->setStyleSheet(QStringLiteral("QLabel { background: #fde2e2; color: #8a1010; padding: 8px; border-bottom: 1px solid #e0a0a0; }"));
  error_->hide();
  tabs_ = new QTabWidget(central);
  tabs_->setDocumentMode(true);
  layout->addWidget(error_);
  layout->addWidget(tabs_, 1);
  setCentralWidget(central);
  connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::onTabChanged);

  inspector_ = new InspectorPanel(this);
  guards_ = new GuardsPanel(this);
  find_ = new FindPanel(this);
  QDockWidget* inspectorDock = addPanelDock(inspector_, tr("Inspector"), QStringLiteral("inspector"), Qt::RightDockWidgetArea);
  addPanelDock(find_, tr("Find"), QStringLiteral("find"), Qt::RightDockWidgetArea, QStringLiteral("inspector"));
  QDockWidget* guardsDock = addPanelDock(guards_, tr("Guards"), QStringLiteral("guards"), Qt::BottomDockWidgetArea);
  resizeDocks({inspectorDock}, {420}, Qt::Horizontal);
  resizeDocks({guardsDock}, {190}, Qt::Vertical);

  connect(inspector_, &InspectorPanel::nodeRequested, this, &MainWindow::goToNode);
  connect(guards_, &GuardsPanel::nodeRequested, this, [this](const QString& node) {
    if (!selectNode(node)) statusBar()->showMessage(tr("Node %%1 is not in graph '%2'").arg(node, currentGraphName()), 5000);
  });
  connect(guards_, &GuardsPanel::failingNodes, this, [this](const QStringList& names) {
    auto* t = currentTab();
    if (!t) return;
    std::vector<int32_t> nodes;
    for (const QString& name : names)
      if (const int32_t n = t->model().find(name.toStdString()); n >= 0) nodes.push_back(n);
    t->setHighlight(nodes, Highlight::Guard);
  });
  connect(find_, &FindPanel::resultActivated, this, [this](int32_t node) {
    if (auto* tab = currentTab()) goToNode(tab->graphIndex(), node);
  });
  connect(find_, &FindPanel::resultsChanged, this, &MainWindow::onFindResults);

  busy_ = new QProgressBar(this);
  busy_->setRange(0, 0);
  busy_->setMaximumWidth(160);
  busy_->hide();
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->hide();
  connect(cancel_, &QPushButton::clicked, this, [this] {
    loading_ = 0;
    busy_->hide();
    cancel_->hide();
    statusBar()->showMessage(tr("Loading abandoned."), 3000);
  });
  statusBar()->addPermanentWidget(busy_);
  statusBar()->addPermanentWidget(cancel_);
  buildMinifyPanel();
  buildInterp();
  buildTimeline();
  buildMenus();
}

MainWindow::~MainWindow() = default;

QDockWidget* MainWindow::addPanelDock(QWidget* panel, const QString& title, const QString& name, Qt::DockWidgetArea area,
                                      const QString& tabWith) {
  auto* dock = new QDockWidget(title, this);
  dock->setObjectName(name);
  dock->setWidget(panel);
  addDockWidget(area, dock);
  if (tabWith.isEmpty()) return dock;
  if (auto* front = findChild<QDockWidget*>(tabWith)) {
    tabifyDockWidget(front, dock);
    front->raise();  // the new panel waits behind it until asked for
  }
  return dock;
}

void MainWindow::openDialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open a dump"), QString(), tr("Fathom dumps (*.fathom.json *.json);;All files (*)"));
  if (!path.isEmpty()) openFile(path);
}

void MainWindow::openFile(const QString& path, const LoadOptions& options) {
  const int generation = ++loading_ > 0 ? loading_ : (loading_ = 1);
  busy_->show();
  cancel_->show();
  statusBar()->showMessage(tr("Loading %1 (%2 KB)…").arg(path).arg(QFileInfo(path).size() / 1024));
  auto* watcher = new QFutureWatcher<BuiltView>(this);
  connect(watcher, &QFutureWatcher<BuiltView>::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (generation != loading_) return;  // abandoned, or another file was opened since
    loading_ = 0;
    busy_->hide();
    cancel_->hide();
    BuiltView built = watcher->result();
    if (!built.view) return showError(built.loaded.path, QString::fromStdString(built.loaded.error));
    setView(built.view);
    statusBar()->showMessage(tr("Opened %1 in %2 s").arg(built.loaded.path).arg(built.loaded.seconds, 0, 'f', 2), 5000);
  });
  watcher->setFuture(QtConcurrent::run([path, options] { return buildView(loadDumpForView(path, options)); }));
}

void MainWindow::showLoaded(const LoadedDump& loaded) {
  BuiltView built = buildView(loaded);
  if (!built.view) return showError(loaded.path, QString::fromStdString(built.loaded.error));
  setView(built.view);
}

void MainWindow::showError(const QString& path, const QString& message) {
  errorText_ = message;
  error_->setText(tr("Cannot open %1:\n%2").arg(QFileInfo(path).fileName(), message));
  error_->show();
  statusBar()->showMessage(message, 10000);
}

void MainWindow::setView(std::shared_ptr<const DumpView> view) {
  errorText_.clear();
  error_->hide();
  closeDiff();  // it compared the previous dump
  lastTab_ = -1;
  tabs_->blockSignals(true);
  while (tabs_->count() > 0) {
    QWidget* w = tabs_->widget(0);
    tabs_->removeTab(0);
    delete w;
  }
  view_ = std::move(view);
  int initial = 0;
  for (size_t i = 0; i < view_->model->graphs().size(); ++i) {
    const GraphModel& g = view_->model->graphs()[i];
    auto* tab = new GraphTab(view_, static_cast<int32_t>(i), cache_, tabs_);
    connect(tab, &GraphTab::selectionChanged, this, &MainWindow::onSelectionChanged);
    // Layout runs on worker threads; the status bar says so while it does (big groups take a
    // moment) and the canvas shows the groups still waiting with dashed frames.
    connect(tab, &GraphTab::layoutStarted, this, [this, tab](int groups) {
      if (tab == currentTab()) statusBar()->showMessage(tr("Laying out %n group(s)…", "", groups));
    });
    connect(tab, &GraphTab::idleChanged, this, [this] {
      if (statusBar()->currentMessage().startsWith(tr("Laying out"))) statusBar()->clearMessage();
    });
    tabs_->addTab(tab, QStringLiteral("%1 (%2)").arg(QString::fromStdString(g.graphName())).arg(g.size()));
    if (g.graphName() == "joint") initial = static_cast<int>(i);
  }
  tabs_->blockSignals(false);
  tabs_->setCurrentIndex(initial);
  onTabChanged(initial);
  guards_->setDump(view_->dump);
  inspector_->setSourceRoots({QFileInfo(view_->path).absolutePath(), QDir::currentPath()});
  setWindowTitle(QStringLiteral("%1 — fathom-gui").arg(QFileInfo(view_->path).fileName()));
  addRecent(view_->path);
  minifyViewChanged();
  interpSetView();
  Q_EMIT viewChanged();
}

GraphTab* MainWindow::currentTab() const { return static_cast<GraphTab*>(tabs_->currentWidget()); }

QStringList MainWindow::graphNames() const {
  QStringList out;
  if (view_)
    for (const auto& g : view_->model->graphs()) out << QString::fromStdString(g.graphName());
  return out;
}

QString MainWindow::currentGraphName() const {
  auto* t = currentTab();
  return t ? QString::fromStdString(t->model().graphName()) : QString();
}

QString MainWindow::errorText() const { return errorText_; }

bool MainWindow::idle() const {
  if (loading_ != 0 || !guards_->idle() || !diffIdle() || !interpIdle() || !timelineIdle()) return false;
  for (int i = 0; i < tabs_->count(); ++i)
    if (!static_cast<GraphTab*>(tabs_->widget(i))->idle()) return false;
  return true;
}

bool MainWindow::selectGraph(const QString& name) {
  const int i = view_ ? view_->model->graphIndex(name.toStdString()) : -1;
  if (i < 0) return false;
  tabs_->setCurrentIndex(i);
  return true;
}

bool MainWindow::selectNode(const QString& name) {
  auto* t = currentTab();
  if (!t) return false;
  const int32_t node = t->model().find(bare(name));
  if (node < 0) return false;
  goToNode(t->graphIndex(), node);
  return true;
}

bool MainWindow::expandGroup(const QString& label) {
  auto* t = currentTab();
  return t && t->expandGroup(label);
}

bool MainWindow::showPanel(const QString& name) {
  for (auto* dock : findChildren<QDockWidget*>()) {
    if (dock->objectName() == name) {
      dock->show();
      dock->raise();
      return true;
    }
  }
  return false;
}

void MainWindow::explainSizes(const QString& sizes) {
  showPanel(QStringLiteral("guards"));
  guards_->explain(sizes);
}

void MainWindow::goToNode(int32_t graph, int32_t node) {
  if (!view_ || graph < 0 || graph >= tabs_->count()) return;
  if (tabs_->currentIndex() != graph) tabs_->setCurrentIndex(graph);
  auto* t = currentTab();
  if (navigator_ && navigator_->current() != node) navigator_->go(node);
  t->select({node}, true);
}

void MainWindow::onTabChanged(int index) {
  auto* t = currentTab();
  if (!t || !view_) return;
  // The selection follows the user across graphs: same names, saved values to their uses.
  if (lastTab_ >= 0 && lastTab_ < tabs_->count() && lastTab_ != index) {
    auto* previous = static_cast<GraphTab*>(tabs_->widget(lastTab_));
    const auto& selection = previous->state().selection();
    if (!selection.empty() && selection.size() < 2000) {
      const auto mapped = view_->model->mapSelection(previous->graphIndex(), selection, t->graphIndex());
      if (!mapped.empty()) t->select(mapped, true);
    }
  }
  lastTab_ = index;
  navigator_ = std::make_unique<Navigator>(t->model());
  find_->setGraph(&t->model());
  onSelectionChanged();
}

void MainWindow::onSelectionChanged() {
  auto* t = currentTab();
  if (!t || !view_) return inspector_->show(nullptr, 0, {});
  inspector_->show(view_->model.get(), t->graphIndex(), t->state().selection());
  const auto& sel = t->state().selection();
  if (sel.size() == 1) {
    const NodeInfo& n = t->model().node(sel.front());
    statusBar()->showMessage(QStringLiteral("%%1 = %2   %3").arg(QString::fromStdString(n.name), QString::fromStdString(n.op),
                                                                 QString::fromStdString(n.metaEval)));
  }
}

void MainWindow::onFindResults() {
  auto* t = currentTab();
  if (!t) return;
  if (find_->filterOn()) (void)t->state().setFilter(find_->query());
  else t->state().clearFilter();
  t->setHighlight(find_->results(), Highlight::Find);
}

void MainWindow::navigate(int direction) {
  auto* t = currentTab();
  if (!t || !navigator_) return;
  if (direction < 0 ? navigator_->back() : navigator_->forward()) t->select({navigator_->current()}, true);
  onSelectionChanged();
}

void MainWindow::follow(bool toUser) {
  auto* t = currentTab();
  if (!t || !navigator_ || t->state().selection().empty()) return;
  if (navigator_->current() != t->state().selection().front()) navigator_->go(t->state().selection().front());
  if (toUser ? navigator_->followUser() : navigator_->followInput()) t->select({navigator_->current()}, true);
  onSelectionChanged();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const auto urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.front().isLocalFile()) openFile(urls.front().toLocalFile());
}

}  // namespace fathom::viz
