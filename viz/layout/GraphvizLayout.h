// GraphvizLayout: Graphviz `dot` run in-process through libgvc, for small graphs (it is
// superlinear: ~0.14 s at 500 nodes, 3.7 s at 2,000, 123 s at 10,000 - PLATFORM.md).
//
// Graphviz is not thread-safe: every call holds one process-wide mutex, so concurrent callers
// wait their turn. Its headers never leave GraphvizLayout.cpp. dot cannot be interrupted: the
// cancel flag is checked before and after it runs. Aside nodes and edges are handled as by
// LayeredLayout (a column left of the flow, Aside routes); no edge is Stubbed.
// Bezier splines are flattened into polylines (a few points per curve).
#pragma once

#include "viz/layout/LayoutGraph.h"

namespace fathom::viz {

struct GraphvizOptions {
  double nodeSpacing = 24;   // nodesep, in pixels
  double layerSpacing = 36;  // ranksep, in pixels
  double nslimit = 0;        // > 0: dot's nslimit/nslimit1 (faster network simplex, rougher)
  double asideGap = 60;
};

// False when this build has no Graphviz (FATHOM_WITH_GVC off): graphvizLayout then fails.
bool graphvizAvailable();

Result<Layout> graphvizLayout(const LayoutGraph& graph, const GraphvizOptions& options = {},
                              const CancelFlag* cancel = nullptr);

}  // namespace fathom::viz
