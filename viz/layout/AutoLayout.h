// AutoLayout: picks the engine for one LayoutGraph - Graphviz dot for small graphs (nicer
// splines, fewer crossings) when it is built in, the layered layout otherwise.
//
// The threshold is measured (tests/bench/VizLayoutBench.cpp): dot's time grows superlinearly
// and passes an interactive budget at a few hundred nodes; see kGraphvizMaxNodes.
#pragma once

#include "viz/layout/GraphvizLayout.h"
#include "viz/layout/LayeredLayout.h"

namespace fathom::viz {

// Above this many boxes (aside ones excluded) AutoLayout uses the layered layout.
inline constexpr int32_t kGraphvizMaxNodes = 150;

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
