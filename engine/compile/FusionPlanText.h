// The text of a fusion plan, as `fathom show DUMP --kernels` prints it: one line per kernel
//   pointwise_3  pointwise  4 nodes  add_1, mul, ... relu  [2, 16, 768]
// then the summary line
//   12 kernels: 3 pointwise fused from 9 ops, 2 reduction from 5 ops, 2 row-local, 5 extern
#pragma once

#include <string>
#include <vector>

#include "engine/compile/FusionPlan.h"

namespace fathom {

// The names of a kernel's nodes, the first two, "..." and the last when there are more than four.
std::string abbreviatedNodeNames(const Graph& graph, const FusedKernel& kernel);
std::string fusionSummaryLine(const FusionSummary& summary);
// `notes`, when given, end each kernel's line (what the code generator made of it).
std::string printFusionPlan(const Graph& graph, const FusionPlan& plan, const std::vector<std::string>& notes = {});

}  // namespace fathom
