// View and shape frontend ops. reshape follows PyTorch 1.13's at::reshape: infer -1, ask
// computeStride whether the new shape can view the old layout, and record _reshape_alias with
// those strides when it can, clone(contiguous) + _unsafe_view when it cannot.
#include <cstdint>
#include <limits>
#include <optional>

#include "engine/frontend/OpCall.h"
#include "engine/frontend/Functional.h"

namespace fathom::frontend {
namespace {


// PyTorch's at::detail::computeStride: the strides viewing a tensor of (oldShape, oldStride) as
// newShape, or nullopt when no view can. Decisions on symbolic sizes are recorded as guards.
std::optional<SymIntList> computeStride(const SymIntList& oldShape, const SymIntList& oldStride,
                                        const SymIntList& newShape) {
  constexpr std::string_view why = "reshape: can the new shape view the old layout";
  if (oldShape.empty()) return SymIntList(newShape.size(), SymInt(1));
  SymInt numel = 1;
  for (const auto& s : oldShape) numel = numel * s;
  SymIntList newStride(newShape.size());
  if (symEq(numel, 0, why)) {
    // An empty tensor: any strides work; PyTorch keeps the old ones for the same shape.
    bool same = oldShape.size() == newShape.size();
    for (size_t i = 0; same && i < oldShape.size(); ++i) same = symEq(oldShape[i], newShape[i], why);
    if (same) return oldStride;
    for (int64_t d = static_cast<int64_t>(newShape.size()) - 1; d >= 0; --d) {
      const size_t i = static_cast<size_t>(d);
      newStride[i] = i + 1 == newShape.size() ? SymInt(1) : symMax(newShape[i + 1], 1) * newStride[i + 1];
    }
    return newStride;
  }
  int64_t viewD = static_cast<int64_t>(newShape.size()) - 1;
  SymInt chunkBaseStride = oldStride.back(), tensorNumel = 1, viewNumel = 1;
  for (int64_t tensorD = static_cast<int64_t>(oldShape.size()) - 1; tensorD >= 0; --tensorD) {
    const size_t t = static_cast<size_t>(tensorD);
    tensorNumel = tensorNumel * oldShape[t];
    const bool chunkEnds = tensorD == 0 || (!symEq(oldShape[t - 1], 1, why) &&
                                            !symEq(oldStride[t - 1], tensorNumel * chunkBaseStride, why));
    if (!chunkEnds) continue;
    while (viewD >= 0 && (symLt(viewNumel, tensorNumel, why) || symEq(newShape[static_cast<size_t>(viewD)], 1, why))) {
      newStride[static_cast<size_t>(viewD)] = viewNumel * chunkBaseStride;
      viewNumel = viewNumel * newShape[static_cast<size_t>(viewD)];
      --viewD;
    }
    if (!symEq(viewNumel, tensorNumel, why)) return std::nullopt;
    if (tensorD > 0) {
      chunkBaseStride = oldStride[t - 1];
      tensorNumel = 1;
      viewNumel = 1;
    }
  }
  if (viewD != -1) return std::nullopt;
  return newStride;
}

// `sizes` with a -1 replaced by what the element count implies.
SymValues inferSize(const Tensor& x, const SymValues& sizes, const Loc& loc) {
  int64_t inferred = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i].isSymbolic() || sizes[i].hint() != -1) continue;
    if (inferred >= 0) fail("only one dimension can be inferred", loc);
    inferred = static_cast<int64_t>(i);
  }
  if (inferred < 0) return sizes;
  const SymValues old = x.sizes(loc);
  SymValues out = sizes;
  SymValues others = sizes;
  others.erase(others.begin() + inferred);
  const SymValue known = product(others);
  if (!known.isSymbolic() && known.hint() == 0) fail("cannot reshape a tensor with a -1 next to a 0 size", loc);
  out[static_cast<size_t>(inferred)] = floorDiv(product(old), known);
  return out;
}

SymIntList symInts(const SymValues& sizes) {
  SymIntList out;
  for (const auto& s : sizes) out.push_back(s.sym());
  return out;
}

// The strides of a single-chunk view of a contiguous tensor: suffix products of the new sizes,
// as size arithmetic (so symbolic ones are graph nodes).
SymValues suffixProducts(const SymValues& sizes) {
  SymValues strides(sizes.size(), SymValue(1));
  for (size_t i = sizes.size(); i-- > 1;) strides[i - 1] = product({strides[i], sizes[i]});
  return strides;
}

}  // namespace

