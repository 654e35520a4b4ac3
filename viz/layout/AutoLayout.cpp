// AutoLayout: the engine choice by size (AutoLayout.h).
#include "viz/layout/AutoLayout.h"

namespace fathom::viz {

LayoutEngine chooseEngine(const LayoutGraph& graph, const AutoLayoutOptions& options) {
  if (options.choice == EngineChoice::Layered || !graphvizAvailable()) return LayoutEngine::Layered;
  if (options.choice == EngineChoice::Graphviz) return LayoutEngine::Graphviz;
  int32_t boxes = 0;
  for (const LayoutNode& n : graph.nodes) boxes += n.aside ? 0 : 1;
  return boxes <= options.graphvizMaxNodes ? LayoutEngine::Graphviz : LayoutEngine::Layered;
}

Result<Layout> autoLayout(const LayoutGraph& graph, const AutoLayoutOptions& options, const CancelFlag* cancel) {
  if (chooseEngine(graph, options) == LayoutEngine::Graphviz) {
    auto layout = graphvizLayout(graph, options.graphviz, cancel);
    if (layout.ok() || isCancelled(layout.error())) return layout;
  }
  return layeredLayout(graph, options.layered, cancel);
}

}  // namespace fathom::viz
