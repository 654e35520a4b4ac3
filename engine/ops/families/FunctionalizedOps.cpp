// The functional ops functionalization writes in place of mutations (AOT graphs of Swin and
// ConvNeXt hold them): each is a copy of `self` (clone, preserve_format) with something written
// into it, so its layout is self's under preserve_format (dense inputs keep their strides).
//   zero(self)                                  the copy, zeroed               (zero_)
//   fill.Tensor(self, value)                    the copy, filled with a 0-dim tensor's value (fill_)
//   lift_fresh_copy(self)                       the copy                       (a constant lifted into the graph)
//   slice_scatter(self, src, dim, start, end, step)      src written into copy[start:end:step] along dim
//   as_strided_scatter(self, src, size, stride, offset)  src written into copy.as_strided(size, stride, offset)
// The scatters require src to have exactly the view's sizes (no broadcasting) and convert its
// dtype; as_strided_scatter's offset defaults to the copy's (0), and its view must fit the copy's
// storage (setStorage's error otherwise).
#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/ScalarConvert.h"
#include "engine/ops/families/IndexingFamily.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/layout/ViewGeometry.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

// self.clone() with preserve_format.
TensorMeta copyLayout(const TensorMeta& self) { return freshLike(self, self.dtype, likeStrides(self, std::nullopt)); }

Tensor copyOf(const Tensor& self) {
  Tensor out = allocateTensor(copyLayout(self.meta()));
  copyInto(out, self);
  return out;
}

TensorMeta fillTensorLayout(const ValueList& margs) {
  const TensorMeta& value = metaArg(margs, 1);
  FATHOM_CHECK(value.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ", value.dim(),
               " dimensions.");
  return copyLayout(metaArg(margs, 0));
}

// The view of the copy that src is written into, checked against src's sizes.
TensorMeta checkedTarget(const TensorMeta& view, const TensorMeta& src) {
  bool same = view.dim() == src.dim();
  for (int64_t d = 0; same && d < view.dim(); ++d) same = symEq(view.sizes[d], src.sizes[d], "scatter: src size");
  FATHOM_CHECK(same, "expected src to have a size equal to the slice of self. src size = ", sizesStr(src.sizes),
               ", slice size = ", sizesStr(view.sizes));
  return view;
}

// slice_scatter(self, src, dim, start, end, step)
TensorMeta sliceTarget(const ValueList& margs, const TensorMeta& copy) {
  FATHOM_CHECK(copy.dim() > 0, "slice() cannot be applied to a 0-dim tensor.");
  const int64_t dim = wrapDim(intArg(margs, 2), copy.dim());
  const SymInt step = symIntArg(margs, 5);
  FATHOM_CHECK(symLt(0, step, "slice_scatter: step > 0"), "slice step must be positive");
  return checkedTarget(sliceView(copy, dim, optionalSymIntArg(margs, 3), optionalSymIntArg(margs, 4), step),
                       metaArg(margs, 1));
}

// as_strided_scatter(self, src, size, stride, storage_offset)
TensorMeta asStridedTarget(const ValueList& margs, const TensorMeta& copy) {
  SymIntList sizes = toSymIntList(margs.at(2)), strides = toSymIntList(margs.at(3));
  FATHOM_CHECK(sizes.size() == strides.size(), "mismatch in length of strides and shape");
  const SymInt offset = optionalSymIntArg(margs, 4).value_or(copy.storageOffset);
  FATHOM_CHECK(!symLt(offset, 0, "as_strided_scatter: negative offset"), "Tensor: invalid storage offset ", offset.str());
  for (const auto& s : strides)
    FATHOM_CHECK(!symLt(s, 0, "as_strided_scatter: negative stride"),
                 "as_strided: Negative strides are not supported at the moment, got strides: ", sizesStr(strides));
  return checkedTarget(viewOf(copy, std::move(sizes), std::move(strides), offset), metaArg(margs, 1));
}

using TargetFn = TensorMeta (*)(const ValueList& margs, const TensorMeta& copy);

template <TargetFn Target>
ValueList scatterMeta(const ValueList& args) {
  const TensorMeta copy = copyLayout(metaArg(args, 0));
  (void)Target(args, copy);
  return {copy};
}

// src written into a view of a copy of self: as ATen, `output.<view>(...).copy_(src)`.
template <TargetFn Target>
ValueList scatterKernel(const ValueList& args) {
  Tensor out = copyOf(tensorArg(args, 0));
  const TensorMeta view = Target(metaArgs(args), out.meta());
  Tensor src = tensorArg(args, 1);
  if (src.sharesStorageWith(out)) src = copyOf(src);
  copyInto(realizeView(out, view), src);
  return {out};
}

}  // namespace

void registerFunctionalizedOps(OpRegistry& r) {
  const auto copyMeta = [](const ValueList& args) { return ValueList{copyLayout(metaArg(args, 0))}; };
  (void)r.add("aten::zero(Tensor self) -> Tensor", copyMeta, [](const ValueList& args) {
    Tensor out = allocateTensor(copyLayout(tensorArg(args, 0).meta()));  // zero-filled
    return ValueList{out};
  });
  (void)r.add("aten::lift_fresh_copy(Tensor self) -> Tensor", copyMeta,
              [](const ValueList& args) { return ValueList{copyOf(tensorArg(args, 0))}; });
  (void)r.add(
      "aten::fill.Tensor(Tensor self, Tensor value) -> Tensor",
      [](const ValueList& args) { return ValueList{fillTensorLayout(args)}; },
      [](const ValueList& args) {
        Tensor out = allocateTensor(fillTensorLayout(metaArgs(args)));
        fillWith(out, itemOf(tensorArg(args, 1)));
        return ValueList{out};
      });
  (void)r.add(
      "aten::slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) "
      "-> Tensor",
      scatterMeta<sliceTarget>, scatterKernel<sliceTarget>);
  (void)r.add(
      "aten::as_strided_scatter(Tensor self, Tensor src, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) "
      "-> Tensor",
      scatterMeta<asStridedTarget>, scatterKernel<asStridedTarget>);
}

}  // namespace fathom
