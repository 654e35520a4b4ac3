// GEMM through OpenBLAS with a loop fallback (see Gemm.h).
#include "engine/ops/Gemm.h"

#include <cblas.h>

#include <algorithm>
#include <vector>

#include "engine/core/Error.h"
#include "engine/tensor/Dispatch.h"

namespace fathom {
namespace {

// How BLAS should read a matrix: its pointer, transpose flag and leading dimension. `owned`
// holds a contiguous copy when the layout is neither row- nor column-major.
template <class T>
struct BlasOperand {
  const T* data = nullptr;
  CBLAS_TRANSPOSE trans = CblasNoTrans;
  int ld = 1;
  std::vector<T> owned;
};

template <class T>
BlasOperand<T> blasOperand(const MatrixView& m) {
  BlasOperand<T> op;
  const int64_t minRow = std::max<int64_t>(1, m.cols), minCol = std::max<int64_t>(1, m.rows);
  // A size-1 dimension may have any stride: it is never stepped over.
  const bool unitCol = m.colStride == 1 || m.cols <= 1, unitRow = m.rowStride == 1 || m.rows <= 1;
  if (unitCol && (m.rows <= 1 || m.rowStride >= minRow)) {
    op.data = static_cast<const T*>(m.data);
    op.ld = static_cast<int>(m.rows <= 1 ? minRow : m.rowStride);
    return op;
  }
  if (unitRow && (m.cols <= 1 || m.colStride >= minCol)) {
    op.data = static_cast<const T*>(m.data);
    op.trans = CblasTrans;
    op.ld = static_cast<int>(m.cols <= 1 ? minCol : m.colStride);
    return op;
  }
  op.owned.resize(static_cast<size_t>(m.rows * m.cols));
  const T* src = static_cast<const T*>(m.data);
  for (int64_t i = 0; i < m.rows; ++i)
    for (int64_t j = 0; j < m.cols; ++j) op.owned[i * m.cols + j] = src[i * m.rowStride + j * m.colStride];
  op.data = op.owned.data();
  op.ld = static_cast<int>(minRow);
  return op;
}

template <class T>
void blasGemm(const MatrixView& a, const MatrixView& b, const MatrixView& c, double alpha, double beta) {
  const auto A = blasOperand<T>(a);
  const auto B = blasOperand<T>(b);
  const int m = static_cast<int>(c.rows), n = static_cast<int>(c.cols), k = static_cast<int>(a.cols);
  const int ldc = static_cast<int>(std::max<int64_t>(1, c.rows <= 1 ? c.cols : c.rowStride));
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(CblasRowMajor, A.trans, B.trans, m, n, k, static_cast<float>(alpha), A.data, A.ld, B.data, B.ld,
                static_cast<float>(beta), static_cast<float*>(c.data), ldc);
  } else {
    cblas_dgemm(CblasRowMajor, A.trans, B.trans, m, n, k, alpha, A.data, A.ld, B.data, B.ld, beta,
                static_cast<double*>(c.data), ldc);
  }
}

template <class T>
void loopGemm(const MatrixView& a, const MatrixView& b, const MatrixView& c, double alpha, double beta) {
  using C = OpMath<T>;
  using Acc = std::conditional_t<std::is_floating_point_v<C>, C, int64_t>;
  const T* A = static_cast<const T*>(a.data);
  const T* B = static_cast<const T*>(b.data);
  T* out = static_cast<T*>(c.data);
  for (int64_t i = 0; i < c.rows; ++i) {
    for (int64_t j = 0; j < c.cols; ++j) {
      Acc sum = 0;
      for (int64_t p = 0; p < a.cols; ++p) {
        const Acc x = static_cast<Acc>(static_cast<C>(A[i * a.rowStride + p * a.colStride]));
        const Acc y = static_cast<Acc>(static_cast<C>(B[p * b.rowStride + j * b.colStride]));
        if constexpr (std::is_floating_point_v<Acc>) sum += x * y;
        else sum = static_cast<Acc>(static_cast<uint64_t>(sum) + static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
      }
      T& dst = out[i * c.rowStride + j];
      if constexpr (std::is_floating_point_v<Acc>) {
        const Acc prior = beta == 0 ? Acc(0) : static_cast<Acc>(beta) * static_cast<Acc>(static_cast<C>(dst));
        dst = T(static_cast<Acc>(alpha) * sum + prior);
      } else {
        const auto scale = [](double s, Acc v) { return static_cast<uint64_t>(static_cast<int64_t>(s)) * static_cast<uint64_t>(v); };
        const uint64_t prior = beta == 0 ? 0 : scale(beta, static_cast<Acc>(dst));
        dst = static_cast<T>(static_cast<int64_t>(scale(alpha, sum) + prior));
      }
    }
  }
}

}  // namespace

void gemm(DType dtype, const MatrixView& a, const MatrixView& b, const MatrixView& c, double alpha, double beta) {
  if (c.rows == 0 || c.cols == 0) return;
  FATHOM_CHECK(dtype != DType::Bool, "\"addmm_impl_cpu_\" not implemented for 'Bool'");
  if (a.cols == 0) {  // empty contraction: C = beta * C (BLAS would reject the leading dims)
    const MatrixView zero{a.data, c.rows, 0, 0, 0};
    dispatchDType(dtype, [&](auto tag) { loopGemm<typename decltype(tag)::type>(zero, b, c, alpha, beta); });
    return;
  }
  if (dtype == DType::Float32) return blasGemm<float>(a, b, c, alpha, beta);
  if (dtype == DType::Float64) return blasGemm<double>(a, b, c, alpha, beta);
  dispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) loopGemm<T>(a, b, c, alpha, beta);
  });
}

}  // namespace fathom