Tensor view(const Tensor& x, const SymValues& sizes, Loc loc) {
  return callOp1("aten.view.default", {x, sizes}, {}, loc);
}

Tensor unsafeView(const Tensor& x, const SymValues& sizes, Loc loc) {
  return callOp1("aten._unsafe_view.default", {x, sizes}, {}, loc);
}

Tensor reshape(const Tensor& x, const SymValues& sizes, Loc loc) {
  const SymValues shape = inferSize(x, sizes, loc);
  const TensorMeta m = x.meta();
  std::optional<SymIntList> strides;
  try {
    strides = computeStride(m.sizes, m.strides, symInts(shape));
  } catch (const OpError& e) {
    fail(e.what(), loc);
  }
  if (!strides) return unsafeView(clone(x, loc), shape, loc);
  bool concrete = true;
  for (const auto& s : *strides) concrete &= !s.isSymbolic();
  if (concrete) {
    SymValues st;
    for (const auto& s : *strides) st.emplace_back(s.hint());
    return callOp1("aten._reshape_alias.default", {x, shape, st}, {}, loc);
  }
  // Symbolic strides become graph values only where they are products of the new sizes (a
  // contiguous input); other views are recorded as aten.view, which makes the same decision.
  if (x.isContiguous() && !m.strides.back().isSymbolic() && m.strides.back().hint() == 1)
    return callOp1("aten._reshape_alias.default", {x, shape, suffixProducts(shape)}, {}, loc);
  return view(x, shape, loc);
}

Tensor flatten(const Tensor& x, int64_t startDim, int64_t endDim, Loc loc) {
  const int64_t rank = x.dim();
  if (rank == 0) return reshape(x, {1}, loc);
  const int64_t start = startDim < 0 ? startDim + rank : startDim, end = endDim < 0 ? endDim + rank : endDim;
  if (start < 0 || end >= rank || start > end) fail("flatten: start_dim and end_dim out of range", loc);
  if (start == end) return x;
  const SymValues old = x.sizes(loc);
  SymValues shape(old.begin(), old.begin() + start);
  shape.push_back(product(SymValues(old.begin() + start, old.begin() + end + 1)));
  shape.insert(shape.end(), old.begin() + end + 1, old.end());
  return reshape(x, shape, loc);
}

Tensor permute(const Tensor& x, const IntList& dims, Loc loc) {
  return callOp1("aten.permute.default", {x, dims}, {}, loc);
}

Tensor transpose(const Tensor& x, int64_t dim0, int64_t dim1, Loc loc) {
  return callOp1("aten.transpose.int", {x, dim0, dim1}, {}, loc);
}

Tensor t(const Tensor& x, Loc loc) { return callOp1("aten.t.default", {x}, {}, loc); }

Tensor expand(const Tensor& x, const SymValues& sizes, Loc loc) {
  return callOp1("aten.expand.default", {x, sizes}, {}, loc);
}

Tensor unsqueeze(const Tensor& x, int64_t dim, Loc loc) {
  return callOp1("aten.unsqueeze.default", {x, dim}, {}, loc);
}

Tensor contiguous(const Tensor& x, Loc loc) { return x.isContiguous() ? x : clone(x, loc); }

Tensor clone(const Tensor& x, Loc loc) {
  return callOp1("aten.clone.default", {x}, {{"memory_format", MemoryFormat::Contiguous}}, loc);
}

Tensor slice(const Tensor& x, int64_t dim, const SymValue& start, std::optional<SymValue> end, int64_t step,
             Loc loc) {
  const SymValue stop = end ? *end : SymValue(std::numeric_limits<int64_t>::max());
  if (step == 1) return callOp1("aten.slice.Tensor", {x, dim, start, stop}, {}, loc);
  return callOp1("aten.slice.Tensor", {x, dim, start, stop, step}, {}, loc);
}

Tensor select(const Tensor& x, int64_t dim, int64_t index, Loc loc) {
  return callOp1("aten.select.int", {x, dim, index}, {}, loc);
}

std::vector<Tensor> split(const Tensor& x, int64_t splitSize, int64_t dim, Loc loc) {
  if (dim == 0) return callOp("aten.split.Tensor", {x, splitSize}, {}, loc);
  return callOp("aten.split.Tensor", {x, splitSize, dim}, {}, loc);
}

Tensor cat(const std::vector<Tensor>& tensors, int64_t dim, Loc loc) {
  if (dim == 0) return callOp1("aten.cat.default", {tensors}, {}, loc);
  return callOp1("aten.cat.default", {tensors, dim}, {}, loc);
}

}  // namespace fathom::frontend
