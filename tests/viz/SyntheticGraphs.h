// Synthetic graphs for the viz tests and benchmarks: NN-like DAGs (every node reads 1-3 recent
// nodes, as traced networks do) as LayoutGraphs, and as engine Graphs made of repeated
// transformer-like blocks, with or without module paths.
#pragma once

#include <cstdint>

#include "engine/graph/Graph.h"
#include "viz/layout/LayoutGraph.h"

namespace fathom::viz::testing {

// `n` boxes, node i reading 1-3 of the 8 nodes before it; deterministic for a seed.
LayoutGraph nnLikeDag(int32_t n, uint64_t seed = 1);

// A graph of placeholders (parameters, each used by one block; one input used by every block)
// and `blocks` blocks of ~`blockSize` calls with a residual stream; call nodes carry module
// paths "layers.K.part" when `modules`. Names are unique; not meant to run (ops are unresolved).
Graph repeatedBlockGraph(int32_t blocks, int32_t blockSize, bool modules, uint64_t seed = 1);

}  // namespace fathom::viz::testing
