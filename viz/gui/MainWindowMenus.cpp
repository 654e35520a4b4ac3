// MainWindow's menus, their shortcuts, and the recent-files list (see MainWindow.h).
#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

#include "viz/gui/FindPanel.h"
#include "viz/gui/GraphCanvas.h"
#include "viz/gui/GraphTab.h"
#include "viz/gui/MainWindow.h"

namespace fathom::viz {

namespace {
constexpr int kMaxRecent = 10;
}  // namespace

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
  buildCompareMenu();
  buildMinifyMenu();
  buildDebugMenu();
  buildTimelineMenu();
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

}  // namespace fathom::viz
