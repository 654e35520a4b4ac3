// CPU math for softmax, log_softmax and their backward, on contiguous tensors viewed as
// [outer, size, inner] around the softmax dim (ATen's host_softmax layout):
//   softmax:      y = exp(x - max) / sum(exp(x - max))
//   log_softmax:  y = x - max - log(sum(exp(x - max)))
//   backward:     softmax dx = y * (dy - sum(dy * y)); log_softmax dx = dy - exp(y) * sum(dy)
// A max of NaN (any NaN in the row, or inf - inf) makes the whole row NaN, as in ATen.
// Rows run in parallel; contiguous float32 rows along the last dim (inner == 1) take a
// vectorized one-row-at-a-time path, every other case a scalar one in OpMath precision.
#pragma once

#include <cstdint>

#include "engine/tensor/Tensor.h"

namespace fathom {

struct SoftmaxShape {
  int64_t outer = 1, size = 1, inner = 1;
};

// The [outer, size, inner] view of `sizes` around `dim` (a zero-dim tensor is one row of one).
SoftmaxShape softmaxShape(const IntList& sizes, int64_t dim);

// `in` and `out` are contiguous, same dtype (float32, float64 or bfloat16).
void softmaxForward(const Tensor& in, const Tensor& out, const SoftmaxShape& s, bool log);

// `grad`, `output` and `gradInput` are contiguous, same dtype (float32, float64 or bfloat16).
void softmaxBackward(const Tensor& grad, const Tensor& output, const Tensor& gradInput, const SoftmaxShape& s,
                     bool log);

}  // namespace fathom
