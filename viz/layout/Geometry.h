// Geometry shared by layouts and scenes: points and axis-aligned boxes in scene coordinates
// (x grows right, y grows DOWN, one unit = one pixel at zoom 1). Graphviz's y-up points are
// converted inside GraphvizLayout.cpp and never appear outside it.
#pragma once

namespace fathom::viz {

struct Point {
  double x = 0, y = 0;
  bool operator==(const Point&) const = default;
};

// A box by its top-left corner and size; width and height are >= 0.
struct Rect {
  double x = 0, y = 0, width = 0, height = 0;

  double left() const { return x; }
  double right() const { return x + width; }
  double top() const { return y; }
  double bottom() const { return y + height; }
  Point center() const { return {x + width / 2, y + height / 2}; }
  Point topCenter() const { return {x + width / 2, y}; }
  Point bottomCenter() const { return {x + width / 2, y + height}; }
  bool contains(Point p) const { return p.x >= x && p.x <= right() && p.y >= y && p.y <= bottom(); }
  // Interiors intersect (boxes that only touch along an edge do not overlap).
  bool overlaps(const Rect& o) const {
    return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom();
  }
  Rect translated(double dx, double dy) const { return {x + dx, y + dy, width, height}; }
  // The smallest box holding both (an empty box - width and height 0 at the origin - is ignored).
  Rect united(const Rect& o) const;
  bool empty() const { return width <= 0 && height <= 0; }
  bool operator==(const Rect&) const = default;
};

inline Rect Rect::united(const Rect& o) const {
  if (empty() && x == 0 && y == 0) return o;
  if (o.empty() && o.x == 0 && o.y == 0) return *this;
  const double l = x < o.x ? x : o.x, t = y < o.y ? y : o.y;
  const double r = right() > o.right() ? right() : o.right();
  const double b = bottom() > o.bottom() ? bottom() : o.bottom();
  return {l, t, r - l, b - t};
}

}  // namespace fathom::viz
