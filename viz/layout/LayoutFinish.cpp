// The aside column and normalization shared by the engines (LayoutFinish.h).
#include "viz/layout/LayoutFinish.h"

#include <algorithm>
#include <limits>

namespace fathom::viz {

void placeAsideColumn(const LayoutGraph& g, Layout& out, double mainLeft, double gap, double spacing) {
  std::vector<std::pair<double, int32_t>> wanted;  // (desired top, node)
  std::vector<double> desired(g.nodes.size(), std::numeric_limits<double>::max());
  double columnWidth = 0;
  for (const LayoutEdge& e : g.edges) {
    if (e.from < 0 || e.to < 0 || static_cast<size_t>(e.from) >= g.nodes.size() || static_cast<size_t>(e.to) >= g.nodes.size()) continue;
    const bool fromAside = g.nodes[static_cast<size_t>(e.from)].aside, toAside = g.nodes[static_cast<size_t>(e.to)].aside;
    if (fromAside && !toAside) desired[static_cast<size_t>(e.from)] = std::min(desired[static_cast<size_t>(e.from)], out.boxes[static_cast<size_t>(e.to)].y);
    if (toAside && !fromAside) desired[static_cast<size_t>(e.to)] = std::min(desired[static_cast<size_t>(e.to)], out.boxes[static_cast<size_t>(e.from)].y);
  }
  for (size_t v = 0; v < g.nodes.size(); ++v) {
    if (!g.nodes[v].aside) continue;
    wanted.emplace_back(desired[v] == std::numeric_limits<double>::max() ? 0 : desired[v], static_cast<int32_t>(v));
    columnWidth = std::max(columnWidth, g.nodes[v].width);
  }
  std::sort(wanted.begin(), wanted.end());
  const double left = mainLeft - gap - columnWidth;
  double nextTop = std::numeric_limits<double>::lowest();
  for (const auto& [top, v] : wanted) {
    const LayoutNode& node = g.nodes[static_cast<size_t>(v)];
    const double y = std::max(top, nextTop);
    out.boxes[static_cast<size_t>(v)] = {left + columnWidth - node.width, y, node.width, node.height};
    nextTop = y + node.height + spacing;
  }
}

void normalizeLayout(Layout& out) {
  Rect b;
  bool any = false;
  auto add = [&](const Rect& r) {
    b = any ? b.united(r) : r;
    any = true;
  };
  for (const Rect& r : out.boxes) add(r);
  for (const RoutedEdge& e : out.edges)
    for (const Point& p : e.points) add({p.x, p.y, 0, 0});
  const double dx = -b.x, dy = -b.y;
  for (Rect& r : out.boxes) r = r.translated(dx, dy);
  for (RoutedEdge& e : out.edges)
    for (Point& p : e.points) p = {p.x + dx, p.y + dy};
  out.bounds = any ? b.translated(dx, dy) : Rect{};
}

}  // namespace fathom::viz
