// LayeredLayout: the driver - edge classes, layering, dummy chains, then ordering and coordinates
// (LayerOrdering.cpp, LayerCoordinates.cpp), routes, the aside column. See LayeredLayout.h.
#include "viz/layout/LayeredLayout.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "viz/layout/LayeredGraph.h"
#include "viz/layout/LayoutFinish.h"

namespace fathom::viz {
namespace {

using layered::LayeredGraph;
using layered::Segment;

constexpr double kDummyWidth = 8;

bool cancelled(const CancelFlag* cancel) { return cancel && cancel->load(std::memory_order_relaxed); }

// A main-flow edge with its ends in layout direction (from < to), merged with its duplicates.
struct FlowEdge {
  int32_t from = 0, to = 0, weight = 0;
  bool reversed = false;
  std::vector<int32_t> chain;  // internal ids: from, dummies..., to; empty when Stubbed
};

// Classifies every edge (Dropped, Aside, or main flow) and merges main-flow duplicates.
// `flowOf[j]` is the FlowEdge of edge j, or -1.
std::vector<FlowEdge> classifyEdges(const LayoutGraph& g, Layout& out, std::vector<int32_t>& flowOf) {
  const auto n = static_cast<int32_t>(g.nodes.size());
  std::vector<std::pair<std::pair<int32_t, int32_t>, int32_t>> keyed;  // ((from, to), edge)
  flowOf.assign(g.edges.size(), -1);
  for (size_t j = 0; j < g.edges.size(); ++j) {
    const LayoutEdge& e = g.edges[j];
    RoutedEdge& r = out.edges[j];
    if (e.from < 0 || e.to < 0 || e.from >= n || e.to >= n || e.from == e.to) {
      r.route = EdgeRoute::Dropped;
    } else if (g.nodes[static_cast<size_t>(e.from)].aside || g.nodes[static_cast<size_t>(e.to)].aside) {
      r.route = EdgeRoute::Aside;
    } else {
      r.reversed = e.from > e.to;
      keyed.push_back({{std::min(e.from, e.to), std::max(e.from, e.to)}, static_cast<int32_t>(j)});
    }
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<FlowEdge> flows;
  for (size_t k = 0; k < keyed.size(); ++k) {
    const auto& [ends, j] = keyed[k];
    if (k == 0 || keyed[k - 1].first != ends) flows.push_back({ends.first, ends.second, 0, false, {}});
    flows.back().weight += std::max(1, g.edges[static_cast<size_t>(j)].weight);
    flowOf[static_cast<size_t>(j)] = static_cast<int32_t>(flows.size()) - 1;
  }
  return flows;
}

// Longest path from the sources (index order is a topological order once edges point from lower
// to higher index), sources pulled down above their highest user, isolated boxes in a grid.
std::vector<int32_t> assignLayers(const LayoutGraph& g, const std::vector<FlowEdge>& flows) {
  const size_t n = g.nodes.size();
  std::vector<int32_t> layer(n, 0), minSucc(n, std::numeric_limits<int32_t>::max());
  std::vector<uint8_t> hasPred(n, 0), hasSucc(n, 0);
  // flows are sorted by `from`, not `to`; the recurrence needs preds done first: sort by `to`.
  std::vector<int32_t> byTarget(flows.size());
  for (size_t k = 0; k < flows.size(); ++k) byTarget[k] = static_cast<int32_t>(k);
  std::sort(byTarget.begin(), byTarget.end(), [&](int32_t a, int32_t b) {
    return flows[static_cast<size_t>(a)].to < flows[static_cast<size_t>(b)].to;
  });
  for (int32_t k : byTarget) {
    const FlowEdge& f = flows[static_cast<size_t>(k)];
    layer[static_cast<size_t>(f.to)] = std::max(layer[static_cast<size_t>(f.to)], layer[static_cast<size_t>(f.from)] + 1);
    hasPred[static_cast<size_t>(f.to)] = 1;
    hasSucc[static_cast<size_t>(f.from)] = 1;
  }
  for (const FlowEdge& f : flows)
    minSucc[static_cast<size_t>(f.from)] = std::min(minSucc[static_cast<size_t>(f.from)], layer[static_cast<size_t>(f.to)]);
  std::vector<int32_t> isolated;
  for (size_t v = 0; v < n; ++v) {
    if (g.nodes[v].aside) continue;
    if (!hasPred[v] && hasSucc[v]) layer[v] = minSucc[v] - 1;
    if (!hasPred[v] && !hasSucc[v]) isolated.push_back(static_cast<int32_t>(v));
  }
  const auto perRow = static_cast<size_t>(std::max(4.0, std::ceil(std::sqrt(static_cast<double>(isolated.size())))));
  for (size_t k = 0; k < isolated.size(); ++k) layer[static_cast<size_t>(isolated[k])] = static_cast<int32_t>(k / perRow);
  return layer;
}

// Spreads the ends of the routes meeting a box along its top (incoming) or bottom (outgoing)
// side, in the order of where they come from, so edges do not all meet in one point.
void spreadPorts(const std::vector<Rect>& boxes, std::vector<std::vector<Point>*>& routes, const std::vector<int32_t>& boxOf,
                 bool atEnd) {
  std::vector<size_t> idx(routes.size());
  for (size_t k = 0; k < idx.size(); ++k) idx[k] = k;
  auto neighbourX = [&](size_t k) {
    const auto& p = *routes[k];
    return atEnd ? p[p.size() - 2].x : p[1].x;
  };
  std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
    if (boxOf[a] != boxOf[b]) return boxOf[a] < boxOf[b];
    return neighbourX(a) < neighbourX(b);
  });
  for (size_t s = 0; s < idx.size();) {
    size_t e = s;
    while (e < idx.size() && boxOf[idx[e]] == boxOf[idx[s]]) ++e;
    const Rect& box = boxes[static_cast<size_t>(boxOf[idx[s]])];
    const double count = static_cast<double>(e - s);
    for (size_t k = s; k < e; ++k) {
      auto& p = *routes[idx[k]];
      (atEnd ? p.back() : p.front()).x = box.x + box.width * (static_cast<double>(k - s) + 1) / (count + 1);
    }
    s = e;
  }
}

// The proper layered graph: real boxes first (internal[v] = position among non-aside boxes), then
// a dummy per layer crossed by each flow edge that is not Stubbed (recorded in its chain).
LayeredGraph buildLayered(const LayoutGraph& graph, const std::vector<int32_t>& layerOf, std::vector<FlowEdge>& flows,
                          int32_t maxSpan, std::vector<int32_t>& internal) {
  LayeredGraph lg;
  internal.assign(graph.nodes.size(), -1);
  for (size_t v = 0; v < graph.nodes.size(); ++v)
    if (!graph.nodes[v].aside) internal[v] = lg.addNode(layerOf[v], graph.nodes[v].width, graph.nodes[v].height, false);
  for (FlowEdge& f : flows) {
    const int32_t a = layerOf[static_cast<size_t>(f.from)], b = layerOf[static_cast<size_t>(f.to)];
    if (b - a > maxSpan) continue;  // Stubbed
    f.chain.push_back(internal[static_cast<size_t>(f.from)]);
    for (int32_t l = a + 1; l < b; ++l) f.chain.push_back(lg.addNode(l, kDummyWidth, 0, true));
    f.chain.push_back(internal[static_cast<size_t>(f.to)]);
    for (size_t k = 0; k + 1 < f.chain.size(); ++k) lg.segments.push_back({f.chain[k], f.chain[k + 1], f.weight});
  }
  lg.finishAdjacency();
  return lg;
}

// Boxes from x and the layers' tops; returns the leftmost box edge (0 when there is none).
double placeBoxes(const LayoutGraph& graph, const LayeredGraph& lg, const std::vector<int32_t>& internal,
                  const std::vector<double>& x, const std::vector<double>& layerTop, Layout& out) {
  double left = std::numeric_limits<double>::max();
  for (size_t v = 0; v < graph.nodes.size(); ++v) {
    if (internal[v] < 0) continue;
    const auto i = static_cast<size_t>(internal[v]);
    out.boxes[v] = {x[i] - lg.width[i] / 2, layerTop[static_cast<size_t>(lg.layer[i])], lg.width[i], lg.height[i]};
    left = std::min(left, out.boxes[v].x);
  }
  return left == std::numeric_limits<double>::max() ? 0 : left;
}

// Polylines through each chain's dummies (two points where the layer has height, so the line
// stays clear of the layer's boxes), ports spread, reversed edges turned back; Stubbed routes.
void routeFlows(const LayoutGraph& graph, const LayeredGraph& lg, const std::vector<FlowEdge>& flows,
                const std::vector<int32_t>& flowOf, const std::vector<double>& x, const std::vector<double>& layerTop,
                const std::vector<double>& layerHeight, Layout& out) {
  std::vector<std::vector<Point>> flowPoints(flows.size());
  std::vector<std::vector<Point>*> outgoing, incoming;
  std::vector<int32_t> outBox, inBox;
  for (size_t k = 0; k < flows.size(); ++k) {
    const FlowEdge& f = flows[k];
    if (f.chain.empty()) continue;
    auto& p = flowPoints[k];
    p.push_back(out.boxes[static_cast<size_t>(f.from)].bottomCenter());
    for (size_t c = 1; c + 1 < f.chain.size(); ++c) {
      const auto d = static_cast<size_t>(f.chain[c]);
      const auto l = static_cast<size_t>(lg.layer[d]);
      p.push_back({x[d], layerTop[l]});
      if (layerHeight[l] > 0) p.push_back({x[d], layerTop[l] + layerHeight[l]});
    }
    p.push_back(out.boxes[static_cast<size_t>(f.to)].topCenter());
    outgoing.push_back(&p);
    outBox.push_back(f.from);
    incoming.push_back(&p);
    inBox.push_back(f.to);
  }
  spreadPorts(out.boxes, outgoing, outBox, false);
  spreadPorts(out.boxes, incoming, inBox, true);
  for (size_t j = 0; j < graph.edges.size(); ++j) {
    if (flowOf[j] < 0) continue;
    RoutedEdge& r = out.edges[j];
    const auto& p = flowPoints[static_cast<size_t>(flowOf[j])];
    if (p.empty()) {
      r.route = EdgeRoute::Stubbed;
      continue;
    }
    r.route = EdgeRoute::Polyline;
    r.points = p;
    if (r.reversed) std::reverse(r.points.begin(), r.points.end());
  }
}

}  // namespace

