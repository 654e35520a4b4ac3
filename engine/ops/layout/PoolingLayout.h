// What PyTorch 1.13's max and average pooling read from their arguments, shared by 2-d and 3-d
// pooling (families/PoolingOps.cpp, families/Pooling3dOps.cpp) and the loops that run them
// (cpu/PoolingKernel.h):
//   - the window: an int[N] argument (kernel_size, stride, padding, dilation) holds one int for
//     every pooled dim or N of them, and stride=[] means the kernel size (make_fx records
//     F.max_pool2d(x, 2) so). 2-d pooling is 3-d pooling of depth 1, so one window type and one
//     set of loops serve both;
//   - ATen's pooling_output_shape: floor((in + 2 * pad - dilation * (k - 1) - 1 + (ceil_mode ?
//     stride - 1 : 0)) / stride) + 1, less one in ceil mode when the last window would start
//     past the padded input, after its checks (stride zero, padding negative or over half the
//     kernel).
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "engine/ops/Value.h"

namespace fathom {

// A pooling window over the last `spatial` dims; entries are depth, height, width (2-d pooling
// leaves depth at kernel 1, stride 1, padding 0, dilation 1).
struct PoolWindow {
  int spatial = 2;
  std::array<int64_t, 3> kernel{1, 1, 1}, stride{1, 1, 1}, pad{0, 0, 0}, dilation{1, 1, 1};
  bool ceil = false;
};

// How an op words a list argument of the wrong length (dilation: empty when the op has none),
// and whether it reads the ints as 32-bit (ATen's safe_downcast: "integer out of range").
struct PoolArgRules {
  std::string kernel, stride, padding, dilation;
  bool int32 = false;
};

// kernel_size, stride, padding (and dilation) at margs[at], margs[at + 1], ... into a window over
// the last `spatial` dims (ceil_mode is left to the caller: ops put it at different places).
PoolWindow poolWindowArgs(const ValueList& margs, size_t at, int spatial, const PoolArgRules& rules);

// ATen's pooling_output_shape for one dim.
SymInt pooledSize(const SymInt& in, int64_t k, int64_t pad, int64_t stride, int64_t dilation, bool ceil);

}  // namespace fathom
