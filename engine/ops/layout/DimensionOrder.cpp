#include "engine/ops/layout/DimensionOrder.h"

#include <numeric>

namespace fathom {
namespace {

// TensorIterator::reorder_dimensions' comparison: 1 if dim0 should come after dim1 (it moves
// slower), -1 if before, 0 if no input decides.
int shouldSwap(const std::vector<SymIntList>& strides, const SymIntList& shape, int64_t d0, int64_t d1) {
  for (const auto& s : strides) {
    const SymInt &s0 = s[d0], &s1 = s[d1];
    // A broadcast dimension says nothing about the order: ask the next input.
    if (symEq(s0, 0, "dimension order: broadcast stride") || symEq(s1, 0, "dimension order: broadcast stride"))
      continue;
    if (symLt(s0, s1, "dimension order: stride order")) return -1;
    if (symLt(s1, s0, "dimension order: stride order")) return 1;
    // Equal strides: swap only when that puts the smaller dim first, else ask the next input.
    if (symLt(shape[d1], shape[d0], "dimension order: size order")) return 1;
  }
  return 0;
}

}  // namespace

std::vector<int64_t> reorderDimensions(const std::vector<SymIntList>& strides, const SymIntList& shape) {
  const int64_t ndim = static_cast<int64_t>(shape.size());
  std::vector<int64_t> perm(ndim);
  std::iota(perm.rbegin(), perm.rend(), 0);
  if (ndim <= 1) return perm;
  for (int64_t i = 1; i < ndim; ++i) {
    int64_t dim1 = i;
    for (int64_t dim0 = i - 1; dim0 >= 0; --dim0) {
      const int c = shouldSwap(strides, shape, perm[dim0], perm[dim1]);
      if (c > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (c < 0) {
        break;
      }
    }
  }
  return perm;
}

}  // namespace fathom