Result<Layout> layeredLayout(const LayoutGraph& graph, const LayeredOptions& options, const CancelFlag* cancel) {
  const auto start = std::chrono::steady_clock::now();
  Layout out;
  out.engine = LayoutEngine::Layered;
  out.boxes.resize(graph.nodes.size());
  out.edges.resize(graph.edges.size());
  std::vector<int32_t> flowOf, internal;
  std::vector<FlowEdge> flows = classifyEdges(graph, out, flowOf);
  const std::vector<int32_t> layerOf = assignLayers(graph, flows);
  if (cancelled(cancel)) return cancelledError();
  LayeredGraph lg = buildLayered(graph, layerOf, flows, options.maxSpan, internal);
  layered::initialOrder(lg);
  const int64_t crossings = layered::minimizeCrossings(lg, options.sweeps, cancel);
  if (crossings < 0) return cancelledError();
  const std::vector<double> x = layered::assignCoordinates(lg, options.nodeSpacing, options.coordinatePasses);
  if (cancelled(cancel)) return cancelledError();

  std::vector<double> layerTop(static_cast<size_t>(lg.numLayers), 0), layerHeight(static_cast<size_t>(lg.numLayers), 0);
  for (int32_t v = 0; v < lg.size(); ++v) {
    double& h = layerHeight[static_cast<size_t>(lg.layer[static_cast<size_t>(v)])];
    h = std::max(h, lg.height[static_cast<size_t>(v)]);
  }
  for (size_t l = 1; l < layerTop.size(); ++l) layerTop[l] = layerTop[l - 1] + layerHeight[l - 1] + options.layerSpacing;
  const double mainLeft = placeBoxes(graph, lg, internal, x, layerTop, out);
  routeFlows(graph, lg, flows, flowOf, x, layerTop, layerHeight, out);
  placeAsideColumn(graph, out, mainLeft, options.asideGap, options.nodeSpacing / 2);
  normalizeLayout(out);
  out.crossings = crossings;
  out.layers = lg.numLayers;
  out.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace fathom::viz
