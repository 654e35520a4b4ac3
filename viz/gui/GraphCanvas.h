// GraphCanvas: draws one Scene (ScenePainter) with pan and zoom, and an overview (minimap) in the
// corner that is rendered once into an image per scene, not repainted item by item. It holds no
// semantics: clicks come back as item indices (itemClicked, itemActivated) for the tab to act on.
//
// Mouse: drag pans, wheel zooms around the pointer, click selects, double-click expands or
// collapses a group; a click in the overview moves the view there. Keys: + / - zoom, 0 fits,
// arrows pan.
#pragma once

#include <QImage>
#include <QPointF>
#include <QWidget>

#include "viz/model/Scene.h"

namespace fathom::viz {

class GraphCanvas : public QWidget {
  Q_OBJECT
 public:
  explicit GraphCanvas(QWidget* parent = nullptr);

  // A new scene; keepView: keep zoom and position (expanding a group), else fit it.
  void setScene(Scene scene, bool keepView);
  const Scene& scene() const { return scene_; }

  void fitToScene();
  void centerOn(const Rect& box, bool zoomIn);
  double scale() const { return scale_; }
  void setScale(double scale, QPointF anchor);
  // The scene rectangle on screen now.
  QRectF visibleSceneRect() const;
  bool overviewShown() const { return showOverview_; }
  void setOverviewShown(bool shown);

 Q_SIGNALS:
  void itemClicked(int item, Qt::KeyboardModifiers modifiers);
  void itemActivated(int item);  // double-click
  void stubClicked(int item, int otherNode);
  void backgroundClicked();

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  QPointF toScene(QPointF widgetPoint) const;
  QRectF overviewRect() const;
  void renderOverview();
  int itemAt(QPointF scenePoint) const;
  int stubAt(QPointF scenePoint) const;

  Scene scene_;
  double scale_ = 1;
  QPointF origin_;        // scene point at the widget's top-left
  QPoint dragStart_;
  QPointF dragOrigin_;
  bool dragging_ = false, moved_ = false, draggingOverview_ = false;
  bool showOverview_ = true;
  bool autoFit_ = true;   // refit on resize until the user moves the view
  bool keepCentered_ = false;  // after centerOn, until the user moves: a resize keeps centered_ in the middle
  QPointF centered_;
  QImage overview_;       // the whole scene, rendered once per setScene
  double overviewScale_ = 1;
};

}  // namespace fathom::viz
