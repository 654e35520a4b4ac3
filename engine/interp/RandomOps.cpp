#include "engine/interp/RandomOps.h"

namespace fathom {

bool isRandomOp(const Node& node) { return tagsOf(node).has(OpTag::Random); }

std::vector<char> dependsOnRandom(const Graph& graph) {
  const auto& nodes = graph.nodes();
  std::vector<char> random(nodes.size(), 0);
  for (size_t i = 0; i < nodes.size(); ++i) {  // nodes are in topological order
    if (isRandomOp(nodes[i])) random[i] = 1;
    forEachNodeRef(nodes[i], [&](NodeRef r) { random[i] = random[i] || random[static_cast<size_t>(r.index)]; });
  }
  return random;
}

}  // namespace fathom
