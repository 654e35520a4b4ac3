// GraphCanvas (see the header).
#include "viz/gui/GraphCanvas.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "viz/gui/ScenePainter.h"

namespace fathom::viz {

namespace {
constexpr double kMinScale = 0.01, kMaxScale = 4;
constexpr int kOverviewMax = 220;   // longest side of the overview, in pixels
}  // namespace

GraphCanvas::GraphCanvas(QWidget* parent) : QWidget(parent) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(false);
  setAutoFillBackground(true);
  QPalette pal = palette();
  pal.setColor(QPalette::Window, Qt::white);
  setPalette(pal);
  setMinimumSize(200, 150);
}

void GraphCanvas::setScene(Scene scene, bool keepView) {
  scene_ = std::move(scene);
  renderOverview();
  if (!keepView) autoFit_ = true, keepCentered_ = false;
  if (autoFit_) fitToScene();  // the scene grows as layouts arrive: keep it fitted until the user moves
  update();
}

void GraphCanvas::setOverviewShown(bool shown) {
  showOverview_ = shown;
  update();
}

QPointF GraphCanvas::toScene(QPointF p) const { return origin_ + p / scale_; }

QRectF GraphCanvas::visibleSceneRect() const { return {origin_, QSizeF(width() / scale_, height() / scale_)}; }

void GraphCanvas::fitToScene() {
  const QRectF b = toQt(scene_.bounds).adjusted(-20, -20, 20, 20);
  if (b.width() <= 0 || b.height() <= 0 || width() <= 0 || height() <= 0) return;
  // The whole graph when its boxes stay visible (frames keep readable titles); a very tall one is
  // shown from its top at a readable size, and the overview shows the rest.
  const double fitBoth = std::min(width() / b.width(), height() / b.height());
  const double fitWidth = width() / b.width();
  const bool whole = fitBoth >= 0.12;
  scale_ = std::clamp(whole ? fitBoth : std::min(fitWidth, 0.8), kMinScale, 1.0);
  origin_ = QPointF(b.center().x() - width() / scale_ / 2, b.top());
  if (whole) origin_.setY(b.center().y() - height() / scale_ / 2);
  update();
}

void GraphCanvas::centerOn(const Rect& box, bool zoomIn) {
  autoFit_ = false;
  if (zoomIn && scale_ < 0.8) scale_ = 0.8;
  keepCentered_ = true;
  centered_ = toQt(box).center();
  origin_ = centered_ - QPointF(width() / scale_ / 2, height() / scale_ / 2);
  update();
}

void GraphCanvas::setScale(double scale, QPointF anchor) {
  autoFit_ = keepCentered_ = false;
  const QPointF sceneAnchor = toScene(anchor);
  scale_ = std::clamp(scale, kMinScale, kMaxScale);
  origin_ = sceneAnchor - anchor / scale_;
  update();
}

QRectF GraphCanvas::overviewRect() const {
  if (overview_.isNull()) return {};
  return QRectF(width() - overview_.width() - 10, height() - overview_.height() - 10, overview_.width(), overview_.height());
}

void GraphCanvas::renderOverview() {
  const QRectF b = toQt(scene_.bounds);
  if (b.width() <= 0 || b.height() <= 0) {
    overview_ = QImage();
    return;
  }
  overviewScale_ = kOverviewMax / std::max(b.width(), b.height());
  const QSize size(std::max(20, static_cast<int>(b.width() * overviewScale_)), std::max(20, static_cast<int>(b.height() * overviewScale_)));
  overview_ = QImage(size, QImage::Format_ARGB32_Premultiplied);
  overview_.fill(QColor(250, 250, 252, 235));
  QPainter p(&overview_);
  p.scale(overviewScale_, overviewScale_);
  p.translate(-b.topLeft());
  paintScene(p, scene_, PaintOptions{overviewScale_, {}, false});
}

void GraphCanvas::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.save();
  p.scale(scale_, scale_);
  p.translate(-origin_);
  paintScene(p, scene_, PaintOptions{scale_, visibleSceneRect(), true});
  p.restore();
  if (!scene_.items.empty()) paintLegend(p, QPointF(8, 8), &scene_);
  // The overview only when part of the graph is off screen.
  if (showOverview_ && !overview_.isNull() && !visibleSceneRect().contains(toQt(scene_.bounds))) {
    const QRectF o = overviewRect();
    p.setPen(QColor(160, 160, 170));
    p.setBrush(Qt::NoBrush);
    p.drawImage(o.topLeft(), overview_);
    p.drawRect(o);
    const QRectF b = toQt(scene_.bounds);
    QRectF v = visibleSceneRect();
    v = QRectF((v.left() - b.left()) * overviewScale_ + o.left(), (v.top() - b.top()) * overviewScale_ + o.top(),
               v.width() * overviewScale_, v.height() * overviewScale_).intersected(o);
    p.setPen(QPen(QColor(255, 150, 0), 2));
    p.drawRect(v);
  }
  if (scene_.items.empty()) {
    p.setPen(QColor(120, 120, 130));
    p.drawText(rect(), Qt::AlignCenter, tr("Open a dump (Ctrl+O) or drop one here."));
  }
}

