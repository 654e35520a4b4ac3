// The jit runtime's input checks (Inductor's assert_size_stride): before a compiled graph runs,
// each input tensor's sizes and strides must be what its recorded meta says under the bound
// symbols - the layout the generated kernels were built to read. Strides of size-1 dims are not
// compared (PyTorch's significant strides), nor the storage offset (kernels get the data pointer).
#pragma once

#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "engine/graph/Graph.h"
#include "engine/jit/CompiledGraph.h"
#include "engine/interp/SymbolBinding.h"

namespace fathom {


// One per placeholder of `ordered`, in order.
std::vector<InputTrust> inputTrust(const Graph& ordered, const std::vector<CompiledKernel>& kernels);

// An error naming the input, the recorded and the real layout, and the kernel that trusts it.
Status checkInputLayout(const Node& placeholder, const Value& real, const SymbolBinding& binding,
                        const InputTrust& trust);

}  // namespace fathom
