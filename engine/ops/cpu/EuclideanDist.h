// cdist's matmul form for p = 2, as ATen 1.13's _euclidean_dist computes it: with the squared
// row norms n1 = sum(x1^2) and n2 = sum(x2^2) (ATen's summation order, CascadeSum.h),
//   dist = sqrt(clamp_min([-2 x1, n1, 1] @ [x2, 1, n2]^T, 0))
// in the element type. The product is a GEMM through OpenBLAS (as libtorch's mm and large bmm
// call it: fused multiply-adds in k order) or, for batched products of fewer than 400
// multiply-adds per batch, ATen's small bmm loop (an unfused running sum in the element type,
// so bfloat16 rounds at every step). Cancellation in
// n1 - 2 x1.x2 + n2 makes near-zero distances come out as a few ulps' square roots (or 0) where
// the direct form gives 0, so every rounding step is 1.13's.
#pragma once

#include "engine/tensor/Tensor.h"

namespace fathom {

// out [B, r1, r2] (contiguous) from x1 [B, r1, c] and x2 [B, r2, c] (any strides). `mm`: the
// product is one 2-d matrix product (B == 1 and matmul folds it into mm), else a bmm. The
// norms' summation order follows the layout x.pow(2) has: transposed when x's columns are
// further apart than its rows.
void euclideanDist(const Tensor& x1, const Tensor& x2, bool mm, const Tensor& out);

}  // namespace fathom
