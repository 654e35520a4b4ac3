// KernelReference: a slow, obvious evaluator of a LoweredKernel on host tensors - the semantics
// KernelIR.h and CudaSource.h document, written as plain C++ to compare generated code against.
// Values are kept as double (float kinds, rounded to float after every f32 operation) or int64
// (integer kinds and bool, wrapped to the type's width after every operation).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/compile/KernelIR.h"
#include "engine/core/Result.h"
#include "engine/tensor/Tensor.h"

namespace fathom::testing {

// Runs `k` over [begin, end) of its outermost loop, as the generated function does: buffers[i]
// is buffer i's tensor (its element [0, ...] the buffer's first element), params by slot.
Status referenceRun(const LoweredKernel& k, const std::vector<Tensor>& buffers, const std::vector<int64_t>& params,
                    int64_t begin, int64_t end);

}  // namespace fathom::testing
