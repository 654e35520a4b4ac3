// launchKernel: one generated kernel run on real values - its parameters evaluated under the
// bound symbols, its outputs allocated with their recorded layout (what the code was told it
// writes), its inputs passed as data pointers (read with the recorded strides), the outer loop
// split over the thread pool. The jit runtime calls it in plan order; the kernel-by-kernel check
// calls it on the eager interpreter's values, one kernel at a time.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
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

// Output buffers kept from one run of a compiled graph for the next. A big fresh buffer costs a
// page fault per 4 KB on first touch - as much as the kernel's own work for a pointwise chain -
// so a kernel output whose previous buffer nobody holds any more (the caller dropped it) and
// whose layout is the same writes into that buffer again. At most `limitBytes` are kept.
class OutputPool {
 public:
  explicit OutputPool(int64_t limitBytes = int64_t{1} << 30) : limit_(limitBytes) {}
  // A tensor of this layout for node `name`: the kept one when free, else a new one (kept when
  // it is big enough to matter and under the limit).
  Result<Tensor> take(const std::string& name, const IntList& sizes, const IntList& strides, DType dtype);

 private:
  int64_t limit_, kept_ = 0;
  std::unordered_map<std::string, Tensor> buffers_;
};

// What one run of a kernel takes: a tensor per kernel buffer (inputs: the caller's values;
// outputs: fresh, with their recorded layout), the runtime parameters by slot, and the extent
// of the outermost loop. The CPU launch below and a CUDA launch (CudaKernel::run) both take it.
struct KernelArgs {
  std::vector<Tensor> buffers;
  std::vector<int64_t> params;
  std::vector<std::pair<std::string, Tensor>> outputs;  // the output buffers, by node name
  int64_t outer = 0;
};
Result<KernelArgs> kernelArgs(const LoweredKernel& kernel, const Graph& graph, const SymbolBinding& binding,
                              const ValueByName& valueOf, OutputPool* pool = nullptr);

// Each output buffer's value, by node name, in buffer order. `graph` holds the nodes the kernel
// names (for the outputs' recorded meta).
Result<std::vector<std::pair<std::string, Tensor>>> launchKernel(const LoweredKernel& kernel, KernelFn fn,
                                                                  const Graph& graph, const SymbolBinding& binding,
                                                                  const ValueByName& valueOf, OutputPool* pool = nullptr);

}  // namespace fathom
