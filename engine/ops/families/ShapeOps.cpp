// Shape ops beyond plain views: reshape (a view when the strides allow one, else a contiguous
// copy), split and unbind (lists of views), flip (a copy reading the input backwards), repeat (a tiled
// copy), cat and stack (see Concat.h). Meta functions and kernels share one layout function per op.
#include "engine/core/Error.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/layout/Concat.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/Loops.h"
#include "engine/ops/layout/ContiguousOutput.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/layout/ViewGeometry.h"

namespace fathom {
namespace {

// reshape: computeStride decides. A view keeps the storage; otherwise reshape is
// _unsafe_view(clone(contiguous_format)), whose strides come from viewing the contiguous copy.
struct ReshapePlan {
  bool copies = false;
  TensorMeta contiguousCopy;  // when copies
  TensorMeta result;
};

ReshapePlan reshapePlan(const TensorMeta& self, const SymIntList& requested) {
  const SymIntList sizes = inferViewSizes(requested, self.numel());
  ReshapePlan plan;
  if (auto strides = computeViewStrides(self.sizes, self.strides, sizes)) {
    plan.result = viewOf(self, sizes, std::move(*strides), self.storageOffset);
    return plan;
  }
  plan.copies = true;
  plan.contiguousCopy = freshLike(self, self.dtype, contiguousStrides(self.sizes));
  auto strides = computeViewStrides(self.sizes, plan.contiguousCopy.strides, sizes);
  FATHOM_CHECK(strides.has_value(), "reshape: cannot view a contiguous tensor as ", sizes.size(), "-d");
  plan.result = viewOf(plan.contiguousCopy, sizes, std::move(*strides), 0);
  return plan;
}

ValueList reshapeMeta(const ValueList& args) {
  return {reshapePlan(metaArg(args, 0), toSymIntList(args.at(1))).result};
}

ValueList reshapeKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  const ReshapePlan plan = reshapePlan(self.meta(), toSymIntList(args.at(1)));
  if (!plan.copies) return {realizeView(self, plan.result)};
  Tensor copy = allocateTensor(plan.contiguousCopy);
  copyInto(copy, self);
  return {realizeView(copy, plan.result)};
}

// split.Tensor: narrow()s of split_size along dim; the last one takes the rest.
std::vector<TensorMeta> splitLayout(const TensorMeta& self, int64_t splitSize, int64_t dim) {
  FATHOM_CHECK(self.dim() != 0, "split expects at least a 1-dimensional tensor");
  FATHOM_CHECK(splitSize >= 0, "split expects split_size be non-negative, but got split_size=", splitSize);
  dim = wrapDim(dim, self.dim());
  const SymInt dimSize = self.sizes[dim];
  FATHOM_CHECK(splitSize > 0 || symEq(dimSize, 0, "split: empty dim"),
               "split_size can only be 0 if dimension size is 0, but got dimension size of ", dimSize.str());
  // The number of pieces must be concrete: on a symbolic size it is guarded at its hint.
  int64_t numSplits = 1;
  if (splitSize != 0) {
    const SymInt pieces = floorDiv(dimSize + SymInt(splitSize - 1), SymInt(splitSize));
    numSplits = std::max<int64_t>(pieces.hint(), 1);
    (void)symEq(pieces, pieces.hint(), "split: number of pieces");
  }
  std::vector<TensorMeta> out;
  for (int64_t i = 0; i < numSplits; ++i) {
    const SymInt start = SymInt(i * splitSize);
    const SymInt end = i + 1 < numSplits ? SymInt((i + 1) * splitSize) : dimSize;
    out.push_back(sliceView(self, dim, start, end, 1));
  }
  return out;
}

// split_with_sizes: narrow()s of the given lengths along dim, which must add up to its size.
std::vector<TensorMeta> splitWithSizesLayout(const TensorMeta& self, const IntList& lengths, int64_t dim) {
  FATHOM_CHECK(self.dim() != 0, "split expects at least a 1-dimensional tensor");
  dim = wrapDim(dim, self.dim());
  const SymInt dimSize = self.sizes[dim];
  std::vector<TensorMeta> out;
  int64_t start = 0;
  for (int64_t length : lengths) {
    FATHOM_CHECK(length >= 0, "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=",
                 sizesStr({lengths.begin(), lengths.end()}));
    out.push_back(sliceView(self, dim, SymInt(start), SymInt(start + length), 1));
    start += length;
  }
  FATHOM_CHECK(symEq(dimSize, start, "split_with_sizes: the lengths add up to the dim"),
               "split_with_sizes expects split_sizes to sum exactly to ", dimSize.str(), " (input tensor's size at dimension ",
               dim, "), but got split_sizes=", sizesStr({lengths.begin(), lengths.end()}));
  return out;
}

ValueList splitMeta(const ValueList& args) {
  ValueList pieces;
  for (auto& m : splitLayout(metaArg(args, 0), intArg(args, 1), intArg(args, 2))) pieces.emplace_back(std::move(m));
  return {Value(std::move(pieces))};
}

ValueList splitKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  ValueList pieces;
  for (const auto& m : splitLayout(self.meta(), intArg(args, 1), intArg(args, 2)))
    pieces.emplace_back(realizeView(self, m));
  return {Value(std::move(pieces))};
}

