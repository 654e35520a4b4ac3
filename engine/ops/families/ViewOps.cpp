// View ops: results share the input's storage; only sizes, strides and the storage offset
// change. Each op is one geometry function over TensorMeta (SymInt sizes); the meta function
// returns that geometry and the kernel applies the very same function to its tensor's metadata,
// then views the storage with it (realizeView). The op list is the table at the bottom.
#include <algorithm>

#include "engine/core/Error.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/layout/ViewGeometry.h"

namespace fathom {
namespace {

using GeometryFn = TensorMeta (*)(const ValueList& margs);

TensorMeta viewLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  const SymIntList sizes = inferViewSizes(toSymIntList(margs.at(1)), self.numel());
  auto strides = computeViewStrides(self.sizes, self.strides, sizes);
  FATHOM_CHECK(strides.has_value(),
               "view size is not compatible with input tensor's size and stride (at least one dimension spans "
               "across two contiguous subspaces). Use .reshape(...) instead.");
  return viewOf(self, sizes, std::move(*strides), self.storageOffset);
}

TensorMeta transposeDims(const TensorMeta& self, int64_t d0, int64_t d1) {
  d0 = wrapDim(d0, self.dim());
  d1 = wrapDim(d1, self.dim());
  TensorMeta out = viewOf(self, self.sizes, self.strides, self.storageOffset);
  if (d0 == d1 || self.dim() == 0) return out;
  std::swap(out.sizes[d0], out.sizes[d1]);
  std::swap(out.strides[d0], out.strides[d1]);
  return out;
}

TensorMeta tLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  FATHOM_CHECK(self.dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is ", self.dim(), "D");
  return transposeDims(self, 0, self.dim() < 2 ? 0 : 1);
}

TensorMeta transposeLayout(const ValueList& margs) {
  return transposeDims(metaArg(margs, 0), intArg(margs, 1), intArg(margs, 2));
}

TensorMeta permuteLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  const IntList dims = toIntList(margs.at(1));
  FATHOM_CHECK(static_cast<int64_t>(dims.size()) == self.dim(),
               "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
               "desired ordering of dimensions i.e. input.dim() = ",
               self.dim(), " is not equal to len(dims) = ", dims.size());
  SymIntList sizes, strides;
  std::vector<bool> seen(dims.size(), false);
  for (int64_t d : dims) {
    const int64_t w = wrapDim(d, self.dim());
    FATHOM_CHECK(!seen[w], "permute(): duplicate dims are not allowed.");
    seen[w] = true;
    sizes.push_back(self.sizes[w]);
    strides.push_back(self.strides[w]);
  }
  return viewOf(self, std::move(sizes), std::move(strides), self.storageOffset);
}

TensorMeta expandLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  const SymIntList sizes = toSymIntList(margs.at(1));
  // Checked here too for PyTorch's wording, which names the tensor type (torch.FloatTensor).
  FATHOM_CHECK(static_cast<int64_t>(sizes.size()) >= self.dim(), "expand(torch.", scalarTypeName(self.dtype),
               "Tensor{", sizesStr(self.sizes), "}, size=", sizesStr(sizes), "): the number of sizes provided (",
               sizes.size(), ") must be greater or equal to the number of dimensions in the tensor (", self.dim(), ")");
  Geometry g = expandGeometry(self, sizes);
  return viewOf(self, std::move(g.sizes), std::move(g.strides), self.storageOffset);
}

TensorMeta unsqueezeLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  const int64_t d = wrapDim(intArg(margs, 1), self.dim() + 1);
  SymIntList sizes = self.sizes, strides = self.strides;
  const SymInt stride = d >= self.dim() ? SymInt(1) : self.sizes[d] * self.strides[d];
  sizes.insert(sizes.begin() + d, SymInt(1));
  strides.insert(strides.begin() + d, stride);
  return viewOf(self, std::move(sizes), std::move(strides), self.storageOffset);
}

TensorMeta squeezeDimLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  const int64_t d = wrapDim(intArg(margs, 1), self.dim());
  SymIntList sizes = self.sizes, strides = self.strides;
  if (self.dim() > 0 && symEq(self.sizes[d], 1, "squeeze: is the dim size 1")) {
    sizes.erase(sizes.begin() + d);
    strides.erase(strides.begin() + d);
  }
  return viewOf(self, std::move(sizes), std::move(strides), self.storageOffset);
}

TensorMeta squeezeLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  SymIntList sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (symEq(self.sizes[d], 1, "squeeze: is the dim size 1")) continue;
    sizes.push_back(self.sizes[d]);
    strides.push_back(self.strides[d]);
  }
  return viewOf(self, std::move(sizes), std::move(strides), self.storageOffset);
}

TensorMeta aliasLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  return viewOf(self, self.sizes, self.strides, self.storageOffset);
}

// _reshape_alias trusts its caller (reshape) for the strides; only the ranks are checked.
TensorMeta reshapeAliasLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  SymIntList sizes = toSymIntList(margs.at(1)), strides = toSymIntList(margs.at(2));
  FATHOM_CHECK(sizes.size() == strides.size(), "dimensionality of sizes (", sizes.size(),
               ") must match dimensionality of strides (", strides.size(), ")");
  return viewOf(self, std::move(sizes), std::move(strides), self.storageOffset);
}

