// Paints a viz::Scene with QPainter - the one drawing routine behind the canvas, the minimap, and
// the SVG/PNG exports, so what is exported is what is seen. Colours say what the core computed:
// forward blue, backward orange, saved values crossing the cut purple, selection yellow, guard
// highlights red, find results green; filtered-out items are faded. A node's mark (a debugging
// run's or a diff's state) fills its box and names itself on a tab at its top-left corner.
//
// Level of detail: text only where it is readable (a line at least ~7 px tall on screen), and
// as many lines as fit; below that, boxes and edges only.
#pragma once

#include <QColor>
#include <QRectF>

#include "viz/model/Scene.h"

class QPainter;

namespace fathom::viz {

struct PaintOptions {
  double scale = 1;          // screen pixels per scene unit (for level of detail)
  QRectF visible;            // scene rectangle to draw; empty = everything
  bool text = true;          // false: boxes and edges only (the minimap)
};

QColor sideColor(Side side);
QColor markColor(NodeMark mark);
const char* markName(NodeMark mark);  // "mismatch starts here", "added", ...

void paintScene(QPainter& painter, const Scene& scene, const PaintOptions& options);
// What the colours mean, in screen coordinates at `at` (the canvas's top-left corner); with a
// scene, also the marks it shows.
void paintLegend(QPainter& painter, QPointF at, const Scene* scene = nullptr);

QRectF toQt(const Rect& r);

}  // namespace fathom::viz
