// MainWindow's exports: the view or the whole graph as SVG or PNG, the graph as DOT.
#include <QFileDialog>
#include <QPainter>
#include <QStatusBar>
#include <QSvgGenerator>

#include <algorithm>

#include "engine/dump/Dump.h"
#include "engine/graph/GraphPrinter.h"
#include "viz/gui/GraphCanvas.h"
#include "viz/gui/GraphTab.h"
#include "viz/gui/MainWindow.h"
#include "viz/gui/ScenePainter.h"

namespace fathom::viz {

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

}  // namespace fathom::viz
