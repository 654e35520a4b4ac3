// Advanced indexing: aten.index.Tensor (x[idx]) and aten.index_put.default (x[idx] = v, on a
// copy; torch 2.x's _unsafe_index and _unsafe_index_put are the same ops
// copy; index_put_ is made from it), as ATen 1.13 computes them (layouts: AdvancedIndexLayout.h).
//
// Values: result element p reads self at the position p names outside the index block plus, for
// each index k, idx_k[p] * stride of the k-th indexed dim; negative indices count from the end,
// out-of-range ones fail ("index 5 is out of bounds for dimension 0 with size 3", k numbering the
// indices). index_put writes (or with accumulate=True adds, in row-major order of the indexing
// result) the values, broadcast to the indexing result, into a preserve_format clone of self.
// Boolean and uint8 masks become the columns of their nonzero(); the size of index's result then
// depends on the mask's values, which a meta function cannot see: its meta refuses masks, as
// PyTorch's fake tensors do (index_put's result keeps self's size and has a meta for masks too).
#include <algorithm>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/IndexedCopy.h"
#include "engine/ops/families/IndexingFamily.h"
#include "engine/ops/layout/AdvancedIndexLayout.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

// The Tensor?[] argument as metas.
OptionalMetas indexMetas(const Value& v) {
  OptionalMetas out;
  for (const Value& e : v.as<ValueList>()) {
    if (e.isNone()) out.emplace_back();
    else out.emplace_back(e.is<Tensor>() ? e.as<Tensor>().meta() : e.as<TensorMeta>());
  }
  return out;
}

// The Tensor?[] argument as tensors (undefined for None).
std::vector<Tensor> indexTensors(const Value& v) {
  std::vector<Tensor> out;
  for (const Value& e : v.as<ValueList>()) out.push_back(e.isNone() ? Tensor() : e.as<Tensor>());
  return out;
}

// expandTensors: each bool / uint8 mask becomes one int64 index per mask dim (nonzero's columns).
std::vector<Tensor> expandMasks(const Tensor& self, const std::vector<Tensor>& given) {
  std::vector<Tensor> out;
  for (const Tensor& index : given) {
    if (!index.defined() || index.dtype() == DType::Int64) {
      out.push_back(index);
      continue;
    }
    const int64_t at = static_cast<int64_t>(out.size()), k = index.dim();
    for (int64_t j = 0; j < k; ++j)
      FATHOM_CHECK(at + j < self.dim() && index.size(j) == self.size(at + j), "The shape of the mask ",
                   sizesStr(index.meta().sizes), " at index ", j, " does not match the shape of the indexed tensor ",
                   sizesStr(self.meta().sizes), " at index ", at + j);
    std::vector<IntList> hits;  // row-major positions of the nonzero elements
    IntList pos(static_cast<size_t>(k), 0);
    for (int64_t i = 0; i < index.numel(); ++i) {
      if (index.atLinear(i) != 0) hits.push_back(pos);
      for (int64_t d = k - 1; d >= 0 && ++pos[d] == index.size(d); --d) pos[d] = 0;
    }
    for (int64_t j = 0; j < k; ++j) {
      auto column = Tensor::empty({static_cast<int64_t>(hits.size())}, DType::Int64);
      FATHOM_CHECK(column.ok(), column.ok() ? "" : column.error().message);
      for (size_t h = 0; h < hits.size(); ++h) column->dataAs<int64_t>()[h] = hits[h][j];
      out.push_back(*column);
    }
  }
  return out;
}

OptionalMetas metasOf(const std::vector<Tensor>& indices) {
  OptionalMetas out;
  for (const Tensor& t : indices) out.push_back(t.defined() ? std::optional<TensorMeta>(t.meta()) : std::nullopt);
  return out;
}

IntList concrete(const SymIntList& v) {
  IntList out;
  for (const SymInt& s : v) out.push_back(s.hint());
  return out;
}

// An indexing problem on real tensors: the int64 indices viewed against the result's shape.
struct IndexPlan {
  AdvancedIndex info;
  std::vector<Tensor> indexViews;
  IntList shape, srcStrides, indexedSizes, indexedStrides;
};

IndexPlan planIndex(const Tensor& self, const Value& indicesArg) {
  const std::vector<Tensor> given = indexTensors(indicesArg);
  (void)checkIndexList(self.meta(), metasOf(given));
  const std::vector<Tensor> indices = expandMasks(self, given);
  IndexPlan p{advancedIndex(self.meta(), metasOf(indices)), {}, {}, {}, {}, {}};
  size_t k = 0;
  for (const Tensor& t : indices)
    if (t.defined()) {
      const TensorMeta& m = p.info.indices[k++];
      p.indexViews.push_back(stridedView(t, concrete(m.sizes), concrete(m.strides)));
    }
  p.shape = concrete(p.info.src.sizes), p.srcStrides = concrete(p.info.src.strides);
  p.indexedSizes = concrete(p.info.indexedSizes), p.indexedStrides = concrete(p.info.indexedStrides);
  return p;
}

