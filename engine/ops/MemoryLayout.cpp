// preserve_format layouts (see MemoryLayout.h).
#include "engine/ops/MemoryLayout.h"

#include <numeric>

#include "engine/core/Error.h"

namespace fathom {

bool isDenseLayout(const TensorMeta& t) {
  return isContiguous(t) || isChannelsLastContiguous(t) || isNonOverlappingAndDense(t);
}

namespace {
// TensorIterator's comparison for one tensor: -1 keep dim0 before dim1 (dim0 is faster),
// 1 swap, 0 ambiguous. A zero stride is ambiguous so broadcast dims do not move.
int compareDims(const SymIntList& sizes, const SymIntList& strides, int64_t d0, int64_t d1) {
  const SymInt &s0 = strides[d0], &s1 = strides[d1];
  if (symEq(s0, 0, "dense strides: broadcast dim") || symEq(s1, 0, "dense strides: broadcast dim")) return 0;
  if (symLt(s0, s1, "dense strides: stride order")) return -1;
  if (symLt(s1, s0, "dense strides: stride order")) return 1;
  // Equal strides: the dimension with the smaller size goes first.
  if (symLt(sizes[d1], sizes[d0], "dense strides: size order")) return 1;
  return 0;
}
}  // namespace

SymIntList inferDenseStrides(const SymIntList& sizes, const SymIntList& strides) {
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  if (ndim == 0) return {};
  if (ndim == 1) return {SymInt(1)};
  // perm[0] is the fastest-moving dimension; start from row-major order (n-1, ..., 0).
  std::vector<int64_t> perm(ndim);
  std::iota(perm.rbegin(), perm.rend(), 0);
  // Insertion sort that stops at a definite "keep" and steps over ambiguous comparisons.
  for (int64_t i = 1; i < ndim; ++i) {
    int64_t dim1 = i;
    for (int64_t dim0 = i - 1; dim0 >= 0; --dim0) {
      const int c = compareDims(sizes, strides, perm[dim0], perm[dim1]);
      if (c > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (c < 0) {
        break;
      }
    }
  }
  SymIntList out(ndim);
  SymInt running = 1;
  for (int64_t d : perm) {
    out[d] = running;
    // Size 0 is treated as 1 here: with no elements the strides do not matter.
    if (symLt(1, sizes[d], "dense strides: size > 1")) running = running * sizes[d];
  }
  return out;
}

SymIntList likeStrides(const TensorMeta& t, std::optional<MemoryFormat> format) {
  const MemoryFormat f = format.value_or(MemoryFormat::Preserve);
  if (f == MemoryFormat::Contiguous) return contiguousStrides(t.sizes);
  if (f == MemoryFormat::ChannelsLast) {
    FATHOM_CHECK(t.dim() == 4, "required rank 4 tensor to use channels_last format");
    return channelsLastStrides(t.sizes);
  }
  if (isDenseLayout(t)) return t.strides;
  return inferDenseStrides(t.sizes, t.strides);
}

TensorMeta freshLike(const TensorMeta& t, DType dtype, SymIntList strides) {
  TensorMeta m;
  m.dtype = dtype;
  m.device = t.device;
  m.sizes = t.sizes;
  m.strides = std::move(strides);
  return m;
}

}  // namespace fathom
