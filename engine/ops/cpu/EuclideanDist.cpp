// cdist's matmul form (see EuclideanDist.h): the norms, the two augmented matrices, their
// product, clamp_min(0) and sqrt - each step in the element type, as ATen runs its ops.
#include "engine/ops/cpu/EuclideanDist.h"

#include <cmath>
#include <vector>

#include "engine/ops/cpu/CascadeSum.h"
#include "engine/ops/cpu/Gemm.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

// TensorIterator gives x.pow(2) x's dimension order, so the squares of a matrix whose columns
// are further apart than its rows are stored transposed (unit or broadcast strides aside).
bool squaresTransposed(const Tensor& x) {
  const int64_t rs = x.stride(1), cs = x.stride(2);
  return x.size(1) > 1 && x.size(2) > 1 && rs != 0 && cs != 0 && cs > rs;
}

// The augmented rows of one operand, [B, rows, c + 2]: (scale * x, norm, 1) for x1 (scale -2),
// (x, 1, norm) for x2. The norm is x.pow(2).sum(-1) in T: squares rounded, summed in OpMath<T>.
template <class T>
std::vector<T> augmented(const Tensor& x, bool first) {
  using Acc = OpMath<T>;
  const int64_t batch = x.size(0), rows = x.size(1), c = x.size(2);
  const bool transposed = squaresTransposed(x);
  std::vector<T> out(static_cast<size_t>(batch * rows * (c + 2)));
  std::vector<Acc> squares(static_cast<size_t>(rows * c)), sums(static_cast<size_t>(rows));
  const T* base = x.dataAs<T>();
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t k = 0; k < c; ++k) {
        const T v = base[b * x.stride(0) + r * x.stride(1) + k * x.stride(2)];
        squares[transposed ? k * rows + r : r * c + k] = static_cast<Acc>(T(static_cast<Acc>(v) * static_cast<Acc>(v)));
        out[(b * rows + r) * (c + 2) + k] = first ? T(static_cast<Acc>(v) * Acc(-2)) : v;
      }
    }
    lastDimSums<Acc>(squares.data(), rows, c, transposed, sums.data());
    for (int64_t r = 0; r < rows; ++r) {
      T* row = out.data() + (b * rows + r) * (c + 2);
      row[first ? c : c + 1] = T(sums[r]);
      row[first ? c + 1 : c] = T(1);
    }
  }
  return out;
}

template <class T>
void euclideanTyped(const Tensor& x1, const Tensor& x2, bool mm, const Tensor& out) {
  using Acc = OpMath<T>;
  const int64_t batch = x1.size(0), r1 = x1.size(1), r2 = x2.size(1), k = x1.size(2) + 2;
  std::vector<T> a = augmented<T>(x1, true), b = augmented<T>(x2, false);
  T* o = out.dataAs<T>();
  // Batch i's operands: a[i] (r1 x k, row-major) and b[i] transposed (k x r2, column-major).
  const auto problem = [&](int64_t i) {
    return GemmProblem{MatrixView{a.data() + i * r1 * k, r1, k, k, 1}, MatrixView{b.data() + i * r2 * k, k, r2, 1, k},
                       MatrixView{o + i * r1 * r2, r1, r2, r2, 1}};
  };
  if (mm) {
    const GemmProblem p = problem(0);
    gemm(out.dtype(), p[0], p[1], p[2], 1.0, 0.0);
  } else if (k * r1 * r2 < 400) {  // bmm's small-batch loop: an unfused running sum in T
    for (int64_t i = 0; i < batch; ++i)
      for (int64_t r = 0; r < r1; ++r)
        for (int64_t s = 0; s < r2; ++s) {
          T acc = T(0);
          for (int64_t q = 0; q < k; ++q) {
            const T product = T(static_cast<Acc>(a[(i * r1 + r) * k + q]) * static_cast<Acc>(b[(i * r2 + s) * k + q]));
            acc = T(static_cast<Acc>(acc) + static_cast<Acc>(product));
          }
          o[(i * r1 + r) * r2 + s] = acc;
        }
  } else {
    gemmBatched(out.dtype(), batch, problem, 1.0, 0.0);
  }
  // clamp_min_(0) (NaN stays), then sqrt_.
  for (int64_t i = 0; i < out.numel(); ++i) {
    const Acc v = static_cast<Acc>(o[i]);
    o[i] = T(std::sqrt(v < 0 ? Acc(0) : v));
  }
}

}  // namespace

void euclideanDist(const Tensor& x1, const Tensor& x2, bool mm, const Tensor& out) {
  dispatchDType(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>>) euclideanTyped<T>(x1, x2, mm, out);
  });
}

}  // namespace fathom
