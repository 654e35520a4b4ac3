// Ops that draw random numbers. Fathom's generator is not PyTorch's, so their values (and those
// of everything computed from them) can be compared in layout only.
#pragma once

#include <string_view>
#include <vector>

#include "engine/graph/Graph.h"

namespace fathom {

// Tagged Random (engine/ops/OpTags.h), registered or not.
bool isRandomOp(const Node& node);

// Per node: does its value depend on a random op (the op itself included)?
std::vector<char> dependsOnRandom(const Graph& graph);

}  // namespace fathom
