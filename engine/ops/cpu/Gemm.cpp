// GEMM through OpenBLAS with a loop fallback (see Gemm.h).
#include "engine/ops/cpu/Gemm.h"

#include <cblas.h>

#include <algorithm>
#include <mutex>
#include <vector>

#include "engine/core/Error.h"
#include "engine/core/Parallel.h"
#include "engine/tensor/DTypeDispatch.h"

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

// Integers (int64 accumulation, wrapping like ATen's) and, for an empty contraction, every
// dtype: c = alpha * sum + beta * c per element.
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

// The transpose flags ATen's addmm_impl_cpu_ hands cpublas::gemm, which views the problem
// column-major: normally c^T = mat2^T @ mat1^T (first operand mat2), but a result whose rows
// are 1 apart (a single column) keeps c = mat1 @ mat2. An operand that is neither row- nor
// column-major is copied, and the copy gets flag !swapped.
struct AtenGemmFlags {
  bool transA = false, transB = false;
};

AtenGemmFlags atenGemmFlags(const MatrixView& mat1, const MatrixView& mat2, const MatrixView& c) {
  const int64_t m = c.rows, n = c.cols, k = mat1.cols;
  const auto ge = [](int64_t stride, int64_t size) { return stride >= std::max<int64_t>(1, size); };
  const bool keepC = c.rowStride == 1 && (n == 1 || ge(c.colStride, m));
  const bool swapped = !keepC && c.colStride == 1 && (m == 1 || ge(c.rowStride, n));
  // flag(x, rows, cols): x read as an `rows x cols` column-major matrix (strides s0 down a
  // column, s1 across), as ATen checks it.
  const auto flag = [&](int64_t s0, int64_t s1, int64_t rows, int64_t cols) {
    if (s0 == 1 && ge(s1, rows)) return false;
    if (s1 == 1 && ge(s0, cols)) return true;
    return !swapped;
  };
  if (swapped)  // a = mat2^T (n x k), b = mat1^T (k x m)
    return {flag(mat2.colStride, mat2.rowStride, n, k), flag(mat1.colStride, mat1.rowStride, k, m)};
  return {flag(mat1.rowStride, mat1.colStride, m, k), flag(mat2.rowStride, mat2.colStride, k, n)};
}

// float16/bfloat16 (see ReducedAccumulation). ATen 1.13 runs these kernels in the element type
// itself (alpha and beta converted to it first), so every product and sum rounds, except in
// its transposed-first-operand kernel, whose dot product accumulates in float.
template <class T>
void reducedGemm(const MatrixView& a, const MatrixView& b, const MatrixView& c, double alpha64, double beta64,
                 ReducedAccumulation mode) {
  const T* A = static_cast<const T*>(a.data);
  const T* B = static_cast<const T*>(b.data);
  T* out = static_cast<T*>(c.data);
  const int64_t k = a.cols;
  const auto round = [](float v) { return static_cast<float>(T(v)); };
  const float alpha = round(static_cast<float>(alpha64)), beta = round(static_cast<float>(beta64));
  const AtenGemmFlags flags = atenGemmFlags(a, b, c);
  const bool perStep = mode == ReducedAccumulation::AtenGemm && !(flags.transA && !flags.transB);
  for (int64_t i = 0; i < c.rows; ++i) {
    for (int64_t j = 0; j < c.cols; ++j) {
      T& dst = out[i * c.rowStride + j];
      const auto x = [&](int64_t p) { return static_cast<float>(A[i * a.rowStride + p * a.colStride]); };
      const auto y = [&](int64_t p) { return static_cast<float>(B[p * b.rowStride + j * b.colStride]); };
      if (perStep) {  // ATen's scale_ (beta 1 leaves c alone), then c += a * (b * alpha) per k
        float acc = beta == 0 ? 0.0f : beta == 1 ? static_cast<float>(dst) : round(static_cast<float>(dst) * beta);
        for (int64_t p = 0; p < k; ++p) acc = round(acc + round(x(p) * round(y(p) * alpha)));
        dst = T(acc);
        continue;
      }
      float dot = 0;
      if (mode == ReducedAccumulation::FloatSum) {
        for (int64_t p = 0; p < k; ++p) dot += x(p) * y(p);
        dst = beta == 0 ? T(alpha * dot) : T(static_cast<float>(dst) * beta + alpha * dot);
        continue;
      }
      float partial[4] = {0, 0, 0, 0};  // cpublas's sum(): 4 interleaved partial sums
      int64_t p = 0;
      for (; p + 4 <= k; p += 4)
        for (int q = 0; q < 4; ++q) partial[q] += x(p + q) * y(p + q);
      for (; p < k; ++p) partial[0] += x(p) * y(p);
      dot = ((partial[0] + partial[1]) + partial[2]) + partial[3];
      dst = beta == 0 ? T(alpha * dot) : T(round(beta * static_cast<float>(dst)) + alpha * dot);
    }
  }
}

// Keeps OpenBLAS single-threaded while any scope is alive (OpenBLAS's thread count is
// process-wide); the last scope to end restores the count the first one found.
class SingleThreadedBlas {
 public:
  SingleThreadedBlas() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (depth_++ == 0) {
      saved_ = openblas_get_num_threads();
      if (saved_ != 1) openblas_set_num_threads(1);
    }
  }
  ~SingleThreadedBlas() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (--depth_ == 0 && saved_ != 1) openblas_set_num_threads(saved_);
  }
  SingleThreadedBlas(const SingleThreadedBlas&) = delete;
  SingleThreadedBlas& operator=(const SingleThreadedBlas&) = delete;

 private:
  static inline std::mutex mutex_;
  static inline int depth_ = 0;
  static inline int saved_ = 1;
};

constexpr int64_t kBatchGrain = 1 << 16;  // multiply-adds per parallel chunk, at least

}  // namespace

void gemmBatched(DType dtype, int64_t count, const std::function<GemmProblem(int64_t)>& problem, double alpha,
                 double beta, ReducedAccumulation reduced) {
  const auto run = [&](int64_t i) {
    const GemmProblem p = problem(i);
    gemm(dtype, p[0], p[1], p[2], alpha, beta, reduced);
  };
  if (count < 2 * numThreads()) {
    for (int64_t i = 0; i < count; ++i) run(i);
    return;
  }
  const GemmProblem first = problem(0);
  const int64_t work = std::max<int64_t>(1, first[2].rows * first[2].cols * first[0].cols);
  SingleThreadedBlas oneThread;
  parallelFor(count, std::max<int64_t>(1, kBatchGrain / work), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) run(i);
  });
}

void gemm(DType dtype, const MatrixView& a, const MatrixView& b, const MatrixView& c, double alpha, double beta,
          ReducedAccumulation reduced) {
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
    if constexpr (kIsReducedFloat<T>)
      reducedGemm<T>(a, b, c, alpha, beta, reduced);
    else if constexpr (!std::is_same_v<T, bool>)
      loopGemm<T>(a, b, c, alpha, beta);
  });
}

}  // namespace fathom