// fn(position, selfOffset) for every element of the indexing result, in row-major order;
// selfOffset (elements, from self's first element) is where the indices point.
template <class Fn>
void forEachIndexed(const IndexPlan& p, const Fn& fn) {
  const int64_t nd = static_cast<int64_t>(p.shape.size());
  int64_t total = 1;
  for (int64_t s : p.shape) total *= s;
  IntList pos(static_cast<size_t>(nd), 0);
  for (int64_t e = 0; e < total; ++e) {
    int64_t at = 0;
    for (int64_t d = 0; d < nd; ++d) at += pos[d] * p.srcStrides[d];
    for (size_t k = 0; k < p.indexViews.size(); ++k) {
      const Tensor& v = p.indexViews[k];
      int64_t off = 0;
      for (int64_t d = 0; d < nd; ++d) off += pos[d] * v.stride(d);
      int64_t idx = v.dataAs<int64_t>()[off];
      const int64_t size = p.indexedSizes[k];
      FATHOM_CHECK(idx >= -size && idx < size, "index ", idx, " is out of bounds for dimension ", k, " with size ", size);
      if (idx < 0) idx += size;
      at += idx * p.indexedStrides[k];
    }
    fn(pos, at);
    for (int64_t d = nd - 1; d >= 0 && ++pos[d] == p.shape[d]; --d) pos[d] = 0;
  }
}

int64_t offsetOf(const IntList& pos, const Tensor& t) {
  int64_t off = 0;
  for (int64_t d = 0; d < t.dim(); ++d) off += pos[d] * t.stride(d);
  return off;
}

// ---- index.Tensor(Tensor self, Tensor?[] indices) ----------------------------------------------

ValueList indexMeta(const ValueList& args) {
  const TensorMeta& self = metaArg(args, 0);
  const OptionalMetas indices = indexMetas(args.at(1));
  FATHOM_CHECK(!checkIndexList(self, indices),
               "aten.index.Tensor with a boolean mask: the result's size depends on the mask's values (data-dependent), "
               "which a meta function cannot compute (PyTorch's fake tensors refuse it too)");
  return {indexResultLayout(advancedIndex(self, indices))};
}

ValueList indexKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  const IndexPlan p = planIndex(self, args.at(1));
  Tensor out = allocateTensor(indexResultLayout(p.info));
  const size_t width = elementSize(self.dtype());
  const std::byte* src = static_cast<const std::byte*>(self.data());
  std::byte* dst = static_cast<std::byte*>(out.data());
  forEachIndexed(p, [&](const IntList& pos, int64_t at) {
    std::copy_n(src + at * static_cast<int64_t>(width), width, dst + offsetOf(pos, out) * static_cast<int64_t>(width));
  });
  return {out};
}

// ---- index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -----------

TensorMeta cloneLayout(const TensorMeta& self) { return freshLike(self, self.dtype, likeStrides(self, std::nullopt)); }

ValueList indexPutMeta(const ValueList& args) {
  const TensorMeta &self = metaArg(args, 0), &values = metaArg(args, 2);
  const OptionalMetas indices = indexMetas(args.at(1));
  if (!checkIndexList(self, indices)) {
    const AdvancedIndex info = advancedIndex(self, indices);
    (void)expandGeometry(values, info.src.sizes);
  }
  FATHOM_CHECK(values.dtype == self.dtype, "Index put requires the source and destination dtypes match, got ",
               scalarTypeName(self.dtype), " for the destination and ", scalarTypeName(values.dtype), " for the source.");
  return {cloneLayout(self)};
}

ValueList indexPutKernel(const ValueList& args) {
  const Tensor &self = tensorArg(args, 0), &values = tensorArg(args, 2);
  const bool accumulate = boolArg(args, 3);
  Tensor out = allocateTensor(cloneLayout(self.meta()));
  copyInto(out, self);
  const IndexPlan p = planIndex(out, args.at(1));
  bool fits = values.dim() <= static_cast<int64_t>(p.shape.size());
  for (int64_t d = 1; fits && d <= values.dim(); ++d) {
    const int64_t v = values.size(values.dim() - d), s = p.shape[p.shape.size() - static_cast<size_t>(d)];
    fits = v == s || v == 1;
  }
  FATHOM_CHECK(fits, "shape mismatch: value tensor of shape ", sizesStr(values.meta().sizes),
               " cannot be broadcast to indexing result of shape ", sizesStr(p.info.src.sizes));
  FATHOM_CHECK(values.dtype() == self.dtype(), "Index put requires the source and destination dtypes match, got ",
               scalarTypeName(self.dtype()), " for the destination and ", scalarTypeName(values.dtype()), " for the source.");
  const Tensor v = stridedView(values, p.shape, concrete(expandGeometry(values.meta(), p.info.src.sizes).strides));
  dispatchDType(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* dst = out.dataAs<T>();
    const T* src = v.dataAs<T>();
    forEachIndexed(p, [&](const IntList& pos, int64_t at) {
      const T x = src[offsetOf(pos, v)];
      if (!accumulate) dst[at] = x;
      else if constexpr (std::is_same_v<T, bool>) dst[at] = dst[at] || x;
      else dst[at] = static_cast<T>(static_cast<OpMath<T>>(dst[at]) + static_cast<OpMath<T>>(x));
    });
  });
  return {out};
}

}  // namespace

void registerAdvancedIndexingOps(OpRegistry& registry) {
  (void)registry.add("aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", indexMeta, indexKernel);
  (void)registry.add("aten::index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor",
                     indexPutMeta, indexPutKernel);
  // torch 2.x's decompositions (upsampling, gathers of computed indices) write the unchecked
  // spellings: the same results, PyTorch only skips the bounds checks, which Fathom keeps.
  (void)registry.add("aten::_unsafe_index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", indexMeta, indexKernel);
  (void)registry.add("aten::_unsafe_index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor",
                     indexPutMeta, indexPutKernel);
}

}  // namespace fathom
