// C = alpha * A @ B + beta * C for one 2-d problem, on strided operands. float32/float64 go to
// OpenBLAS: an operand that is row-major (unit column stride) or column-major (unit row stride)
// is passed as-is with the matching transpose flag and leading dimension; any other layout is
// copied to a contiguous buffer first. Integers run a plain triple loop in int64 with
// wrap-around. 16-bit floats follow ATen's CPU kernels, whose rounding differs by path (see
// ReducedAccumulation).
#pragma once

#include <array>
#include <cstdint>
#include <functional>

#include "engine/core/DType.h"

namespace fathom {

struct MatrixView {
  void* data = nullptr;  // element [0, 0]
  int64_t rows = 0, cols = 0;
  int64_t rowStride = 0, colStride = 0;  // in elements
};

// How float16/bfloat16 products accumulate.
enum class ReducedAccumulation {
  // ATen 1.13's cpublas gemm, with the transpose flags addmm_impl_cpu_ picks from the layouts:
  // with the first operand transposed and the second not, each element is a float dot product
  // (4 interleaved partial sums) rounded once; otherwise c is scaled by beta and then updated
  // once per k in the element type, every product and sum rounding.
  AtenGemm,
  // One float sum per element in k order, rounded once (ATen's small-batch bmm/baddbmm loop).
  FloatSum,
};

// `c` must be a dense row-major matrix (colStride 1). beta == 0 ignores c's old values (NaN in
// it does not propagate), as BLAS and ATen do.
void gemm(DType dtype, const MatrixView& a, const MatrixView& b, const MatrixView& c, double alpha, double beta,
          ReducedAccumulation reduced = ReducedAccumulation::AtenGemm);

// `count` independent problems {a, b, c} = problem(i) (batched matrix products). A batch of at
// least two problems per thread is split over parallelFor's threads with OpenBLAS kept to one
// thread meanwhile: one whole GEMM per thread beats OpenBLAS waking its threads for every small
// product (BERT's attention: 96 products of 128x64x128). Smaller batches run one GEMM after
// another, each threaded by OpenBLAS.
using GemmProblem = std::array<MatrixView, 3>;
void gemmBatched(DType dtype, int64_t count, const std::function<GemmProblem(int64_t)>& problem, double alpha,
                 double beta, ReducedAccumulation reduced = ReducedAccumulation::AtenGemm);

}  // namespace fathom
