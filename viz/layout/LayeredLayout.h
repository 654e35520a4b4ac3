// LayeredLayout: a near-linear layered (Sugiyama-style) layout for graphs of any size - the
// approach of HotSpot's Ideal Graph Visualizer and SpiderMonkey's iongraph, written afresh.
//
// Steps (V nodes, E edges, D dummy points):
//   1. Cycles: an edge from a later node to an earlier one (in index order, which callers give in
//      graph order) is reversed for the layout and marked `reversed`. In a DAG given in
//      topological order nothing is reversed.
//   2. Layering, O(V + E): longest path from the sources, then every source is pulled down to
//      just above its highest user (placeholders sit next to where they are used). Aside nodes
//      and their edges take no part.
//   3. Long edges: an edge spanning k > 1 layers gets k - 1 dummy points, unless k > maxSpan:
//      then it is Stubbed (no dummies, no polyline; labelled stubs at both ends).
//   4. Ordering: initial order by depth-first discovery from the sources; then `sweeps` down+up
//      sweeps, each node ordered by the barycenter of its neighbours in the layer just fixed;
//      crossings counted after each sweep (accumulator tree, O(E' log V)) and the best order kept.
//      O(V + D + E') per sweep plus the sorts within layers.
//   5. Coordinates: per layer, x positions that minimise the weighted squared distance to the
//      neighbours' mean x, subject to the order and the spacing (isotonic regression by pool
//      adjacent violators, O(layer size)); alternating down and up passes; dummy chains weigh
//      more, so long edges run straight. Boxes in one layer never overlap by construction.
//   6. Routes: source bottom centre, dummy points, target top centre. Aside nodes go in a column
//      left of the main flow, each level with its first user, stacked without overlap.
#pragma once

#include "viz/layout/LayoutGraph.h"

namespace fathom::viz {

struct LayeredOptions {
  double nodeSpacing = 24;   // horizontal gap between boxes of one layer
  double layerSpacing = 36;  // vertical gap between layers
  int sweeps = 4;            // barycenter down+up sweep pairs
  int coordinatePasses = 4;  // down+up coordinate passes
  int32_t maxSpan = 24;      // edges spanning more layers are Stubbed
  double asideGap = 60;      // between the aside column and the main flow
};

Result<Layout> layeredLayout(const LayoutGraph& graph, const LayeredOptions& options = {},
                             const CancelFlag* cancel = nullptr);

}  // namespace fathom::viz
