// View geometry: view's size inference and stride computation, slicing (see ViewGeometry.h).
#include "engine/ops/layout/ViewGeometry.h"

#include <climits>

#include "engine/core/Error.h"
#include "engine/ops/layout/Broadcast.h"

namespace fathom {

SymIntList inferViewSizes(const SymIntList& requested, const SymInt& numel) {
  SymIntList out = requested;
  SymInt known = 1;
  std::optional<size_t> inferred;
  for (size_t d = 0; d < requested.size(); ++d) {
    const SymInt& s = requested[d];
    if (auto c = s.maybeConcrete(); c && *c == -1) {
      FATHOM_CHECK(!inferred, "only one dimension can be inferred");
      inferred = d;
    } else {
      FATHOM_CHECK(!symLt(s, 0, "view: negative size"), "invalid shape dimension ", s.str());
      known = known * s;
    }
  }
  const bool exact = symEq(numel, known, "view: element count matches");
  if (exact || (inferred && !symEq(known, 0, "view: inferred dim of an empty shape") &&
                symEq(mod(numel, known), 0, "view: inferred dim divides"))) {
    if (inferred) {
      FATHOM_CHECK(!symEq(known, 0, "view: inferred dim of an empty shape"), "cannot reshape tensor of 0 elements into shape ",
                   sizesStr(requested), " because the unspecified dimension size -1 can be any value and is ambiguous");
      out[*inferred] = floorDiv(numel, known);
    }
    return out;
  }
  throwOpError("shape '" + sizesStr(requested) + "' is invalid for input of size " + numel.str());
}

namespace {
// Strides for a view of an empty tensor: any strides work; PyTorch uses resize's.
SymIntList emptyViewStrides(const SymIntList& newSizes) {
  SymIntList strides(newSizes.size());
  for (int64_t d = static_cast<int64_t>(newSizes.size()) - 1; d >= 0; --d)
    strides[d] = d + 1 == static_cast<int64_t>(newSizes.size()) ? SymInt(1)
                                                               : symMax(newSizes[d + 1], 1) * strides[d + 1];
  return strides;
}
}  // namespace

// Walks the old dims from the last, cutting them into chunks that are contiguous among
// themselves; each chunk must be covered exactly by consecutive new dims, which then get
// strides within the chunk.
std::optional<SymIntList> computeViewStrides(const SymIntList& oldSizes, const SymIntList& oldStrides,
                                             const SymIntList& newSizes) {
  if (oldSizes.empty()) return SymIntList(newSizes.size(), SymInt(1));
  SymInt numel = 1;
  for (const auto& s : oldSizes) numel = numel * s;
  if (symEq(numel, 0, "view: empty tensor")) {
    bool same = oldSizes.size() == newSizes.size();
    for (size_t i = 0; same && i < oldSizes.size(); ++i) same = symEq(oldSizes[i], newSizes[i], "view: same sizes");
    return same ? oldStrides : emptyViewStrides(newSizes);
  }
  SymIntList newStrides(newSizes.size());
  int64_t viewD = static_cast<int64_t>(newSizes.size()) - 1;
  SymInt chunkBaseStride = oldStrides.back(), tensorNumel = 1, viewNumel = 1;
  for (int64_t d = static_cast<int64_t>(oldSizes.size()) - 1; d >= 0; --d) {
    tensorNumel = tensorNumel * oldSizes[d];
    const bool chunkEnds = d == 0 || (!symEq(oldSizes[d - 1], 1, "view: size-1 dim") &&
                                      !symEq(oldStrides[d - 1], tensorNumel * chunkBaseStride, "view: contiguous chunk"));
    if (!chunkEnds) continue;
    while (viewD >= 0 && (symLt(viewNumel, tensorNumel, "view: chunk covered") ||
                          symEq(newSizes[viewD], 1, "view: size-1 dim"))) {
      newStrides[viewD] = viewNumel * chunkBaseStride;
      viewNumel = viewNumel * newSizes[viewD];
      --viewD;
    }
    if (!symEq(viewNumel, tensorNumel, "view: chunk covered")) return std::nullopt;
    if (d > 0) {
      chunkBaseStride = oldStrides[d - 1];
      tensorNumel = 1;
      viewNumel = 1;
    }
  }
  if (viewD != -1) return std::nullopt;
  return newStrides;
}

TensorMeta viewOf(const TensorMeta& self, SymIntList sizes, SymIntList strides, SymInt offset) {
  TensorMeta out = self;
  out.sizes = std::move(sizes);
  out.strides = std::move(strides);
  out.storageOffset = std::move(offset);
  out.requiresGrad = false;
  return out;
}

TensorMeta sliceView(const TensorMeta& self, int64_t dim, std::optional<SymInt> startArg, std::optional<SymInt> endArg,
                     const SymInt& step) {
  const SymInt size = self.sizes[dim];
  FATHOM_CHECK(symLt(0, step, "slice: positive step"), "slice step must be positive");
  SymInt start = startArg.value_or(SymInt(0)), end = endArg.value_or(SymInt(INT64_MAX));
  if (symLt(start, 0, "slice: negative start")) start = start + size;
  if (symLt(end, 0, "slice: negative end")) end = end + size;
  if (symLt(start, 0, "slice: start below 0")) start = 0;
  else if (symGe(start, size, "slice: start past the end")) start = size;
  if (symLt(end, start, "slice: end before start")) end = start;
  else if (symGe(end, size, "slice: end past the end")) end = size;
  SymIntList sizes = self.sizes, strides = self.strides;
  sizes[dim] = floorDiv(end - start + step - 1, step);
  strides[dim] = self.strides[dim] * step;
  return viewOf(self, std::move(sizes), std::move(strides), self.storageOffset + start * self.strides[dim]);
}

namespace {
IntList concrete(const SymIntList& v) {
  IntList out;
  for (const auto& s : v) out.push_back(s.hint());
  return out;
}
}  // namespace

Tensor realizeView(const Tensor& t, const TensorMeta& view) {
  const IntList sizes = concrete(view.sizes), strides = concrete(view.strides);
  const int64_t offset = view.storageOffset.hint();
  auto bytes = storageBytesFor(sizes, strides, 0, t.dtype());
  if (!bytes.ok()) throw OpError(bytes.error().message);
  const size_t itemsize = elementSize(t.dtype());
  const size_t needed = *bytes + (*bytes ? static_cast<size_t>(offset) * itemsize : 0);
  FATHOM_CHECK(needed <= t.storage()->nbytes(), "setStorage: sizes ", sizesStr(view.sizes), ", strides ",
               sizesStr(view.strides), ", storage offset ", offset, ", and itemsize ", itemsize,
               " requiring a storage size of ", needed, " are out of bounds for storage of size ",
               t.storage()->nbytes());
  auto out = t.asStrided(sizes, strides, offset);
  if (!out.ok()) throw OpError(out.error().message);
  return std::move(*out);
}

}  // namespace fathom
