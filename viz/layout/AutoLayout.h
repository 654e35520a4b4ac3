// AutoLayout: picks the engine for one LayoutGraph - Graphviz dot for small graphs (nicer
// splines, fewer crossings) when it is built in, the layered layout otherwise.
//
// The threshold is measured (tests/bench/VizLayoutBench.cpp, NN-like DAGs, this 2-core machine
// under load, one run each):
//   boxes            100     200     300     400     500     1,000   2,000
//   dot              15 ms   20 ms   34 ms   63 ms   98 ms   592 ms  3.6 s
//   layered          0.2 ms  0.6 ms  0.9 ms  1.2 ms  1.6 ms  3.2 ms  6.8 ms
//   drawn crossings  74/117  196/290 251/365 348/465 409/564 823/1119 1749/2385 (dot/layered)
// dot draws ~30% fewer crossings at every size, but grows as ~n^2.5. Up to 200 boxes one dot
// job costs <= ~20 ms, so an expansion that re-lays out a group and 2-3 ancestors stays well
// under 100 ms; past that the layered layout is 30-500x faster for ~1.4x the crossings.
#pragma once

#include "viz/layout/GraphvizLayout.h"
#include "viz/layout/LayeredLayout.h"

namespace fathom::viz {

// Above this many boxes (aside ones excluded) AutoLayout uses the layered layout.
inline constexpr int32_t kGraphvizMaxNodes = 200;

enum class EngineChoice : uint8_t { Auto, Layered, Graphviz };

struct AutoLayoutOptions {
  EngineChoice choice = EngineChoice::Auto;
  int32_t graphvizMaxNodes = kGraphvizMaxNodes;
  LayeredOptions layered;
  GraphvizOptions graphviz;
};

// The engine `autoLayout` would use for `graph`.
LayoutEngine chooseEngine(const LayoutGraph& graph, const AutoLayoutOptions& options = {});
// Lays `graph` out with the chosen engine; a Graphviz failure falls back to the layered layout.
Result<Layout> autoLayout(const LayoutGraph& graph, const AutoLayoutOptions& options = {},
                          const CancelFlag* cancel = nullptr);

}  // namespace fathom::viz
