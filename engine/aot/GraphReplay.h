// Runs a graph through the frontend, op by op (frontend::callOp), instead of the interpreter:
// eagerly the autograd engine records every op, so the graph gets the eager reference's
// gradients; under a live trace it is traced again (and the backward with it). This is how a
// dump's forward graph - one Fathom traced, or one exported from PyTorch - gets its eager
// autograd reference.
#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include "engine/core/Result.h"
#include "engine/frontend/TensorHandle.h"
#include "engine/graph/Graph.h"

namespace fathom::aot {

// One input: a tensor, or a size for a SymInt placeholder (torch 2.x's dynamic graphs).
using ReplayInput = std::variant<frontend::Tensor, int64_t>;

// The graph's outputs (tensors; a None output is an undefined tensor). Errors name the node.
Result<std::vector<frontend::Tensor>> replayGraph(const Graph& graph, const std::vector<ReplayInput>& inputs);

}  // namespace fathom::aot
