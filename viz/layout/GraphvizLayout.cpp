// Graphviz dot in-process. The only file that includes Graphviz headers (they define MIN, MAX,
// TRUE, ... as macros); the 2.42 API takes char*, so names and values live in std::string
// buffers; Graphviz's y axis points up and is flipped here; one mutex serializes every call.
#include "viz/layout/GraphvizLayout.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

#include "viz/layout/LayoutFinish.h"

#ifdef FATHOM_WITH_GVC
#include <graphviz/gvc.h>
#endif

namespace fathom::viz {

#ifndef FATHOM_WITH_GVC

bool graphvizAvailable() { return false; }

Result<Layout> graphvizLayout(const LayoutGraph&, const GraphvizOptions&, const CancelFlag*) {
  return internalError("this build has no Graphviz (install libgraphviz-dev and reconfigure)");
}

#else

bool graphvizAvailable() { return true; }

namespace {

std::mutex& graphvizMutex() {
  static std::mutex m;
  return m;
}

// One context for the process (loading plugins is the expensive part); used under the mutex.
GVC_t* context() {
  static GVC_t* gvc = [] {
    agseterr(AGMAX);  // no warnings on stderr; failures come back as return codes
    return gvContext();
  }();
  return gvc;
}

std::string inches(double pixels) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", pixels / 72.0);
  return buf;
}

void setGraphAttr(Agraph_t* g, const char* name, const std::string& value) {
  std::string n = name, v = value;
  agattr(g, AGRAPH, n.data(), v.data());
}

Agsym_t* declare(Agraph_t* g, int kind, const char* name, const char* def) {
  std::string n = name, d = def;
  return agattr(g, kind, n.data(), d.data());
}

void setValue(void* obj, Agsym_t* sym, const std::string& value) {
  std::string v = value;
  agxset(obj, sym, v.data());
}

// A cubic Bezier chain flattened: its first point, then 4 points per curve.
std::vector<Point> flatten(const bezier& bz) {
  std::vector<Point> out;
  if (bz.size < 1) return out;
  auto at = [&](int i) { return Point{bz.list[i].x, -bz.list[i].y}; };
  out.push_back(at(0));
  for (int i = 0; i + 3 < bz.size; i += 3) {
    const Point p0 = at(i), p1 = at(i + 1), p2 = at(i + 2), p3 = at(i + 3);
    for (int k = 1; k <= 4; ++k) {
      const double t = k / 4.0, u = 1 - t;
      const double a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t;
      out.push_back({a * p0.x + b * p1.x + c * p2.x + d * p3.x, a * p0.y + b * p1.y + c * p2.y + d * p3.y});
    }
  }
  return out;
}

// Squared distance from p to the nearest point of box r (0 inside).
double distance2(Point p, const Rect& r) {
  const double dx = std::max({r.x - p.x, 0.0, p.x - r.right()});
  const double dy = std::max({r.y - p.y, 0.0, p.y - r.bottom()});
  return dx * dx + dy * dy;
}

// A dot graph with the layout's attributes: top to bottom, fixed-size boxes, no labels.
struct DotGraph {
  Agraph_t* g = nullptr;
  Agsym_t *width = nullptr, *height = nullptr, *weight = nullptr;
};

DotGraph openDotGraph(const GraphvizOptions& options) {
  DotGraph d;
  std::string graphName = "g";
  d.g = agopen(graphName.data(), Agdirected, nullptr);
  setGraphAttr(d.g, "rankdir", "TB");
  setGraphAttr(d.g, "nodesep", inches(options.nodeSpacing));
  setGraphAttr(d.g, "ranksep", inches(options.layerSpacing));
  setGraphAttr(d.g, "splines", "spline");
  if (options.nslimit > 0) {
    setGraphAttr(d.g, "nslimit", std::to_string(options.nslimit));
    setGraphAttr(d.g, "nslimit1", std::to_string(options.nslimit));
  }
  declare(d.g, AGNODE, "shape", "box");
  declare(d.g, AGNODE, "fixedsize", "true");
  declare(d.g, AGNODE, "label", "");
  d.width = declare(d.g, AGNODE, "width", "1");
  d.height = declare(d.g, AGNODE, "height", "0.5");
  declare(d.g, AGEDGE, "arrowhead", "none");
  d.weight = declare(d.g, AGEDGE, "weight", "1");
  return d;
}

// The boxes (aside ones stay out) and the main-flow edges; dropped and aside edges are marked in
// `out` and get no dot edge.
void addBoxesAndEdges(const LayoutGraph& graph, DotGraph& d, Layout& out, std::vector<Agnode_t*>& nodes,
                      std::vector<Agedge_t*>& edges) {
  const auto n = static_cast<int32_t>(graph.nodes.size());
  nodes.assign(graph.nodes.size(), nullptr);
  for (int32_t v = 0; v < n; ++v) {
    const LayoutNode& node = graph.nodes[static_cast<size_t>(v)];
    if (node.aside) continue;
    std::string name = "n" + std::to_string(v);
    nodes[static_cast<size_t>(v)] = agnode(d.g, name.data(), 1);
    setValue(nodes[static_cast<size_t>(v)], d.width, inches(node.width));
    setValue(nodes[static_cast<size_t>(v)], d.height, inches(node.height));
  }
  edges.assign(graph.edges.size(), nullptr);
  for (size_t j = 0; j < graph.edges.size(); ++j) {
    const LayoutEdge& e = graph.edges[j];
    if (e.from < 0 || e.to < 0 || e.from >= n || e.to >= n || e.from == e.to) {
      out.edges[j].route = EdgeRoute::Dropped;
    } else if (!nodes[static_cast<size_t>(e.from)] || !nodes[static_cast<size_t>(e.to)]) {
      out.edges[j].route = EdgeRoute::Aside;
    } else {
      // Back edges (to an earlier index) are given to dot reversed, so it sees a DAG: dot 2.42
      // leaks the virtual edges it makes when it breaks cycles itself (acyclic()).
      const bool back = e.from > e.to;
      edges[j] = agedge(d.g, nodes[static_cast<size_t>(back ? e.to : e.from)], nodes[static_cast<size_t>(back ? e.from : e.to)],
                        nullptr, 1);
      setValue(edges[j], d.weight, std::to_string(std::max(1, e.weight)));
    }
  }
}

// Reads dot's result back: boxes (y down), edge splines as polylines pointing from their
// source, and the distinct ranks. Returns the main column's left edge (for the aside column).
double readDotLayout(const LayoutGraph& graph, const std::vector<Agnode_t*>& nodes, const std::vector<Agedge_t*>& edges,
                     Layout& out) {
  double mainLeft = 1e300;
  std::vector<double> rankYs;
  for (size_t v = 0; v < nodes.size(); ++v) {
    Agnode_t* an = nodes[v];
    if (!an) continue;
    const double w = ND_width(an) * 72, h = ND_height(an) * 72;
    const double cx = ND_coord(an).x, cy = -ND_coord(an).y;
    out.boxes[v] = {cx - w / 2, cy - h / 2, w, h};
    mainLeft = std::min(mainLeft, cx - w / 2);
    rankYs.push_back(cy);
  }
  for (size_t j = 0; j < graph.edges.size(); ++j) {
    if (!edges[j]) continue;
    RoutedEdge& r = out.edges[j];
    r.route = EdgeRoute::Polyline;
    if (const splines* spl = ED_spl(edges[j]))
      for (int k = 0; k < spl->size; ++k) {
        auto part = flatten(spl->list[k]);
        r.points.insert(r.points.end(), part.begin(), part.end());
      }
    const Rect& from = out.boxes[static_cast<size_t>(graph.edges[j].from)];
    const Rect& to = out.boxes[static_cast<size_t>(graph.edges[j].to)];
    if (r.points.size() < 2) r.points = {from.bottomCenter(), to.topCenter()};
    if (distance2(r.points.front(), to) < distance2(r.points.front(), from))
      std::reverse(r.points.begin(), r.points.end());
    r.reversed = to.y <= from.y;
  }
  std::sort(rankYs.begin(), rankYs.end());
  out.layers = static_cast<int32_t>(std::unique(rankYs.begin(), rankYs.end()) - rankYs.begin());
  return mainLeft > 1e299 ? 0 : mainLeft;
}

}  // namespace

