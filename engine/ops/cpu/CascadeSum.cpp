// ATen 1.13's summation order (see CascadeSum.h), transcribed from SumKernel.cpp.
#include "engine/ops/cpu/CascadeSum.h"

#include <algorithm>

namespace fathom {
namespace {

// AVX2 lanes per vector of the accumulation type.
template <class Acc> constexpr int64_t kLanes = 32 / static_cast<int64_t>(sizeof(Acc));

// utils::CeilLog2.
int64_t ceilLog2(int64_t x) {
  if (x <= 2) return 1;
  int64_t bits = 0;
  for (uint64_t v = static_cast<uint64_t>(x - 1); v != 0; v >>= 1) ++bits;
  return bits;
}

// multi_row_sum for one row: n elements `stride` apart, four levels of partial sums.
template <class Acc>
Acc cascade(const Acc* x, int64_t stride, int64_t n) {
  constexpr int kLevels = 4;
  const int64_t power = std::max<int64_t>(4, ceilLog2(n) / kLevels), step = int64_t{1} << power, mask = step - 1;
  Acc acc[kLevels] = {};
  int64_t i = 0;
  while (i + step <= n) {
    for (int64_t j = 0; j < step; ++j, ++i) acc[0] += x[i * stride];
    for (int j = 1; j < kLevels; ++j) {
      acc[j] += acc[j - 1];
      acc[j - 1] = Acc(0);
      if ((i & (mask << (j * power))) != 0) break;
    }
  }
  for (; i < n; ++i) acc[0] += x[i * stride];
  for (int j = 1; j < kLevels; ++j) acc[0] += acc[j];
  return acc[0];
}

// row_sum: four interleaved cascades (elements 4i + k), the remainder into the first, then
// the four added in order.
template <class Acc>
Acc rowSum(const Acc* x, int64_t stride, int64_t n) {
  const int64_t quads = n / 4;
  Acc part[4];
  for (int k = 0; k < 4; ++k) part[k] = cascade(x + k * stride, 4 * stride, quads);
  for (int64_t i = quads * 4; i < n; ++i) part[0] += x[i * stride];
  return ((part[0] + part[1]) + part[2]) + part[3];
}

// vectorized_inner_sum for one contiguous row: a row_sum per lane over whole vectors, the
// leftover elements summed first, then the lanes added to them in order.
template <class Acc>
Acc innerSum(const Acc* x, int64_t n) {
  constexpr int64_t W = kLanes<Acc>;
  const int64_t vectors = n / W;
  Acc sum = 0;
  for (int64_t k = vectors * W; k < n; ++k) sum += x[k];
  for (int64_t lane = 0; lane < W; ++lane) sum += rowSum(x + lane, W, vectors);
  return sum;
}

}  // namespace

template <class Acc>
void lastDimSums(const Acc* x, int64_t rows, int64_t n, bool transposed, Acc* out) {
  constexpr int64_t W = kLanes<Acc>;
  if (!transposed) {  // the reduced dim is contiguous: vectorized (n >= W) or scalar inner sums
    for (int64_t r = 0; r < rows; ++r) out[r] = n >= W ? innerSum(x + r * n, n) : rowSum(x + r * n, 1, n);
    return;
  }
  // The kept dim is contiguous: outer sums. Columns in whole groups (4 vectors, or 4 columns
  // when there are fewer than a vector's worth) cascade straight down; the others use row_sum.
  const int64_t group = rows >= W ? 4 * W : 4;
  const int64_t grouped = rows / group * group;
  for (int64_t r = 0; r < rows; ++r) out[r] = r < grouped ? cascade(x + r, rows, n) : rowSum(x + r, rows, n);
}

template void lastDimSums<float>(const float*, int64_t, int64_t, bool, float*);
template void lastDimSums<double>(const double*, int64_t, int64_t, bool, double*);

}  // namespace fathom
