// Sorting along a dim: sort (values and indices) and topk.
//
// Layouts, as PyTorch 1.13's meta functions set them: sort's two results keep self's strides when
// self is non-overlapping and dense, else dense strides in self's dim order (preserve_format);
// topk's are fresh contiguous tensors with `dim` resized to k.
// Order: each slice is sorted by libstdc++'s algorithms with ATen's comparators (NaN above every
// number; ties left to the algorithm), which is what PyTorch's CPU kernels call - std::sort
// (stable only up to 16 elements, where it is insertion sort) for sort, std::partial_sort when
// 64 k <= n and else std::nth_element then std::sort of the first k - 1 for topk - so even the
// indices of tied values are PyTorch's.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/Loops.h"
#include "engine/ops/families/ReductionFamilies.h"
#include "engine/ops/layout/ContiguousOutput.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

template <class C> bool isNan(C v) {
  if constexpr (std::is_floating_point_v<C>) return std::isnan(v);
  else return false;
}

// ATen's KeyValueCompAsc / KeyValueCompDesc (topk's lambdas are the same).
template <class C> struct Ascending {
  bool operator()(const std::pair<C, int64_t>& a, const std::pair<C, int64_t>& b) const {
    return (!isNan(a.first) && isNan(b.first)) || (a.first < b.first);
  }
};
template <class C> struct Descending {
  bool operator()(const std::pair<C, int64_t>& a, const std::pair<C, int64_t>& b) const {
    return (isNan(a.first) && !isNan(b.first)) || (a.first > b.first);
  }
};

TensorMeta withDtype(TensorMeta m, DType d) {
  m.dtype = d;
  return m;
}

// Calls fn(in, outValues, outIndices) with the first element of every slice along `dim` of
// `self` (a 0-dim tensor is one slice of one element), `values` and `indices` laid out alike.
template <class Fn>
void forEachSlice(const Tensor& self, const Tensor& values, const Tensor& indices, int64_t dim, Fn&& fn) {
  IntList shape = self.sizes();
  if (shape.empty()) return fn(bytePtr(self), bytePtr(values), bytePtr(indices));
  shape[dim] = 1;
  IntList a = self.strides(), b = values.strides(), c = indices.strides();
  for (size_t d = 0; d < shape.size(); ++d) {
    a[d] *= static_cast<int64_t>(elementSize(self.dtype()));
    b[d] *= static_cast<int64_t>(elementSize(values.dtype()));
    c[d] *= 8;
  }
  const LoopPlan plan = planLoop(shape, {a, b, c}, 0);
  forEachRun<3>(plan, {bytePtr(self), bytePtr(values), bytePtr(indices)}, [&](auto& p, auto& s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) fn(p[0] + i * s[0], p[1] + i * s[1], p[2] + i * s[2]);
  });
}

// ---- sort(Tensor self, int dim=-1, bool descending=False) ------------------------------------

TensorMeta sortLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  (void)wrapDim(intArg(margs, 1), self.dim());
  return freshLike(self, self.dtype, likeStrides(self, std::nullopt));
}

ValueList sortKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  const TensorMeta layout = sortLayout(metaArgs(args));
  Tensor values = allocateTensor(layout), indices = allocateTensor(withDtype(layout, DType::Int64));
  const int64_t dim = self.dim() == 0 ? 0 : wrapDim(intArg(args, 1), self.dim());
  const bool descending = boolArg(args, 2);
  const int64_t n = self.dim() == 0 ? 1 : self.size(dim);
  const int64_t is = self.dim() == 0 ? 0 : self.stride(dim), vs = self.dim() == 0 ? 0 : values.stride(dim),
                xs = self.dim() == 0 ? 0 : indices.stride(dim);
  dispatchDType(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = OpMath<T>;
    std::vector<std::pair<C, int64_t>> slice(static_cast<size_t>(n));
    forEachSlice(self, values, indices, dim, [&](const std::byte* src, std::byte* val, std::byte* idx) {
      for (int64_t k = 0; k < n; ++k) slice[k] = {C(reinterpret_cast<const T*>(src)[k * is]), k};
      if (descending) std::sort(slice.begin(), slice.end(), Descending<C>());
      else std::sort(slice.begin(), slice.end(), Ascending<C>());
      for (int64_t k = 0; k < n; ++k) {
        reinterpret_cast<T*>(val)[k * vs] = T(slice[k].first);
        reinterpret_cast<int64_t*>(idx)[k * xs] = slice[k].second;
      }
    });
  });
  return {values, indices};
}

