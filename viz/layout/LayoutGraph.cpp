// What every layout engine shares: names, the cancellation error, the geometric crossing count
// and the invariant check (LayoutGraph.h).
#include "viz/layout/LayoutGraph.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace fathom::viz {

std::string_view layoutEngineName(LayoutEngine e) {
  return e == LayoutEngine::Graphviz ? "graphviz-dot" : "layered";
}

namespace {
constexpr const char* kCancelled = "layout cancelled";
}

Error cancelledError() { return internalError(kCancelled); }
bool isCancelled(const Error& e) { return e.message == kCancelled; }

namespace {

struct Seg {
  Point a, b;
  int32_t edge;
};

double cross(Point o, Point a, Point b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

// Proper crossing: each segment's ends lie strictly on both sides of the other's line.
bool properlyCross(const Seg& s, const Seg& t) {
  const double d1 = cross(s.a, s.b, t.a), d2 = cross(s.a, s.b, t.b);
  const double d3 = cross(t.a, t.b, s.a), d4 = cross(t.a, t.b, s.b);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

Point intersection(const Seg& s, const Seg& t) {
  const double d1 = cross(s.a, s.b, t.a), d2 = cross(s.a, s.b, t.b);
  const double k = d1 / (d1 - d2);
  return {t.a.x + (t.b.x - t.a.x) * k, t.a.y + (t.b.y - t.a.y) * k};
}

}  // namespace

int64_t countPolylineCrossings(const LayoutGraph& graph, const Layout& layout) {
  std::vector<Seg> segs;
  double minX = 1e300, minY = 1e300, maxX = -1e300, maxY = -1e300;
  for (size_t j = 0; j < layout.edges.size() && j < graph.edges.size(); ++j) {
    const RoutedEdge& r = layout.edges[j];
    if (r.route != EdgeRoute::Polyline) continue;
    for (size_t k = 0; k + 1 < r.points.size(); ++k) {
      segs.push_back({r.points[k], r.points[k + 1], static_cast<int32_t>(j)});
      for (const Point& p : {r.points[k], r.points[k + 1]}) {
        minX = std::min(minX, p.x), maxX = std::max(maxX, p.x);
        minY = std::min(minY, p.y), maxY = std::max(maxY, p.y);
      }
    }
  }
  if (segs.size() < 2) return 0;
  // A uniform grid with about one segment per cell; a pair is counted in the cell holding its
  // crossing point only.
  const double extent = std::max(maxX - minX, maxY - minY) + 1;
  const double cell = std::max(16.0, extent / std::sqrt(static_cast<double>(segs.size())));
  auto cellKey = [&](int64_t cx, int64_t cy) { return (cx << 32) ^ cy; };
  std::unordered_map<int64_t, std::vector<int32_t>> grid;
  for (size_t i = 0; i < segs.size(); ++i) {
    const Seg& s = segs[i];
    const auto x0 = static_cast<int64_t>((std::min(s.a.x, s.b.x) - minX) / cell), x1 = static_cast<int64_t>((std::max(s.a.x, s.b.x) - minX) / cell);
    const auto y0 = static_cast<int64_t>((std::min(s.a.y, s.b.y) - minY) / cell), y1 = static_cast<int64_t>((std::max(s.a.y, s.b.y) - minY) / cell);
    for (int64_t cx = x0; cx <= x1; ++cx)
      for (int64_t cy = y0; cy <= y1; ++cy) grid[cellKey(cx, cy)].push_back(static_cast<int32_t>(i));
  }
  int64_t crossings = 0;
  for (const auto& [key, members] : grid) {
    for (size_t p = 0; p < members.size(); ++p) {
      for (size_t q = p + 1; q < members.size(); ++q) {
        const Seg& s = segs[static_cast<size_t>(members[p])];
        const Seg& t = segs[static_cast<size_t>(members[q])];
        if (s.edge == t.edge) continue;
        const LayoutEdge& e = graph.edges[static_cast<size_t>(s.edge)];
        const LayoutEdge& f = graph.edges[static_cast<size_t>(t.edge)];
        if (e.from == f.from || e.from == f.to || e.to == f.from || e.to == f.to) continue;
        if (!properlyCross(s, t)) continue;
        const Point x = intersection(s, t);
        if (cellKey(static_cast<int64_t>((x.x - minX) / cell), static_cast<int64_t>((x.y - minY) / cell)) == key) ++crossings;
      }
    }
  }
  return crossings;
}

Status checkLayout(const LayoutGraph& graph, const Layout& layout) {
  if (layout.boxes.size() != graph.nodes.size() || layout.edges.size() != graph.edges.size())
    return internalError("layout has " + std::to_string(layout.boxes.size()) + " boxes and " +
                         std::to_string(layout.edges.size()) + " routes for " + std::to_string(graph.nodes.size()) +
                         " nodes and " + std::to_string(graph.edges.size()) + " edges");
  std::vector<size_t> byX(layout.boxes.size());
  for (size_t i = 0; i < byX.size(); ++i) byX[i] = i;
  std::sort(byX.begin(), byX.end(), [&](size_t a, size_t b) { return layout.boxes[a].x < layout.boxes[b].x; });
  for (size_t i = 0; i < byX.size(); ++i) {
    const Rect& a = layout.boxes[byX[i]];
    for (size_t j = i + 1; j < byX.size() && layout.boxes[byX[j]].x < a.right(); ++j)
      if (a.overlaps(layout.boxes[byX[j]]))
        return internalError("boxes " + std::to_string(byX[i]) + " and " + std::to_string(byX[j]) + " overlap");
  }
  constexpr double kTolerance = 2.0;
  for (size_t j = 0; j < graph.edges.size(); ++j) {
    const RoutedEdge& r = layout.edges[j];
    if (r.route != EdgeRoute::Polyline) continue;
    const std::string where = "edge " + std::to_string(j);
    if (r.points.size() < 2) return internalError(where + ": a polyline of fewer than 2 points");
    const Rect& from = layout.boxes[static_cast<size_t>(graph.edges[j].from)];
    const Rect& to = layout.boxes[static_cast<size_t>(graph.edges[j].to)];
    const Point s = r.points.front(), t = r.points.back();
    auto near = [&](Point p, const Rect& b) {
      return p.x >= b.x - kTolerance && p.x <= b.right() + kTolerance && p.y >= b.y - kTolerance && p.y <= b.bottom() + kTolerance;
    };
    if (!near(s, from) || !near(t, to)) return internalError(where + ": the polyline does not join its boxes");
    if (!r.reversed && !(to.y > from.y && t.y > s.y)) return internalError(where + ": points upward");
    if (!r.reversed)
      for (size_t k = 0; k + 1 < r.points.size(); ++k)
        if (r.points[k + 1].y < r.points[k].y - kTolerance) return internalError(where + ": turns upward at point " + std::to_string(k + 1));
  }
  return {};
}

}  // namespace fathom::viz
