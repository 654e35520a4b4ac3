// graphInPlanOrder: the graph with its call nodes in the order the fusion plan runs them (each
// kernel's nodes together, kernels in plan order), placeholders first and the output last, every
// reference renumbered. The jit runtime walks it as an interpreter walks a graph.
#pragma once

#include "engine/compile/FusionPlan.h"
#include "engine/core/Result.h"
#include "engine/graph/Graph.h"

namespace fathom {

Result<Graph> graphInPlanOrder(const Graph& graph, const FusionPlan& plan);

}  // namespace fathom
