// The loops of ATen 1.13's DistanceOpsKernel.cpp: cdist's direct form, pdist, and their
// backward, for float32 and float64 (ATen dispatches no other dtype), per norm - p = 0 (how many
// coordinates differ), 1, 2, infinity, and any other p.
//
// Rounding as 1.13's: cdist sums each pair's terms in one scalar running sum; pdist runs in
// AVX2 vectors (8 floats or 4 doubles), each lane a running sum (p = 2 fused: fma(d, d, acc)),
// the lanes added pairwise at the end (a pair of fewer coordinates than a vector adds them in
// order); the backward ops add each term to the row's gradient in pair order. The backward of
// a zero distance is 0, and for p < 1 so is that of a zero coordinate difference (1.13 blends
// away the NaN of 0 * inf).
#pragma once

#include "engine/tensor/Tensor.h"

namespace fathom {

// out[b, i, j] = ||x1[b, i] - x2[b, j]||_p; x1 [B, r1, m], x2 [B, r2, m] and out [B, r1, r2],
// all contiguous.
void cdistDirect(const Tensor& x1, const Tensor& x2, double p, const Tensor& out);

// out[k] = ||x[i] - x[j]||_p for the pairs i < j in row-major order; x [n, m] contiguous.
void pdistDirect(const Tensor& x, double p, const Tensor& out);

// The gradient of cdist for x1: out [B, r1, m] (contiguous, as x1, x2, grad and dist).
void cdistBackward(const Tensor& grad, const Tensor& x1, const Tensor& x2, double p, const Tensor& dist,
                   const Tensor& out);

// The gradient of pdist: out [n, m]; grad is read with its stride, x and dist are contiguous.
void pdistBackward(const Tensor& grad, const Tensor& x, double p, const Tensor& dist, const Tensor& out);

}  // namespace fathom
