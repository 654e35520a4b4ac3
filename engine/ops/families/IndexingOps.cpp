// gather and index_select; registerIndexingOps also registers the family's other parts
// (embedding, nll_loss: see IndexingFamily.h).
//
// Layout: both return a fresh contiguous tensor of self's dtype (ATen resizes an empty output):
// gather has index's shape, index_select self's shape with dim `dim` resized to the number of
// indices. A 0-dim self or index counts as one element along one dim, as ATen's
// ensure_nonempty_dim/size do. Values: indexedCopy after every index is checked against the
// indexed dim's size (ATen checks while copying; the error is the same).
#include "engine/core/Error.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/layout/ContiguousOutput.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/IndexedCopy.h"
#include "engine/ops/families/IndexingFamily.h"
#include "engine/ops/cpu/Loops.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

SymInt nonemptySize(const TensorMeta& t, int64_t d) { return t.dim() == 0 ? SymInt(1) : t.sizes[d]; }
int64_t nonemptySize(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.size(d); }
int64_t nonemptyStride(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.stride(d); }

// ATen's gather meta and gather_shape_check (skipped for an empty index).
TensorMeta gatherLayout(const ValueList& margs) {
  const TensorMeta &self = metaArg(margs, 0), &index = metaArg(margs, 2);
  const int64_t dim = wrapDim(intArg(margs, 1), self.dim());
  FATHOM_CHECK(index.dtype == DType::Int64, "gather(): Expected dtype int64 for index");
  TensorMeta out = contiguousOutput(self, index.sizes);
  if (symEq(index.numel(), 0, "gather: empty index")) return out;
  const int64_t ndim = std::max<int64_t>(self.dim(), 1);
  FATHOM_CHECK(ndim == std::max<int64_t>(index.dim(), 1),
               "Index tensor must have the same number of dimensions as input tensor");
  for (int64_t d = 0; d < ndim; ++d) {
    FATHOM_CHECK(d == dim || !symLt(nonemptySize(self, d), nonemptySize(index, d), "gather: index fits in self"),
                 "Size does not match at dimension ", d, " expected index ", sizesStr(index.sizes),
                 " to be smaller than self ", sizesStr(self.sizes), " apart from dimension ", dim);
  }
  return out;
}

ValueList gatherKernel(const ValueList& args) {
  Tensor out = allocateTensor(gatherLayout(metaArgs(args)));
  const Tensor &self = tensorArg(args, 0), &index = tensorArg(args, 2);
  if (out.numel() == 0) return {out};
  const int64_t dim = wrapDim(intArg(args, 1), self.dim());
  const int64_t bound = nonemptySize(self, dim);
  checkIndexRange(index, bound, [&](int64_t i) {
    return "index " + std::to_string(i) + " is out of bounds for dimension " + std::to_string(dim) + " with size " +
           std::to_string(bound);
  });
  IntList srcStrides(static_cast<size_t>(out.dim()), 0);
  for (int64_t d = 0; d < self.dim(); ++d)
    if (d != dim) srcStrides[d] = self.stride(d);
  indexedCopy(out, index, bytePtr(self), srcStrides, nonemptyStride(self, dim));
  return {out};
}

// ATen's index_select_out_cpu_ checks, in its order.
TensorMeta indexSelectLayout(const ValueList& margs) {
  const TensorMeta &self = metaArg(margs, 0), &index = metaArg(margs, 2);
  const int64_t dim = wrapDim(intArg(margs, 1), self.dim());
  FATHOM_CHECK(index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  FATHOM_CHECK(index.dtype == DType::Int64 || index.dtype == DType::Int32,
               "index_select(): Expected dtype int32 or int64 for index");
  SymIntList sizes = self.sizes;
  if (self.dim() > 0) sizes[dim] = index.numel();
  return contiguousOutput(self, std::move(sizes));
}

ValueList indexSelectKernel(const ValueList& args) {
  Tensor out = allocateTensor(indexSelectLayout(metaArgs(args)));
  const Tensor &self = tensorArg(args, 0), &index = tensorArg(args, 2);
  const int64_t dim = wrapDim(intArg(args, 1), self.dim());
  if (index.numel() == 0) return {out};
  checkIndexSelectRange(self, dim, index);
  if (out.numel() == 0) return {out};
  if (self.dim() == 0) {  // every index is 0: the output is self
    copyInto(out, self);
    return {out};
  }
  // The index viewed with out's shape: it varies along `dim` only.
  IntList indexStrides(static_cast<size_t>(out.dim()), 0), srcStrides = self.strides();
  indexStrides[dim] = index.dim() == 0 ? 0 : index.stride(0);
  srcStrides[dim] = 0;
  indexedCopy(out, stridedView(index, out.sizes(), indexStrides), bytePtr(self), srcStrides, self.stride(dim));
  return {out};
}

}  // namespace

void registerIndexingOps(OpRegistry& registry) {
  (void)registry.add("aten::gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor",
                     [](const ValueList& args) { return ValueList{gatherLayout(args)}; }, gatherKernel);
  (void)registry.add("aten::index_select(Tensor self, int dim, Tensor index) -> Tensor",
                     [](const ValueList& args) { return ValueList{indexSelectLayout(args)}; }, indexSelectKernel);
  registerEmbeddingOps(registry);
  registerEmbeddingBagOps(registry);
  registerEmbeddingBagBackwardOps(registry);
  registerNllLossOps(registry);
  registerAdvancedIndexingOps(registry);
  registerFunctionalizedOps(registry);
  registerPadRollOps(registry);
  registerScatterOps(registry);
}

}  // namespace fathom
