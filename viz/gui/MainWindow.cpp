// MainWindow (see the header).
#include "viz/gui/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "engine/dump/Dump.h"
#include "engine/graph/GraphPrinter.h"
#include "viz/gui/FindPanel.h"
#include "viz/gui/GraphCanvas.h"
#include "viz/gui/GraphTab.h"
#include "viz/gui/GuardsPanel.h"
#include "viz/gui/InspectorPanel.h"
#include "viz/gui/ScenePainter.h"
#include "viz/model/Find.h"

namespace fathom::viz {

namespace {

constexpr int kMaxRecent = 10;

struct BuiltView {
  std::shared_ptr<const DumpView> view;
  LoadedDump loaded;  // path, error, seconds
};

// The view models of a loaded dump: every graph's model and group tree.
BuiltView buildView(LoadedDump loaded) {
  BuiltView out;
  if (loaded.dump) {
    auto model = DumpModel::build(loaded.dump);
    if (!model.ok()) {
      loaded.error = loaded.path.toStdString() + ": " + model.error().str();
      loaded.dump.reset();
    } else {
      auto view = std::make_shared<DumpView>();
      view->path = loaded.path;
      view->dump = loaded.dump;
      view->model = std::make_unique<DumpModel>(std::move(*model));
      for (const GraphModel& g : view->model->graphs()) view->trees.push_back(std::make_unique<GroupTree>(GroupTree::build(g)));
      out.view = std::move(view);
    }
  }
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
  auto dock = [this](QWidget* w, const QString& title, const QString& name, Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(name);
    d->setWidget(w);
    addDockWidget(area, d);
    return d;
  };
  QDockWidget* inspectorDock = dock(inspector_, tr("Inspector"), QStringLiteral("inspector"), Qt::RightDockWidgetArea);
  QDockWidget* findDock = dock(find_, tr("Find"), QStringLiteral("find"), Qt::RightDockWidgetArea);
  QDockWidget* guardsDock = dock(guards_, tr("Guards"), QStringLiteral("guards"), Qt::BottomDockWidgetArea);
  tabifyDockWidget(inspectorDock, findDock);
  inspectorDock->raise();
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
  buildMenus();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  fillRecentMenu();
  file->addSeparator();
  file->addAction(tr("Export &View as SVG or PNG…"), QKeySequence(Qt::CTRL | Qt::Key_E), this, [this] { exportDialog(false); });
  file->addAction(tr("Export &Whole Graph as SVG or PNG…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), this, [this] { exportDialog(true); });
  file->addAction(tr("Export Graph as &DOT…"), this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export DOT"), QString(), tr("Graphviz (*.dot *.gv)"));
    if (!path.isEmpty() && !exportDot(path)) statusBar()->showMessage(tr("Cannot write %1").arg(path), 5000);
  });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, this, [this] {
    if (auto* t = currentTab()) t->canvas()->setScale(t->canvas()->scale() * 1.25, t->canvas()->rect().center());
  });
  view->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, this, [this] {
    if (auto* t = currentTab()) t->canvas()->setScale(t->canvas()->scale() / 1.25, t->canvas()->rect().center());
  });
  view->addAction(tr("&Fit"), QKeySequence(Qt::CTRL | Qt::Key_0), this, [this] {
    if (auto* t = currentTab()) t->canvas()->fitToScene();
  });
  view->addAction(tr("&Collapse All"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), this, [this] {
    if (auto* t = currentTab()) {
      t->state().collapseAll();
      t->refresh(false);
    }
  });
  QAction* overview = view->addAction(tr("Show O&verview"));
  overview->setCheckable(true);
  overview->setChecked(true);
  connect(overview, &QAction::toggled, this, [this](bool on) {
    for (int i = 0; i < tabs_->count(); ++i) static_cast<GraphTab*>(tabs_->widget(i))->canvas()->setOverviewShown(on);
  });
  view->addSeparator();
  view->addAction(tr("&Inspector"), QKeySequence(Qt::CTRL | Qt::Key_1), this, [this] { showPanel(QStringLiteral("inspector")); });
  view->addAction(tr("&Guards"), QKeySequence(Qt::CTRL | Qt::Key_2), this, [this] { showPanel(QStringLiteral("guards")); });