ValueList splitWithSizesMeta(const ValueList& args) {
  ValueList pieces;
  for (auto& m : splitWithSizesLayout(metaArg(args, 0), *optionalIntListArg(args, 1), intArg(args, 2))) pieces.emplace_back(std::move(m));
  return {Value(std::move(pieces))};
}

ValueList splitWithSizesKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  ValueList pieces;
  for (const auto& m : splitWithSizesLayout(self.meta(), *optionalIntListArg(args, 1), intArg(args, 2)))
    pieces.emplace_back(realizeView(self, m));
  return {Value(std::move(pieces))};
}

// unbind: select(self, dim, i) for every i, views of self. The number of results is the graph's
// structure, so the dim's size must be a constant; the other sizes may be symbolic.
std::vector<TensorMeta> unbindLayout(const TensorMeta& self, int64_t dim) {
  FATHOM_CHECK(self.dim() > 0, "Dimension specified as ", dim, " but tensor has no dimensions");
  dim = wrapDim(dim, self.dim());
  const std::optional<int64_t> count = self.sizes[dim].maybeConcrete();
  FATHOM_CHECK(count.has_value(), "unbind: dimension ", dim, " has the symbolic size ", self.sizes[dim].str(),
               "; Fathom unbinds only a dimension of constant size (the number of results must be known)");
  SymIntList sizes = self.sizes, strides = self.strides;
  sizes.erase(sizes.begin() + dim);
  strides.erase(strides.begin() + dim);
  std::vector<TensorMeta> out;
  for (int64_t i = 0; i < *count; ++i)
    out.push_back(viewOf(self, sizes, strides, self.storageOffset + SymInt(i) * self.strides[dim]));
  return out;
}

ValueList unbindMeta(const ValueList& args) {
  ValueList pieces;
  for (auto& m : unbindLayout(metaArg(args, 0), intArg(args, 1))) pieces.emplace_back(std::move(m));
  return {Value(std::move(pieces))};
}

ValueList unbindKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  ValueList pieces;
  for (const auto& m : unbindLayout(self.meta(), intArg(args, 1))) pieces.emplace_back(realizeView(self, m));
  return {Value(std::move(pieces))};
}

// flip: the output is empty_like(self) (preserve_format); each flipped dim is read backwards.
std::vector<bool> flipDims(const TensorMeta& self, const IntList& dims) {
  std::vector<bool> flipped(static_cast<size_t>(std::max<int64_t>(self.dim(), 1)), false);
  for (int64_t d : dims) {
    const int64_t w = wrapDim(d, self.dim());
    FATHOM_CHECK(!flipped[w], "dim ", w, " appears multiple times in the list of dims");
    flipped[w] = true;
  }
  return flipped;
}

TensorMeta flipLayout(const TensorMeta& self, const IntList& dims) {
  (void)flipDims(self, dims);
  return freshLike(self, self.dtype, likeStrides(self, std::nullopt));
}

ValueList flipKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  const IntList dims = toIntList(args.at(1));
  const std::vector<bool> flipped = flipDims(self.meta(), dims);
  Tensor out = allocateTensor(flipLayout(self.meta(), dims));
  const int64_t es = static_cast<int64_t>(elementSize(self.dtype()));
  const std::byte* src = static_cast<const std::byte*>(self.data());
  IntList srcStrides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    const int64_t stride = self.stride(d) * es;
    if (flipped[d] && self.size(d) > 1) {
      src += (self.size(d) - 1) * stride;  // start at the last element, walk back
      srcStrides.push_back(-stride);
    } else {
      srcStrides.push_back(stride);
    }
  }
  if (out.numel() > 0) copyStridedInto(out, src, srcStrides, self.dtype());
  return {out};
}