// ---- topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) ---------------

TensorMeta topkLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  const int64_t dim = wrapDim(intArg(margs, 2), self.dim());
  const SymInt k = symIntArg(margs, 1);
  const SymInt size = self.dim() == 0 ? SymInt(1) : self.sizes[dim];
  FATHOM_CHECK(!symLt(k, 0, "topk: k >= 0") && !symLt(size, k, "topk: k fits"), "selected index k out of range");
  SymIntList sizes = self.sizes;
  if (!sizes.empty()) sizes[dim] = k;
  return contiguousOutput(self, std::move(sizes));
}

// One slice's top k, as ATen's topk_impl_loop picks and orders them.
template <class C, class Compare>
void topkSlice(std::vector<std::pair<C, int64_t>>& q, int64_t k, bool sorted, Compare cmp) {
  if (k * 64 <= static_cast<int64_t>(q.size())) {
    std::partial_sort(q.begin(), q.begin() + k, q.end(), cmp);
  } else {
    std::nth_element(q.begin(), q.begin() + k - 1, q.end(), cmp);
    if (sorted) std::sort(q.begin(), q.begin() + k - 1, cmp);
  }
}

ValueList topkKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  const TensorMeta layout = topkLayout(metaArgs(args));
  Tensor values = allocateTensor(layout), indices = allocateTensor(withDtype(layout, DType::Int64));
  const int64_t k = intArg(args, 1);
  if (self.dim() == 0) {  // ATen copies a 0-dim self, whatever k
    copyInto(values, self);
    return {values, indices};
  }
  if (k == 0 || self.numel() == 0) return {values, indices};
  const int64_t dim = self.dim() == 0 ? 0 : wrapDim(intArg(args, 2), self.dim());
  const bool largest = boolArg(args, 3), sorted = boolArg(args, 4);
  const int64_t n = self.dim() == 0 ? 1 : self.size(dim);
  const int64_t is = self.dim() == 0 ? 0 : self.stride(dim), vs = self.dim() == 0 ? 0 : values.stride(dim),
                xs = self.dim() == 0 ? 0 : indices.stride(dim);
  dispatchDType(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = std::conditional_t<std::is_floating_point_v<OpMath<T>>, double, OpMath<T>>;  // ATen's acc_type
    std::vector<std::pair<C, int64_t>> q(static_cast<size_t>(n));
    forEachSlice(self, values, indices, dim, [&](const std::byte* src, std::byte* val, std::byte* idx) {
      for (int64_t j = 0; j < n; ++j) q[j] = {C(OpMath<T>(reinterpret_cast<const T*>(src)[j * is])), j};
      if (largest) topkSlice(q, k, sorted, Descending<C>());
      else topkSlice(q, k, sorted, Ascending<C>());
      for (int64_t j = 0; j < k; ++j) {
        reinterpret_cast<T*>(val)[j * vs] = convertValue<T>(q[j].first);
        reinterpret_cast<int64_t*>(idx)[j * xs] = q[j].second;
      }
    });
  });
  return {values, indices};
}

}  // namespace

void registerSortOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)",
      [](const ValueList& args) {
        const TensorMeta m = sortLayout(args);
        return ValueList{m, withDtype(m, DType::Int64)};
      },
      sortKernel);
  (void)registry.add(
      "aten::topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)",
      [](const ValueList& args) {
        const TensorMeta m = topkLayout(args);
        return ValueList{m, withDtype(m, DType::Int64)};
      },
      topkKernel);
}

}  // namespace fathom
