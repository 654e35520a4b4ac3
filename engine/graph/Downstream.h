// Which nodes a set of nodes feeds: node i is marked when `seed(node i)` holds or one of its
// arguments is marked. Nodes are in topological order, so one pass decides. Used for values
// computed from random draws (interp/RandomOps) and from opaque nodes' stand-ins
// (interp/RecordedComparison).
#pragma once

#include <functional>
#include <vector>

#include "engine/graph/Graph.h"

namespace fathom {

inline std::vector<char> downstreamOf(const Graph& graph, const std::function<bool(const Node&)>& seed) {
  const auto& nodes = graph.nodes();
  std::vector<char> marked(nodes.size(), 0);
  for (size_t i = 0; i < nodes.size(); ++i) {
    marked[i] = seed(nodes[i]);
    forEachNodeRef(nodes[i], [&](NodeRef r) { marked[i] = marked[i] || marked[static_cast<size_t>(r.index)]; });
  }
  return marked;
}

}  // namespace fathom
