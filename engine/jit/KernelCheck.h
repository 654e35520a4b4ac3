// Kernel-by-kernel debugging of a jit-compiled graph: the eager interpreter runs the graph and
// keeps every value; then each generated kernel runs alone on the eager values of its inputs,
// and its outputs are compared with the eager values of the same nodes (layout exactly, values
// within tolerance). Run on eager inputs, a kernel that diverges is where the bug is - not a
// kernel downstream of one that went wrong - as the debug interpreter tells an origin mismatch
// from an inherited one. The first divergence in plan order names the kernel and its nodes.
//
//   auto report = checkKernels(graph, inputs, {});
//   if (report->firstDivergence()) ... kernel, nodes, value, field, expected/actual
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "engine/graph/Graph.h"
#include "engine/jit/CompiledGraph.h"

namespace fathom {

struct KernelDivergence {
  std::string kernel;              // "pointwise_3"
  std::vector<std::string> nodes;  // the nodes it computes
  std::string value;               // the output node that differs
  std::string field;               // "dtype", "sizes", "strides", "values"
  std::string expected, actual;    // the eager value's and the kernel's ("[4, 3]", "max |diff| 2.1 ...")
  double maxAbsDiff = 0, scale = 0;
};

struct KernelCheckOptions {
  JitOptions jit;
  double rtol = 1e-4, atol = 1e-5;
};

struct KernelCheckReport {
  int64_t kernels = 0;    // in the plan
  int64_t generated = 0;  // run and compared
  std::vector<KernelDivergence> divergences;  // in plan order
  const KernelDivergence* firstDivergence() const { return divergences.empty() ? nullptr : &divergences.front(); }
};

Result<KernelCheckReport> checkKernels(const Graph& graph, const ValueList& inputs, KernelCheckOptions options = {});

// "kernel pointwise_3 (%add, %mul) diverges first: %mul values: max |diff| 1.2 (largest |x| 3.4)"
std::string divergenceText(const KernelDivergence& d);

}  // namespace fathom