  QMenu* go = menuBar()->addMenu(tr("&Go"));
  go->addAction(tr("&Find…"), QKeySequence::Find, this, [this] {
    showPanel(QStringLiteral("find"));
    find_->focusName();
  });
  go->addAction(tr("Find &Next"), QKeySequence::FindNext, find_, &FindPanel::next);
  go->addAction(tr("Find &Previous"), QKeySequence::FindPrevious, find_, &FindPanel::previous);
  go->addSeparator();
  go->addAction(tr("Follow First &Input"), QKeySequence(Qt::ALT | Qt::Key_Up), this, [this] { follow(false); });
  go->addAction(tr("Follow First &User"), QKeySequence(Qt::ALT | Qt::Key_Down), this, [this] { follow(true); });
  go->addAction(tr("&Back"), QKeySequence::Back, this, [this] { navigate(-1); });
  go->addAction(tr("F&orward"), QKeySequence::Forward, this, [this] { navigate(+1); });
  go->addAction(tr("Clear &Selection"), QKeySequence(Qt::Key_Escape), this, [this] {
    if (auto* t = currentTab()) {
      t->state().clearSelection();
      t->refresh();
      onSelectionChanged();
    }
  });
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
  if (loading_ != 0 || !guards_->idle()) return false;
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

bool MainWindow::exportView(const QString& path, bool wholeGraph) {
  auto* t = currentTab();
  if (!t) return false;
  const Scene& scene = t->canvas()->scene();
  const QRectF area = wholeGraph ? toQt(scene.bounds).adjusted(-20, -20, 20, 20) : t->canvas()->visibleSceneRect();
  if (path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)) {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(area.size().toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), area.size()));
    svg.setTitle(currentGraphName());
    QPainter p;
    if (!p.begin(&svg)) return false;
    p.translate(-area.topLeft());
    paintScene(p, scene, PaintOptions{1, area, true});
    return p.end();
  }
  if (!wholeGraph) return t->canvas()->grab().save(path);
  // A whole graph at up to 1:1, but no side over 16,000 pixels.
  const double scale = std::min(1.0, 16000 / std::max(area.width(), area.height()));
  QImage image((area.size() * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  QPainter p(&image);
  p.scale(scale, scale);
  p.translate(-area.topLeft());
  paintScene(p, scene, PaintOptions{scale, area, true});
  p.end();
  return image.save(path);
}

bool MainWindow::exportDot(const QString& path) {
  auto* t = currentTab();
  if (!t) return false;
  // Atomically, like every file Fathom writes: a failed export never leaves half a file.
  return writeFileAtomically(path.toStdString(), graphToDot(t->model().graph(), t->model().graphName())).ok();
}

void MainWindow::exportDialog(bool wholeGraph) {
  const QString path = QFileDialog::getSaveFileName(this, wholeGraph ? tr("Export the whole graph") : tr("Export the view"), QString(),
                                                    tr("SVG (*.svg);;PNG (*.png)"));
  if (!path.isEmpty() && !exportView(path, wholeGraph)) statusBar()->showMessage(tr("Cannot write %1").arg(path), 5000);
}

void MainWindow::addRecent(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value(QStringLiteral("recent")).toStringList();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  recent.removeAll(absolute);
  recent.prepend(absolute);
  while (recent.size() > kMaxRecent) recent.removeLast();
  settings.setValue(QStringLiteral("recent"), recent);
  fillRecentMenu();
}

void MainWindow::fillRecentMenu() {
  recentMenu_->clear();
  const QStringList recent = QSettings().value(QStringLiteral("recent")).toStringList();
  for (const QString& path : recent) recentMenu_->addAction(path, this, [this, path] { openFile(path); });
  recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const auto urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.front().isLocalFile()) openFile(urls.front().toLocalFile());
}

}  // namespace fathom::viz
