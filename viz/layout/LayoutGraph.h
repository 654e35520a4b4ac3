// LayoutGraph: what every layout engine takes (boxes with sizes, directed edges) and Layout:
// what it returns (box positions, one route per edge, crossings). Indices are stable: box i of
// the Layout is node i of the LayoutGraph, route j is edge j.
//
//   LayoutGraph g;
//   g.nodes = {{.width = 80, .height = 40}, {.width = 80, .height = 40}};
//   g.edges = {{.from = 0, .to = 1}};
//   auto layout = layeredLayout(g);          // layout->boxes[1].y > layout->boxes[0].y
//
// Invariants of a Layout from any engine: no two boxes overlap; in a DAG every Polyline route
// starts at its source's bottom and ends at its target's top, which lies lower (edges point
// down); a Stubbed or Aside route has no polyline - the scene draws a short labelled stub at
// each end instead.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "viz/layout/Geometry.h"

namespace fathom::viz {

struct LayoutNode {
  double width = 80, height = 40;
  // Drawn aside: not layered into the main flow (a parameter or constant with many users). Its
  // edges, both ways, get Aside routes; the box goes in a column left of the main flow, level
  // with its first user.
  bool aside = false;
};

struct LayoutEdge {
  int32_t from = 0, to = 0;  // node indices; an edge whose ends are out of range is ignored
  int32_t weight = 1;        // how many graph edges it stands for (straightness priority)
};

struct LayoutGraph {
  std::vector<LayoutNode> nodes;
  std::vector<LayoutEdge> edges;
};

enum class EdgeRoute : uint8_t {
  Polyline,  // drawn as `points`
  Stubbed,   // spans more layers than LayeredOptions::maxSpan: labelled stubs at both ends
  Aside,     // touches an aside node: a stub at the other end names it
  Dropped,   // a self-loop or an edge with an end out of range: not drawn
};

struct RoutedEdge {
  EdgeRoute route = EdgeRoute::Polyline;
  std::vector<Point> points;  // Polyline: source bottom, bends..., target top
  bool reversed = false;      // the edge closed a cycle and was laid out upside down
};

enum class LayoutEngine : uint8_t { Layered, Graphviz };
std::string_view layoutEngineName(LayoutEngine e);  // "layered", "graphviz-dot"

struct Layout {
  std::vector<Rect> boxes;         // per LayoutGraph node, top-left at >= (0, 0)
  std::vector<RoutedEdge> edges;   // per LayoutGraph edge
  Rect bounds;                     // holds every box and route
  int64_t crossings = 0;           // edge crossings between adjacent layers (Layered) or of
                                   // the drawn polylines (Graphviz; countPolylineCrossings)
  int32_t layers = 0;              // ranks used (0 for an empty graph)
  LayoutEngine engine = LayoutEngine::Layered;
  double milliseconds = 0;         // wall time of the computation
};

// Cancellation: every engine polls `cancel` (may be null) between steps and returns this error
// when it was set. Graphviz cannot be interrupted inside dot; it is checked before and after.
using CancelFlag = std::atomic<bool>;
Error cancelledError();
bool isCancelled(const Error& e);

// Crossings among the Polyline routes of a layout, counted geometrically: two segments of edges
// that share no end node and cross properly (touching does not count). Serves to compare
// engines on the same metric. Grid-bucketed: about linear for drawings of layered graphs.
int64_t countPolylineCrossings(const LayoutGraph& graph, const Layout& layout);

// Checks the invariants above; an error names the first offending box or edge. For tests.
Status checkLayout(const LayoutGraph& graph, const Layout& layout);

}  // namespace fathom::viz