int GraphCanvas::itemAt(QPointF s) const {
  for (size_t i = scene_.items.size(); i-- > 0;)
    if (toQt(scene_.items[i].box).contains(s)) return static_cast<int>(i);
  return -1;
}

int GraphCanvas::stubAt(QPointF s) const {
  for (size_t i = 0; i < scene_.stubs.size(); ++i) {
    const auto& st = scene_.stubs[i];
    const QRectF r(st.at.x - 4, st.incoming ? st.at.y - 16 : st.at.y, 200, 16);
    if (r.contains(s)) return static_cast<int>(i);
  }
  return -1;
}

void GraphCanvas::mousePressEvent(QMouseEvent* e) {
  if (showOverview_ && !visibleSceneRect().contains(toQt(scene_.bounds)) && overviewRect().contains(e->position())) {
    draggingOverview_ = true;
    autoFit_ = keepCentered_ = false;
    mouseMoveEvent(e);
    return;
  }
  dragging_ = true;
  moved_ = false;
  dragStart_ = e->position().toPoint();
  dragOrigin_ = origin_;
}

void GraphCanvas::mouseMoveEvent(QMouseEvent* e) {
  if (draggingOverview_) {
    const QRectF o = overviewRect();
    const QRectF b = toQt(scene_.bounds);
    const QPointF target = b.topLeft() + (e->position() - o.topLeft()) / overviewScale_;
    origin_ = target - QPointF(width() / scale_ / 2, height() / scale_ / 2);
    update();
    return;
  }
  if (!dragging_) return;
  const QPoint delta = e->position().toPoint() - dragStart_;
  if (delta.manhattanLength() > 3) {
    moved_ = true;
    autoFit_ = keepCentered_ = false;
  }
  origin_ = dragOrigin_ - QPointF(delta) / scale_;
  update();
}

void GraphCanvas::mouseReleaseEvent(QMouseEvent* e) {
  if (draggingOverview_) {
    draggingOverview_ = false;
    return;
  }
  dragging_ = false;
  if (moved_) return;
  const QPointF s = toScene(e->position());
  if (const int stub = stubAt(s); stub >= 0) {
    Q_EMIT stubClicked(scene_.stubs[static_cast<size_t>(stub)].item, scene_.stubs[static_cast<size_t>(stub)].otherNode);
    return;
  }
  const int item = itemAt(s);
  if (item >= 0) Q_EMIT itemClicked(item, e->modifiers());
  else Q_EMIT backgroundClicked();
}

void GraphCanvas::mouseDoubleClickEvent(QMouseEvent* e) {
  const int item = itemAt(toScene(e->position()));
  if (item >= 0) Q_EMIT itemActivated(item);
}

void GraphCanvas::wheelEvent(QWheelEvent* e) {
  const double steps = e->angleDelta().y() / 120.0;
  setScale(scale_ * std::pow(1.2, steps), e->position());
}

void GraphCanvas::keyPressEvent(QKeyEvent* e) {
  const QPointF center(width() / 2.0, height() / 2.0);
  const double pan = 80 / scale_;
  switch (e->key()) {
    case Qt::Key_Plus: case Qt::Key_Equal: setScale(scale_ * 1.25, center); break;
    case Qt::Key_Minus: setScale(scale_ / 1.25, center); break;
    case Qt::Key_0: fitToScene(); break;
    case Qt::Key_Left: origin_.rx() -= pan; update(); break;
    case Qt::Key_Right: origin_.rx() += pan; update(); break;
    case Qt::Key_Up: origin_.ry() -= pan; update(); break;
    case Qt::Key_Down: origin_.ry() += pan; update(); break;
    default: QWidget::keyPressEvent(e);
  }
}

void GraphCanvas::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  if (autoFit_) fitToScene();
  else if (keepCentered_) origin_ = centered_ - QPointF(width() / scale_ / 2, height() / scale_ / 2);  // laid out after centerOn
  update();
}

}  // namespace fathom::viz
