#include "engine/interp/RandomOps.h"

#include "engine/graph/Downstream.h"

namespace fathom {

bool isRandomOp(const Node& node) { return tagsOf(node).has(OpTag::Random); }

std::vector<char> dependsOnRandom(const Graph& graph) { return downstreamOf(graph, isRandomOp); }

}  // namespace fathom
