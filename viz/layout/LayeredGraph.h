// LayeredGraph (internal to layout/): the proper layered graph LayeredLayout works on - real
// boxes and dummy points, each on one layer, every segment joining adjacent layers - and the
// steps that work on it. Adjacency is kept in CSR form (one array per direction), so sweeps over
// a million points stay cache-friendly.
#pragma once

#include <cstdint>
#include <vector>

#include "viz/layout/LayoutGraph.h"

namespace fathom::viz::layered {

struct Segment {
  int32_t upper = 0, lower = 0;  // internal node ids; layer(lower) == layer(upper) + 1
  int32_t weight = 1;
};

struct LayeredGraph {
  int32_t numLayers = 0;
  std::vector<int32_t> layer;      // per internal node
  std::vector<double> width, height;
  std::vector<uint8_t> dummy;      // 1 for a dummy point
  std::vector<Segment> segments;
  // CSR: neighbours in the layer above (up) and below (down), with the segment's weight.
  std::vector<int32_t> upStart, up, upWeight, downStart, down, downWeight;
  std::vector<std::vector<int32_t>> order;  // per layer: internal nodes left to right
  std::vector<int32_t> pos;                 // per internal node: index in its layer's order

  int32_t size() const { return static_cast<int32_t>(layer.size()); }
  int32_t addNode(int32_t onLayer, double w, double h, bool isDummy);
  // Builds the CSR arrays from `segments`.
  void finishAdjacency();
  void refreshPositions();
};

// Crossings between every pair of adjacent layers for the current order (Barth, Juenger and
// Mutzel's accumulator tree): O(S log V).
int64_t countCrossings(const LayeredGraph& g);
// Depth-first discovery order from the sources, layer by layer.
void initialOrder(LayeredGraph& g);
// Barycenter sweeps (down then up, `sweeps` times); keeps the order with the fewest crossings and
// returns that count, or -1 when cancelled.
int64_t minimizeCrossings(LayeredGraph& g, int sweeps, const CancelFlag* cancel);
// Centre x per internal node: order kept, spacing kept, neighbours aligned (see LayeredLayout.h).
std::vector<double> assignCoordinates(const LayeredGraph& g, double spacing, int passes);

}  // namespace fathom::viz::layered
