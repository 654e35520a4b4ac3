// The ordering half of the layered layout: the layered graph's bookkeeping, crossing counting,
// the initial order and the barycenter sweeps (LayeredGraph.h).
#include <algorithm>
#include <numeric>

#include "viz/layout/LayeredGraph.h"

namespace fathom::viz::layered {

int32_t LayeredGraph::addNode(int32_t onLayer, double w, double h, bool isDummy) {
  layer.push_back(onLayer);
  width.push_back(w);
  height.push_back(h);
  dummy.push_back(isDummy ? 1 : 0);
  numLayers = std::max(numLayers, onLayer + 1);
  return size() - 1;
}

void LayeredGraph::finishAdjacency() {
  const size_t n = layer.size();
  upStart.assign(n + 1, 0);
  downStart.assign(n + 1, 0);
  for (const Segment& s : segments) {
    ++upStart[static_cast<size_t>(s.lower) + 1];
    ++downStart[static_cast<size_t>(s.upper) + 1];
  }
  for (size_t i = 0; i < n; ++i) {
    upStart[i + 1] += upStart[i];
    downStart[i + 1] += downStart[i];
  }
  up.assign(segments.size(), 0);
  upWeight.assign(segments.size(), 0);
  down.assign(segments.size(), 0);
  downWeight.assign(segments.size(), 0);
  std::vector<int32_t> u(upStart.begin(), upStart.end() - 1), d(downStart.begin(), downStart.end() - 1);
  for (const Segment& s : segments) {
    const auto ui = static_cast<size_t>(u[static_cast<size_t>(s.lower)]++);
    up[ui] = s.upper;
    upWeight[ui] = s.weight;
    const auto di = static_cast<size_t>(d[static_cast<size_t>(s.upper)]++);
    down[di] = s.lower;
    downWeight[di] = s.weight;
  }
}

void LayeredGraph::refreshPositions() {
  pos.assign(layer.size(), 0);
  for (const auto& row : order)
    for (size_t i = 0; i < row.size(); ++i) pos[static_cast<size_t>(row[i])] = static_cast<int32_t>(i);
}

namespace {

// Inversions among the lower ends of the segments between `upperLayer` and the layer below,
// taken in (upper position, lower position) order.
int64_t crossingsBelow(const LayeredGraph& g, int32_t upperLayer, std::vector<std::pair<int32_t, int32_t>>& scratch,
                       std::vector<int64_t>& tree) {
  scratch.clear();
  for (int32_t v : g.order[static_cast<size_t>(upperLayer)])
    for (int32_t k = g.downStart[static_cast<size_t>(v)]; k < g.downStart[static_cast<size_t>(v) + 1]; ++k)
      scratch.emplace_back(g.pos[static_cast<size_t>(v)], g.pos[static_cast<size_t>(g.down[static_cast<size_t>(k)])]);
  if (scratch.size() < 2) return 0;
  std::sort(scratch.begin(), scratch.end());
  const size_t m = g.order[static_cast<size_t>(upperLayer) + 1].size();
  tree.assign(m + 1, 0);  // Fenwick tree over lower positions
  int64_t crossings = 0, seen = 0;
  for (const auto& [upper, lower] : scratch) {
    // Segments seen so far ending strictly right of `lower` cross this one.
    int64_t atMost = 0;
    for (size_t i = static_cast<size_t>(lower) + 1; i > 0; i -= i & (~i + 1)) atMost += tree[i];
    crossings += seen - atMost;
    for (size_t i = static_cast<size_t>(lower) + 1; i <= m; i += i & (~i + 1)) ++tree[i];
    ++seen;
  }
  return crossings;
}

}  // namespace

int64_t countCrossings(const LayeredGraph& g) {
  std::vector<std::pair<int32_t, int32_t>> scratch;
  std::vector<int64_t> tree;
  int64_t total = 0;
  for (int32_t l = 0; l + 1 < g.numLayers; ++l) total += crossingsBelow(g, l, scratch, tree);
  return total;
}

void initialOrder(LayeredGraph& g) {
  g.order.assign(static_cast<size_t>(g.numLayers), {});
  std::vector<uint8_t> seen(g.layer.size(), 0);
  std::vector<int32_t> stack;
  // Roots in index order (real nodes come first and in graph order); a node is placed when it is
  // first reached, so a chain of dummies follows its source and siblings stay side by side.
  for (int32_t root = 0; root < g.size(); ++root) {
    if (seen[static_cast<size_t>(root)] || g.upStart[static_cast<size_t>(root)] != g.upStart[static_cast<size_t>(root) + 1])
      continue;
    stack.push_back(root);
    while (!stack.empty()) {
      const int32_t v = stack.back();
      stack.pop_back();
      if (seen[static_cast<size_t>(v)]) continue;
      seen[static_cast<size_t>(v)] = 1;
      g.order[static_cast<size_t>(g.layer[static_cast<size_t>(v)])].push_back(v);
      for (int32_t k = g.downStart[static_cast<size_t>(v) + 1]; k > g.downStart[static_cast<size_t>(v)]; --k) {
        const int32_t w = g.down[static_cast<size_t>(k) - 1];
        if (!seen[static_cast<size_t>(w)]) stack.push_back(w);
      }
    }
  }
  for (int32_t v = 0; v < g.size(); ++v)  // unreachable from a source: cannot happen in a DAG
    if (!seen[static_cast<size_t>(v)]) g.order[static_cast<size_t>(g.layer[static_cast<size_t>(v)])].push_back(v);
  g.refreshPositions();
}

namespace {

// Orders layer `l` by the weighted mean position of each node's neighbours in the adjacent layer
// (`useUp`: the layer above). Nodes without such neighbours keep their position.
void sortByBarycenter(LayeredGraph& g, int32_t l, bool useUp, std::vector<std::pair<double, int32_t>>& keyed) {
  auto& row = g.order[static_cast<size_t>(l)];
  keyed.clear();
  const auto& start = useUp ? g.upStart : g.downStart;
  const auto& adj = useUp ? g.up : g.down;
  const auto& weight = useUp ? g.upWeight : g.downWeight;
  for (size_t i = 0; i < row.size(); ++i) {
    const auto v = static_cast<size_t>(row[i]);
    double sum = 0, total = 0;
    for (int32_t k = start[v]; k < start[v + 1]; ++k) {
      sum += weight[static_cast<size_t>(k)] * static_cast<double>(g.pos[static_cast<size_t>(adj[static_cast<size_t>(k)])]);
      total += weight[static_cast<size_t>(k)];
    }
    // Scale positions of both layers to [0, 1) so layers of different widths compare.
    const double adjacentSize = static_cast<double>(g.order[static_cast<size_t>(useUp ? l - 1 : l + 1)].size());
    const double key = total > 0 ? (sum / total + 0.5) / adjacentSize
                                 : (static_cast<double>(i) + 0.5) / static_cast<double>(row.size());
    keyed.emplace_back(key, row[i]);
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < row.size(); ++i) {
    row[i] = keyed[i].second;
    g.pos[static_cast<size_t>(row[i])] = static_cast<int32_t>(i);
  }
}

// Crossings between the segments of u and those of v (both in one layer, u left of v) on the side
// given by start/adj: pairs whose other ends are in the opposite order.
int64_t pairCrossings(const LayeredGraph& g, int32_t u, int32_t v, const std::vector<int32_t>& start,
                      const std::vector<int32_t>& adj) {
  int64_t c = 0;
  for (int32_t a = start[static_cast<size_t>(u)]; a < start[static_cast<size_t>(u) + 1]; ++a)
    for (int32_t b = start[static_cast<size_t>(v)]; b < start[static_cast<size_t>(v) + 1]; ++b)
      c += g.pos[static_cast<size_t>(adj[static_cast<size_t>(a)])] > g.pos[static_cast<size_t>(adj[static_cast<size_t>(b)])];
  return c;
}

// Greedy adjacent exchanges (dot's "transpose"): swaps neighbours in a layer while that lowers
// the crossings on both sides. Pairs with many segments are skipped (cost deg(u) * deg(v)).
bool transpose(LayeredGraph& g) {
  bool improved = false;
  for (int32_t l = 0; l < g.numLayers; ++l) {
    auto& row = g.order[static_cast<size_t>(l)];
    for (size_t i = 0; i + 1 < row.size(); ++i) {
      const int32_t u = row[i], v = row[i + 1];
      const auto du = static_cast<int64_t>(g.upStart[static_cast<size_t>(u) + 1] - g.upStart[static_cast<size_t>(u)] +
                                           g.downStart[static_cast<size_t>(u) + 1] - g.downStart[static_cast<size_t>(u)]);
      const auto dv = static_cast<int64_t>(g.upStart[static_cast<size_t>(v) + 1] - g.upStart[static_cast<size_t>(v)] +
                                           g.downStart[static_cast<size_t>(v) + 1] - g.downStart[static_cast<size_t>(v)]);
      if (du * dv > 256 || du * dv == 0) continue;
      const int64_t now = pairCrossings(g, u, v, g.upStart, g.up) + pairCrossings(g, u, v, g.downStart, g.down);
      const int64_t swapped = pairCrossings(g, v, u, g.upStart, g.up) + pairCrossings(g, v, u, g.downStart, g.down);
      if (swapped < now) {
        std::swap(row[i], row[i + 1]);
        g.pos[static_cast<size_t>(u)] = static_cast<int32_t>(i + 1);
        g.pos[static_cast<size_t>(v)] = static_cast<int32_t>(i);
        improved = true;
      }
    }
  }
  return improved;
}

}  // namespace

int64_t minimizeCrossings(LayeredGraph& g, int sweeps, const CancelFlag* cancel) {
  int64_t best = countCrossings(g);
  auto bestOrder = g.order;
  std::vector<std::pair<double, int32_t>> keyed;
  for (int s = 0; s < sweeps && best > 0; ++s) {
    if (cancel && cancel->load(std::memory_order_relaxed)) return -1;
    for (int32_t l = 1; l < g.numLayers; ++l) sortByBarycenter(g, l, true, keyed);
    for (int32_t l = g.numLayers - 2; l >= 0; --l) sortByBarycenter(g, l, false, keyed);
    for (int t = 0; t < 4 && transpose(g); ++t) {
    }
    const int64_t c = countCrossings(g);
    if (c < best) {
      best = c;
      bestOrder = g.order;
    }
  }
  g.order = std::move(bestOrder);
  g.refreshPositions();
  return best;
}

}  // namespace fathom::viz::layered
