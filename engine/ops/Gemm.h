// C = alpha * A @ B + beta * C for one 2-d problem, on strided operands. float32/float64 go to
// OpenBLAS: an operand that is row-major (unit column stride) or column-major (unit row stride)
// is passed as-is with the matching transpose flag and leading dimension; any other layout is
// copied to a contiguous buffer first. Other dtypes run a plain triple loop in OpMath precision
// (16-bit floats accumulate in float32, integers in int64 with wrap-around).
#pragma once

#include <cstdint>

#include "engine/core/DType.h"

namespace fathom {

struct MatrixView {
  void* data = nullptr;  // element [0, 0]
  int64_t rows = 0, cols = 0;
  int64_t rowStride = 0, colStride = 0;  // in elements
};

// `c` must be a dense row-major matrix (colStride 1). beta == 0 ignores c's old values (NaN in
// it does not propagate), as BLAS and ATen do.
void gemm(DType dtype, const MatrixView& a, const MatrixView& b, const MatrixView& c, double alpha, double beta);

}  // namespace fathom
