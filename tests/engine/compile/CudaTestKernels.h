// CudaTestKernels: LoweredKernels built by hand for the CUDA tests (and any generator's), each
// with its host tensors: broadcast and strided inputs, a buffer read through its own shape, at a
// storage offset, symbolic sizes, a partial [begin, end), reductions (sum, mean, max, min, a full
// one), f32, f64, i64, i32 and bool values, NaN where max/min must propagate it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/compile/KernelIR.h"
#include "engine/tensor/Tensor.h"

namespace fathom::testing {

struct KernelCase {
  LoweredKernel kernel;
  std::vector<Tensor> buffers;   // one per kernel buffer: inputs filled, outputs zero
  std::vector<int64_t> params;   // runtime parameter values by slot
  int64_t begin = 0, end = 0;    // the range of the outermost loop to run
};

std::vector<KernelCase> cudaTestCases();

// Copies of the tensors, each with a storage of its own holding the same bytes, at the same
// offset and strides: two runs of one case write to different memory.
std::vector<Tensor> cloneBuffers(const std::vector<Tensor>& buffers);

}  // namespace fathom::testing