template <class T>
std::vector<T> tensorListArg(const ValueList& args, size_t i) {
  FATHOM_CHECK(args.at(i).is<ValueList>(), "expected a list of tensors but got ", args[i].kindName());
  std::vector<T> out;
  for (const auto& v : args[i].as<ValueList>()) {
    FATHOM_CHECK(v.is<T>(), "expected a tensor in the list but got ", v.kindName());
    out.push_back(v.as<T>());
  }
  return out;
}

// repeat(self, repeats): a fresh contiguous tensor of sizes (1-padded self sizes) * repeats, where
// out[i] = self[i % size] in every dim.
TensorMeta repeatLayout(const TensorMeta& self, const SymIntList& repeats) {
  FATHOM_CHECK(static_cast<int64_t>(repeats.size()) >= self.dim(),
               "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  const size_t lead = repeats.size() - self.sizes.size();
  SymIntList sizes;
  for (size_t d = 0; d < repeats.size(); ++d) sizes.push_back((d < lead ? SymInt(1) : self.sizes[d - lead]) * repeats[d]);
  for (const auto& s : sizes)
    FATHOM_CHECK(!symLt(s, 0, "repeat: negative size"), "Trying to create tensor with negative dimension ", s.str(), ": ",
                 sizesStr(sizes));
  return contiguousOutput(self, std::move(sizes));
}

ValueList repeatKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  const IntList repeats = toIntList(args.at(1));
  Tensor out = allocateTensor(repeatLayout(self.meta(), toSymIntList(args.at(1))));
  if (out.numel() == 0) return {out};
  // out viewed as [r0, s0, r1, s1, ...] (contiguous), filled from self broadcast over the r dims.
  const size_t lead = repeats.size() - static_cast<size_t>(self.dim());
  IntList viewSizes, srcStrides;
  for (size_t d = 0; d < repeats.size(); ++d) {
    const int64_t size = d < lead ? 1 : self.size(static_cast<int64_t>(d - lead));
    viewSizes.insert(viewSizes.end(), {repeats[d], size});
    srcStrides.insert(srcStrides.end(), {0, d < lead ? 0 : self.stride(static_cast<int64_t>(d - lead))});
  }
  TensorMeta view = out.meta();
  view.sizes.assign(viewSizes.begin(), viewSizes.end());
  view.strides = contiguousStrides(view.sizes);
  IntList byteStrides;
  for (int64_t s : srcStrides) byteStrides.push_back(s * static_cast<int64_t>(elementSize(self.dtype())));
  copyStridedInto(realizeView(out, view), bytePtr(self), byteStrides, self.dtype());
  return {out};
}

}  // namespace

void registerShapeOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::repeat(Tensor self, SymInt[] repeats) -> Tensor",
      [](const ValueList& args) { return ValueList{repeatLayout(metaArg(args, 0), toSymIntList(args.at(1)))}; },
      repeatKernel);
  (void)registry.add("aten::reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)", reshapeMeta, reshapeKernel);
  (void)registry.add("aten::split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]", splitMeta,
                     splitKernel);
  (void)registry.add("aten::split_with_sizes(Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[]",
                     splitWithSizesMeta, splitWithSizesKernel);
  (void)registry.add("aten::unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]", unbindMeta, unbindKernel);
  (void)registry.add(
      "aten::flip(Tensor self, int[] dims) -> Tensor",
      [](const ValueList& args) { return ValueList{flipLayout(metaArg(args, 0), toIntList(args.at(1)))}; },
      flipKernel);
  (void)registry.add(
      "aten::cat(Tensor[] tensors, int dim=0) -> Tensor",
      [](const ValueList& args) {
        return ValueList{catLayout(tensorListArg<TensorMeta>(args, 0), intArg(args, 1)).output};
      },
      [](const ValueList& args) { return ValueList{catTensors(tensorListArg<Tensor>(args, 0), intArg(args, 1))}; });
  (void)registry.add(
      "aten::stack(Tensor[] tensors, int dim=0) -> Tensor",
      [](const ValueList& args) { return ValueList{stackLayout(tensorListArg<TensorMeta>(args, 0), intArg(args, 1))}; },
      [](const ValueList& args) { return ValueList{stackTensors(tensorListArg<Tensor>(args, 0), intArg(args, 1))}; });
}

}  // namespace fathom
