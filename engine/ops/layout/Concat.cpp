// cat and stack layouts and kernels (see Concat.h).
#include "engine/ops/layout/Concat.h"

#include "engine/core/DType.h"
#include "engine/core/Error.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/layout/ViewGeometry.h"

namespace fathom {
namespace {

// cat_should_skip_tensor: the only empty tensors old PyTorch could make were 1-d.
bool skippedByCat(const TensorMeta& t) { return t.dim() == 1 && symEq(t.sizes[0], 0, "cat: skip 1-d empty inputs"); }

// cat_compute_output_memory_format.
SuggestedFormat catMemoryFormat(const std::vector<TensorMeta>& inputs) {
  std::optional<SuggestedFormat> format;
  for (const auto& t : inputs) {
    const SuggestedFormat f = suggestMemoryFormat(t);
    if (f == SuggestedFormat::Contiguous) return f;
    if (format && *format != f) return SuggestedFormat::Contiguous;
    format = f;
  }
  return format.value_or(SuggestedFormat::Contiguous);
}

void checkCatShape(const TensorMeta& first, const TensorMeta& t, int64_t dim, size_t index) {
  FATHOM_CHECK(first.dim() == t.dim(), "Tensors must have same number of dimensions: got ", first.dim(), " and ",
               t.dim());
  for (int64_t d = 0; d < first.dim(); ++d) {
    if (d == dim) continue;
    FATHOM_CHECK(symEq(first.sizes[d], t.sizes[d], "cat: sizes match except in the cat dim"),
                 "Sizes of tensors must match except in dimension ", dim, ". Expected size ", first.sizes[d].str(),
                 " but got size ", t.sizes[d].str(), " for tensor number ", index, " in the list.");
  }
}

std::vector<TensorMeta> metasOf(const std::vector<Tensor>& tensors) {
  std::vector<TensorMeta> out;
  out.reserve(tensors.size());
  for (const auto& t : tensors) out.push_back(t.meta());
  return out;
}

}  // namespace

CatLayout catLayout(const std::vector<TensorMeta>& inputs, int64_t dim) {
  for (size_t i = 0; i < inputs.size(); ++i)
    FATHOM_CHECK(inputs[i].dim() > 0, "zero-dimensional tensor (at position ", i, ") cannot be concatenated");
  const TensorMeta* valid = nullptr;  // the first input not skipped: it decides the shape
  for (const auto& t : inputs) {
    if (!skippedByCat(t)) {
      valid = &t;
      break;
    }
  }
  if (valid) dim = wrapDim(dim, valid->dim());
  FATHOM_CHECK(!inputs.empty(), "torch.cat(): expected a non-empty list of Tensors");
  ResultTypeState types;
  for (const auto& t : inputs) types.addTensor(t.dtype, t.dim());
  CatLayout out;
  out.dim = dim;
  out.output.dtype = types.result();
  out.output.device = inputs[0].device;
  out.output.sizes = {SymInt(0)};
  if (valid) {
    out.output.sizes = valid->sizes;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (skippedByCat(inputs[i]) || &inputs[i] == valid) continue;
      checkCatShape(*valid, inputs[i], dim, i);
      out.output.sizes[dim] = out.output.sizes[dim] + inputs[i].sizes[dim];
    }
  }
  out.output.strides = suggestedFormatStrides(out.output.sizes, catMemoryFormat(inputs));
  return out;
}

Tensor catTensors(const std::vector<Tensor>& inputs, int64_t dim) {
  const CatLayout layout = catLayout(metasOf(inputs), dim);
  Tensor out = allocateTensor(layout.output);
  const TensorMeta outMeta = out.meta();
  int64_t offset = 0;
  for (const auto& t : inputs) {
    if (skippedByCat(t.meta())) continue;
    const int64_t size = t.size(layout.dim);
    copyInto(realizeView(out, sliceView(outMeta, layout.dim, offset, offset + size, 1)), t);
    offset += size;
  }
  return out;
}

namespace {

void checkStackInputs(const std::vector<TensorMeta>& inputs) {
  FATHOM_CHECK(!inputs.empty(), "stack expects a non-empty TensorList");
  for (size_t i = 1; i < inputs.size(); ++i) {
    bool same = inputs[i].dim() == inputs[0].dim();
    for (int64_t d = 0; same && d < inputs[0].dim(); ++d)
      same = symEq(inputs[i].sizes[d], inputs[0].sizes[d], "stack: inputs of equal size");
    FATHOM_CHECK(same, "stack expects each tensor to be equal size, but got ", sizesStr(inputs[0].sizes),
                 " at entry 0 and ", sizesStr(inputs[i].sizes), " at entry ", i);
  }
}

// Stacking before the last dim: cat's result viewed with the stacked dim split out of `dim`.
TensorMeta stackedView(const TensorMeta& cat, const std::vector<TensorMeta>& inputs, int64_t dim) {
  SymIntList sizes = inputs[0].sizes;
  sizes.insert(sizes.begin() + dim, SymInt(static_cast<int64_t>(inputs.size())));
  auto strides = computeViewStrides(cat.sizes, cat.strides, sizes);
  FATHOM_CHECK(strides.has_value(), "stack: cannot view the concatenation as ", sizesStr(sizes));
  return viewOf(cat, std::move(sizes), std::move(*strides), cat.storageOffset);
}

// Stacking after the last dim: every input gets a trailing size-1 dim (unsqueeze(-1)).
TensorMeta withTrailingDim(const TensorMeta& t) {
  SymIntList sizes = t.sizes, strides = t.strides;
  sizes.push_back(SymInt(1));
  strides.push_back(SymInt(1));
  return viewOf(t, std::move(sizes), std::move(strides), t.storageOffset);
}

}  // namespace

TensorMeta stackLayout(const std::vector<TensorMeta>& inputs, int64_t dim) {
  FATHOM_CHECK(!inputs.empty(), "stack expects a non-empty TensorList");
  const int64_t ndim = inputs[0].dim();
  dim = wrapDim(dim, ndim + 1);
  checkStackInputs(inputs);
  std::vector<TensorMeta> parts;
  if (dim < ndim) return stackedView(catLayout(inputs, dim).output, inputs, dim);
  for (const auto& t : inputs) parts.push_back(withTrailingDim(t));
  return catLayout(parts, dim).output;
}

Tensor stackTensors(const std::vector<Tensor>& inputs, int64_t dim) {
  const std::vector<TensorMeta> metas = metasOf(inputs);
  FATHOM_CHECK(!inputs.empty(), "stack expects a non-empty TensorList");
  const int64_t ndim = inputs[0].dim();
  dim = wrapDim(dim, ndim + 1);
  checkStackInputs(metas);
  if (dim < ndim) {
    Tensor cat = catTensors(inputs, dim);
    return realizeView(cat, stackedView(cat.meta(), metas, dim));
  }
  std::vector<Tensor> parts;
  for (const auto& t : inputs) parts.push_back(realizeView(t, withTrailingDim(t.meta())));
  return catTensors(parts, dim);
}

}  // namespace fathom
