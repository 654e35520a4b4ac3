#include "engine/interp/RandomOps.h"

namespace fathom {

bool isRandomOp(std::string_view op) {
  return op == "aten.native_dropout.default" || op == "aten.bernoulli_.float" || op == "aten.bernoulli.default" ||
         op == "aten.rand_like.default" || op == "aten.randn_like.default";
}

std::vector<char> dependsOnRandom(const Graph& graph) {
  const auto& nodes = graph.nodes();
  std::vector<char> random(nodes.size(), 0);
  for (size_t i = 0; i < nodes.size(); ++i) {  // nodes are in topological order
    if (nodes[i].kind == NodeKind::Call && isRandomOp(nodes[i].target)) random[i] = 1;
    forEachNodeRef(nodes[i], [&](NodeRef r) { random[i] = random[i] || random[static_cast<size_t>(r.index)]; });
  }
  return random;
}

}  // namespace fathom
