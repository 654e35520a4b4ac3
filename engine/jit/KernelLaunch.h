// launchKernel: one generated kernel run on real values - its parameters evaluated under the
// bound symbols, its outputs allocated with their recorded layout (what the code was told it
// writes), its inputs passed as data pointers (read with the recorded strides), the outer loop
// split over the thread pool. The jit runtime calls it in plan order; the kernel-by-kernel check
// calls it on the eager interpreter's values, one kernel at a time.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "engine/compile/KernelIR.h"
#include "engine/compile/KernelJit.h"
#include "engine/core/Result.h"
#include "engine/graph/Graph.h"
#include "engine/interp/SymbolBinding.h"
#include "engine/tensor/Tensor.h"

namespace fathom {

// The value of a graph node (by name) as the caller holds it; null when it has none.
using ValueByName = std::function<const Value*(const std::string& node)>;

// Each output buffer's value, by node name, in buffer order. `graph` holds the nodes the kernel
// names (for the outputs' recorded meta).
Result<std::vector<std::pair<std::string, Tensor>>> launchKernel(const LoweredKernel& kernel, KernelFn fn,
                                                                  const Graph& graph, const SymbolBinding& binding,
                                                                  const ValueByName& valueOf);

}  // namespace fathom