// as_strided's checks, in setStrided's order (the storage bound is the kernel's: only it knows
// the storage); the offset defaults to the input's.
TensorMeta asStridedLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  SymIntList sizes = toSymIntList(margs.at(1)), strides = toSymIntList(margs.at(2));
  const SymInt offset = optionalSymIntArg(margs, 3).value_or(self.storageOffset);
  FATHOM_CHECK(sizes.size() == strides.size(), "mismatch in length of strides and shape");
  FATHOM_CHECK(!symLt(offset, 0, "as_strided: negative offset"), "Tensor: invalid storage offset ", offset.str());
  for (const auto& s : strides)
    FATHOM_CHECK(!symLt(s, 0, "as_strided: negative stride"),
                 "as_strided: Negative strides are not supported at the moment, got strides: ", sizesStr(strides));
  for (const auto& s : sizes)
    FATHOM_CHECK(!symLt(s, 0, "as_strided: negative size"), "Trying to create tensor with negative dimension ",
                 s.str(), ": ", sizesStr(sizes));
  return viewOf(self, std::move(sizes), std::move(strides), offset);
}

TensorMeta sliceLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  FATHOM_CHECK(self.dim() > 0, "slice() cannot be applied to a 0-dim tensor.");
  const int64_t d = wrapDim(intArg(margs, 1), self.dim());
  return sliceView(self, d, optionalSymIntArg(margs, 2), optionalSymIntArg(margs, 3), symIntArg(margs, 4));
}

TensorMeta selectLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  FATHOM_CHECK(self.dim() > 0, "select() cannot be applied to a 0-dim tensor.");
  const int64_t d = wrapDim(intArg(margs, 1), self.dim());
  const SymInt size = self.sizes[d];
  SymInt index = symIntArg(margs, 2);
  FATHOM_CHECK(!symLt(index, SymInt(0) - size, "select: index in range") && symLt(index, size, "select: index in range"),
               "select(): index ", index.str(), " out of range for tensor of size ", sizesStr(self.sizes),
               " at dimension ", d);
  if (symLt(index, 0, "select: negative index")) index = index + size;
  SymIntList sizes = self.sizes, strides = self.strides;
  sizes.erase(sizes.begin() + d);
  strides.erase(strides.begin() + d);
  return viewOf(self, std::move(sizes), std::move(strides), self.storageOffset + index * self.strides[d]);
}

// diagonal(self, offset, dim1, dim2): dims dim1 and dim2 dropped, the diagonal appended as the last
// dim (stride: the sum of theirs), starting `offset` above (or below) the main diagonal.
TensorMeta diagonalLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  const int64_t offset = intArg(margs, 1), d1 = wrapDim(intArg(margs, 2), self.dim()), d2 = wrapDim(intArg(margs, 3), self.dim());
  FATHOM_CHECK(d1 != d2, "diagonal dimensions cannot be identical ", intArg(margs, 2), ", ", intArg(margs, 3));
  const SymInt size = offset >= 0 ? symMin(self.sizes[d1], self.sizes[d2] - SymInt(offset))
                                  : symMin(self.sizes[d1] + SymInt(offset), self.sizes[d2]);
  const bool empty = !symLt(SymInt(0), size, "diagonal: non-empty");
  SymInt storageOffset = self.storageOffset;
  if (!empty) storageOffset = storageOffset + (offset >= 0 ? SymInt(offset) * self.strides[d2] : SymInt(-offset) * self.strides[d1]);
  SymIntList sizes = self.sizes, strides = self.strides;
  for (int64_t d : {std::max(d1, d2), std::min(d1, d2)}) {
    sizes.erase(sizes.begin() + d);
    strides.erase(strides.begin() + d);
  }
  sizes.push_back(empty ? SymInt(0) : size);
  strides.push_back(self.strides[d1] + self.strides[d2]);
  return viewOf(self, std::move(sizes), std::move(strides), storageOffset);
}

struct ViewOp {
  const char* schema;
  GeometryFn layout;
};

constexpr ViewOp kViewOps[] = {
    {"aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)", viewLayout},
    {"aten::_unsafe_view(Tensor self, SymInt[] size) -> Tensor", viewLayout},
    {"aten::t(Tensor(a) self) -> Tensor(a)", tLayout},
    {"aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", transposeLayout},
    {"aten::permute(Tensor(a) self, int[] dims) -> Tensor(a)", permuteLayout},
    {"aten::expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)", expandLayout},
    {"aten::unsqueeze(Tensor(a) self, int dim) -> Tensor(a)", unsqueezeLayout},
    {"aten::squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)", squeezeDimLayout},
    {"aten::squeeze(Tensor(a) self) -> Tensor(a)", squeezeLayout},
    {"aten::alias(Tensor(a) self) -> Tensor(a)", aliasLayout},
    {"aten::detach(Tensor(a) self) -> Tensor(a)", aliasLayout},
    {"aten::_reshape_alias(Tensor(a) self, SymInt[] size, SymInt[] stride) -> Tensor(a)", reshapeAliasLayout},
    {"aten::as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)",
     asStridedLayout},
    {"aten::slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)",
     sliceLayout},
    {"aten::select.int(Tensor(a) self, int dim, int index) -> Tensor(a)", selectLayout},
    {"aten::diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)", diagonalLayout},
};

}  // namespace

void registerViewOps(OpRegistry& registry) {
  for (const ViewOp& op : kViewOps) {
    const GeometryFn layout = op.layout;
    (void)registry.add(
        op.schema, [layout](const ValueList& args) { return ValueList{layout(args)}; },
        [layout](const ValueList& args) { return ValueList{realizeView(tensorArg(args, 0), layout(metaArgs(args)))}; });
  }
}

}  // namespace fathom
