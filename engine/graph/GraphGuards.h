// The guards of a traced graph, read from the graph itself: its placeholders' recorded sizes
// (symbolic or concrete) compiled with the env's guards into the GuardSet a cache entry checks,
// and the concrete sizes a call presents. Used by the guarded cache (`fathom trace --calls`), the
// guard analyses and the minifier's guard predicate.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/Result.h"
#include "engine/graph/ExampleInput.h"
#include "engine/graph/Graph.h"
#include "engine/symbolic/GuardSet.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom {

// A traced graph's placeholders with their recorded sizes (symbolic or concrete).
Result<std::vector<sym::GuardedInput>> guardedInputsOf(const Graph& graph);
// The guard set of a traced graph: its placeholders' recorded sizes and the env's guards.
Result<sym::GuardSet> guardSetOf(const Graph& graph, const sym::ShapeEnv& env);
// The sizes of a graph's placeholders as a call would present them (from example inputs).
std::vector<std::vector<int64_t>> inputSizes(const std::vector<ExampleInput>& inputs);

}  // namespace fathom
