// CPU math for native_layer_norm and its backward, on contiguous tensors viewed as M rows of N
// normalized elements (ATen's LayerNormKernelImpl):
//   mean = sum(x) / N, rstd = 1 / sqrt(sum((x - mean)^2) / N + eps),
//   y = (x * rstd - rstd * mean) * gamma + beta   (gamma 1 and beta 0 when absent).
// A row of N == 0 elements has mean 0 and rstd NaN, as ATen's RowwiseMoments gives.
// Backward: dgamma = sum over rows of dy * (x - mean) * rstd, dbeta = sum of dy, and
//   dx = rstd * dy * gamma + b * x + c with b = (db * mean - ds) * rstd^3 / N,
//   c = -b * mean - db * rstd / N, ds = sum(dy * gamma * x), db = sum(dy * gamma) per row.
// Values follow ATen's roundings where they show: rstd is computed in the compute type (float
// for float32 and bfloat16), and multiply-adds ATen's compiler fuses are fused here too
// (a near-zero variance makes rstd large and amplifies every rounding). Rows run in parallel
// (dgamma/dbeta: blocks of columns); float32 rows take vectorized paths; long sums accumulate
// in double.
#pragma once

#include <cstdint>

#include "engine/tensor/Tensor.h"

namespace fathom {

struct LayerNormRows {
  int64_t m = 0, n = 0;  // rows, elements per row
};

// All tensors contiguous and of one dtype (float32, float64 or bfloat16); gamma/beta may be
// undefined. y has x's shape; mean and rstd hold M elements.
void layerNormForward(const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps, LayerNormRows rows,
                      const Tensor& y, const Tensor& mean, const Tensor& rstd);

// Outputs that are undefined are not computed; gamma may be undefined (ones).
void layerNormBackward(const Tensor& dy, const Tensor& x, const Tensor& mean, const Tensor& rstd, const Tensor& gamma,
                       LayerNormRows rows, const Tensor& dx, const Tensor& dgamma, const Tensor& dbeta);

}  // namespace fathom