Result<Layout> graphvizLayout(const LayoutGraph& graph, const GraphvizOptions& options, const CancelFlag* cancel) {
  if (cancel && cancel->load()) return cancelledError();
  const auto start = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(graphvizMutex());
  GVC_t* gvc = context();
  if (!gvc) return internalError("Graphviz: gvContext() failed");

  DotGraph d = openDotGraph(options);
  Layout out;
  out.engine = LayoutEngine::Graphviz;
  out.boxes.resize(graph.nodes.size());
  out.edges.resize(graph.edges.size());
  std::vector<Agnode_t*> nodes;
  std::vector<Agedge_t*> edges;
  addBoxesAndEdges(graph, d, out, nodes, edges);
  if (gvLayout(gvc, d.g, "dot") != 0) {
    agclose(d.g);
    return internalError("Graphviz: dot failed to lay the graph out");
  }
  const double mainLeft = readDotLayout(graph, nodes, edges, out);
  gvFreeLayout(gvc, d.g);
  agclose(d.g);

  placeAsideColumn(graph, out, mainLeft, options.asideGap, options.nodeSpacing / 2);
  normalizeLayout(out);
  out.crossings = countPolylineCrossings(graph, out);
  out.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (cancel && cancel->load()) return cancelledError();
  return out;
}

#endif

}  // namespace fathom::viz
