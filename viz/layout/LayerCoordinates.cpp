// The coordinate half of the layered layout: x per box and dummy point, with the layer order and
// spacing as hard constraints and "sit under/over your neighbours" as the objective.
//
// One layer at a time, with the adjacent layer fixed: each node wants x = d (the weighted mean x
// of its neighbours there). With o_i the tightest packing offsets (o_0 = 0, o_i = o_{i-1} +
// (w_{i-1} + w_i) / 2 + spacing), the constraint x_{i+1} - x_i >= o_{i+1} - o_i is y_{i+1} >= y_i
// for y_i = x_i - o_i, so minimising sum W_i (x_i - d_i)^2 is weighted isotonic regression of
// d_i - o_i, solved exactly in O(layer size) by pooling adjacent violators.
#include <algorithm>

#include "viz/layout/LayeredGraph.h"

namespace fathom::viz::layered {
namespace {

struct Block {
  double weight = 0, weightedSum = 0;
  int32_t count = 0;
  double mean() const { return weightedSum / weight; }
};

// The gap between neighbours a and b of one layer: dummy points (edges passing through) pack
// tighter than boxes.
double gapBetween(const LayeredGraph& g, int32_t a, int32_t b, double spacing) {
  const bool bothDummies = g.dummy[static_cast<size_t>(a)] && g.dummy[static_cast<size_t>(b)];
  return (g.width[static_cast<size_t>(a)] + g.width[static_cast<size_t>(b)]) / 2 + (bothDummies ? spacing * 0.35 : spacing);
}

// Dummy chains weigh more, so long edges stay straight and boxes move around them.
double segmentFactor(const LayeredGraph& g, int32_t a, int32_t b) {
  const int dummies = g.dummy[static_cast<size_t>(a)] + g.dummy[static_cast<size_t>(b)];
  return dummies == 2 ? 8.0 : dummies == 1 ? 2.0 : 1.0;
}

void placeLayer(const LayeredGraph& g, int32_t l, bool useUp, bool useDown, double spacing, std::vector<double>& x,
                std::vector<double>& target, std::vector<double>& weight, std::vector<Block>& blocks) {
  const auto& row = g.order[static_cast<size_t>(l)];
  const size_t m = row.size();
  target.assign(m, 0);
  weight.assign(m, 0);
  double offset = 0;
  for (size_t i = 0; i < m; ++i) {
    const auto v = static_cast<size_t>(row[i]);
    if (i > 0) offset += gapBetween(g, row[i - 1], row[i], spacing);
    double sum = 0, total = 0;
    auto gather = [&](const std::vector<int32_t>& start, const std::vector<int32_t>& adj, const std::vector<int32_t>& w) {
      for (int32_t k = start[v]; k < start[v + 1]; ++k) {
        const int32_t u = adj[static_cast<size_t>(k)];
        const double f = segmentFactor(g, row[i], u) * std::min(w[static_cast<size_t>(k)], 4);
        sum += f * x[static_cast<size_t>(u)];
        total += f;
      }
    };
    if (useUp) gather(g.upStart, g.up, g.upWeight);
    if (useDown) gather(g.downStart, g.down, g.downWeight);
    const double desired = total > 0 ? sum / total : x[v];
    target[i] = desired - offset;
    weight[i] = total > 0 ? total : 1e-3;
  }
  blocks.clear();
  for (size_t i = 0; i < m; ++i) {
    blocks.push_back({weight[i], weight[i] * target[i], 1});
    while (blocks.size() > 1 && blocks[blocks.size() - 2].mean() >= blocks.back().mean()) {
      Block top = blocks.back();
      blocks.pop_back();
      blocks.back().weight += top.weight;
      blocks.back().weightedSum += top.weightedSum;
      blocks.back().count += top.count;
    }
  }
  size_t i = 0;
  offset = 0;
  for (const Block& b : blocks) {
    const double y = b.mean();
    for (int32_t k = 0; k < b.count; ++k, ++i) {
      if (i > 0) offset += gapBetween(g, row[i - 1], row[i], spacing);
      x[static_cast<size_t>(row[i])] = y + offset;
    }
  }
}

}  // namespace

std::vector<double> assignCoordinates(const LayeredGraph& g, double spacing, int passes) {
  std::vector<double> x(g.layer.size(), 0);
  for (const auto& row : g.order) {  // tightly packed, left-aligned
    double at = 0;
    for (size_t i = 0; i < row.size(); ++i) {
      if (i > 0) at += gapBetween(g, row[i - 1], row[i], spacing);
      x[static_cast<size_t>(row[i])] = at;
    }
  }
  std::vector<double> target, weight;
  std::vector<Block> blocks;
  for (int p = 0; p < passes; ++p) {
    for (int32_t l = 1; l < g.numLayers; ++l) placeLayer(g, l, true, false, spacing, x, target, weight, blocks);
    for (int32_t l = g.numLayers - 2; l >= 0; --l) placeLayer(g, l, false, true, spacing, x, target, weight, blocks);
  }
  // A last pass against both neighbours, so neither direction has the final word.
  for (int32_t l = 0; l < g.numLayers; ++l) placeLayer(g, l, true, true, spacing, x, target, weight, blocks);
  return x;
}

}  // namespace fathom::viz::layered
