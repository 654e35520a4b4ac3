// embedding and embedding_dense_backward.
//
// embedding(weight [V, D], indices) is weight.index_select(0, indices.reshape(-1)) viewed as
// indices.shape + [D]: a fresh contiguous tensor of weight's dtype. padding_idx, sparse and
// scale_grad_by_freq only matter for the backward.
//
// embedding_dense_backward(grad [..., D], indices, num_weights, padding_idx, scale) returns a
// contiguous [num_weights, D] tensor of grad's dtype: row k is the sum of the grad rows whose
// index is k, each scaled by 1 / count(k) when scale_grad_by_freq. Like ATen's CPU kernel it
// accumulates in index order, rounding to the element type after every row (grad[k] +=
// scale * row, with scale converted to the element type), skips rows whose index is padding_idx,
// and silently skips indices outside [0, num_weights).
#include <cmath>

#include "engine/core/Error.h"
#include "engine/ops/layout/ContiguousOutput.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/IndexedCopy.h"
#include "engine/ops/families/IndexingFamily.h"
#include "engine/ops/cpu/Loops.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

// ATen's checkScalarTypes(fn, {indices, "indices", position}, {kLong, kInt}).
void checkIndexDtype(const TensorMeta& indices, int position, const char* fn) {
  FATHOM_CHECK(indices.dtype == DType::Int64 || indices.dtype == DType::Int32, "Expected tensor for argument #",
               position, " 'indices' to have one of the following scalar types: Long, Int; but got torch.",
               scalarTypeName(indices.dtype), "Tensor instead (while checking arguments for ", fn, ")");
}

TensorMeta embeddingLayout(const ValueList& margs) {
  const TensorMeta &weight = metaArg(margs, 0), &indices = metaArg(margs, 1);
  FATHOM_CHECK(weight.dim() == 2, "'weight' must be 2-D");
  checkIndexDtype(indices, 1, "embedding");
  SymIntList sizes = indices.sizes;
  sizes.push_back(weight.sizes[1]);
  return contiguousOutput(weight, std::move(sizes));
}

ValueList embeddingKernel(const ValueList& args) {
  Tensor out = allocateTensor(embeddingLayout(metaArgs(args)));
  const Tensor &weight = tensorArg(args, 0), &indices = tensorArg(args, 1);
  if (indices.numel() == 0) return {out};
  checkIndexSelectRange(weight, 0, indices);  // embedding is index_select(weight, 0, indices)
  if (out.numel() == 0) return {out};
  // Output element [p..., j] is weight[indices[p...], j].
  IntList indexStrides = indices.strides(), srcStrides(static_cast<size_t>(out.dim()), 0);
  indexStrides.push_back(0);
  srcStrides.back() = weight.stride(1);
  indexedCopy(out, stridedView(indices, out.sizes(), indexStrides), bytePtr(weight), srcStrides, weight.stride(0));
  return {out};
}

TensorMeta embeddingBackwardLayout(const ValueList& margs) {
  const TensorMeta &grad = metaArg(margs, 0), &indices = metaArg(margs, 1);
  const SymInt numWeights = symIntArg(margs, 2);
  checkIndexDtype(indices, 2, "embedding_backward");
  FATHOM_CHECK(grad.dim() > 0, "Dimension specified as -1 but tensor has no dimensions");
  const SymInt width = grad.sizes.back();
  FATHOM_CHECK(!symLt(numWeights, 0, "embedding_backward: num_weights >= 0"),
               "Trying to create tensor with negative dimension ", numWeights.str(), ": [", numWeights.str(), ", ",
               width.str(), "]");
  // ATen views grad as [indices.numel(), D].
  FATHOM_CHECK(symEq(grad.numel(), indices.numel() * width, "embedding_backward: grad rows match indices"),
               "shape '[", indices.numel().str(), ", ", width.str(), "]' is invalid for input of size ",
               grad.numel().str());
  return contiguousOutput(grad, {numWeights, width});
}

template <class T>
void accumulateRows(const Tensor& out, const Tensor& grad, const std::vector<int64_t>& indices, int64_t paddingIdx,
                    bool scaleByFreq) {
  const int64_t numWeights = out.size(0), width = out.size(1);
  std::vector<int64_t> counts(static_cast<size_t>(scaleByFreq ? numWeights : 0), 0);
  for (int64_t k : indices)
    if (scaleByFreq && k >= 0 && k < numWeights) ++counts[k];
  using C = OpMath<T>;
  T* dst = out.dataAs<T>();
  const T* src = grad.dataAs<T>();
  for (size_t i = 0; i < indices.size(); ++i) {
    const int64_t k = indices[i];
    if (k == paddingIdx || k < 0 || k >= numWeights) continue;
    const C scale = ScalarArg{DType::Float64, scaleByFreq ? 1.0 / static_cast<double>(counts[k]) : 1.0, 0}.to<C>();
    T* row = dst + k * width;
    const T* g = src + static_cast<int64_t>(i) * width;
    for (int64_t j = 0; j < width; ++j) {
      if constexpr (std::is_floating_point_v<C>) row[j] = T(std::fma(static_cast<C>(g[j]), scale, static_cast<C>(row[j])));
      else if constexpr (std::is_same_v<C, bool>) row[j] = row[j] || (scale && g[j]);
      else row[j] = static_cast<T>(static_cast<uint64_t>(row[j]) + static_cast<uint64_t>(scale) * static_cast<uint64_t>(g[j]));
    }
  }
}

std::vector<int64_t> indexValues(const Tensor& indices) {
  std::vector<int64_t> out(static_cast<size_t>(indices.numel()));
  for (int64_t i = 0; i < indices.numel(); ++i) out[i] = static_cast<int64_t>(indices.atLinear(i));
  return out;
}

ValueList embeddingBackwardKernel(const ValueList& args) {
  Tensor out = allocateTensor(embeddingBackwardLayout(metaArgs(args)));
  const Tensor &grad = tensorArg(args, 0), &indices = tensorArg(args, 1);
  if (out.numel() == 0 || indices.numel() == 0) return {out};
  Tensor rows = grad;
  if (!grad.isContiguous()) {
    rows = allocateTensor(contiguousOutput(grad.meta(), grad.meta().sizes));
    copyInto(rows, grad);
  }
  const std::vector<int64_t> index = indexValues(indices);
  dispatchDType(out.dtype(), [&](auto tag) {
    accumulateRows<typename decltype(tag)::type>(out, rows, index, intArg(args, 3), boolArg(args, 4));
  });
  return {out};
}

}  // namespace

void registerEmbeddingOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, "
      "bool sparse=False) -> Tensor",
      [](const ValueList& args) { return ValueList{embeddingLayout(args)}; }, embeddingKernel);
  (void)registry.add(
      "aten::embedding_dense_backward(Tensor grad_output, Tensor indices, SymInt num_weights, int padding_idx, "
      "bool scale_grad_by_freq) -> Tensor",
      [](const ValueList& args) { return ValueList{embeddingBackwardLayout(args)}; }, embeddingBackwardKernel);
}

}  // namespace fathom
