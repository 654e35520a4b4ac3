// ATen 1.13's level-1 BLAS on strided vectors, as cpublas::axpy and dot_impl compute them:
// float32/float64 through OpenBLAS's saxpy/daxpy and sdot/ddot, the library libtorch calls too,
// so the rounding is the same (OpenBLAS's dot keeps several partial sums, not one running sum);
// 16-bit floats in ATen's own loops (axpy fused in float; dot in the element type, every
// product and partial sum rounded).
// Embedding bag's backward ops accumulate their rows and per-sample weights with these.
#pragma once

#include <cstdint>

#include "engine/core/DType.h"

namespace fathom {

// y[i * incy] += alpha * x[i * incx] for i < n; alpha is first converted to the element type,
// as ATen's callers pass (scalar_t)scale.
void axpy(DType dtype, int64_t n, double alpha, const void* x, int64_t incx, void* y, int64_t incy);

// The dot product of x and y, rounded to the element type (returned as double).
double dot(DType dtype, int64_t n, const void* x, int64_t incx, const void* y, int64_t incy);

}  // namespace fathom
