// _embedding_bag's backward ops, as PyTorch 1.13's CPU kernels compute them (dense gradients
// only). Each returns a fresh contiguous tensor of grad's dtype.
//
// _embedding_bag_dense_backward(grad [B, D], indices [N], offset2bag [N], bag_size [B],
// maximum_indices, num_weights, scale_grad_by_freq, mode, per_sample_weights?, padding_idx)
//   -> [num_weights, D]. Sum and mean: the indices are sorted (1.13's sort, whose ties come in
//   std::sort's order) and each index's row gathers grad[bag] * scale in that order through
//   axpy, scale being the per-sample weight (or 1), over the bag's size for mean (unless 0),
//   and with scale_grad_by_freq over a count - 1.13 divides by counts[sorted[g]], g the index's
//   place among the distinct indices rather than the index itself (a 1.13 bug, reproduced).
//   padding_idx rows get nothing. Max: each column's gradient goes to the row its maximum came
//   from (maximum_indices), for the bags whose bag_size is not 0.
// _embedding_bag_backward(grad, indices, offsets, offset2bag, bag_size, maximum_indices,
//   num_weights, scale_grad_by_freq, mode, sparse, per_sample_weights?, padding_idx): the same,
//   after 1.13's checks (indices, offsets and offset2bag contiguous) and rebuilding offset2bag
//   from offsets where the forward's fast path left it empty. sparse=True (a sparse gradient)
//   is refused: Fathom has no sparse tensors.
// _embedding_bag_per_sample_weights_backward(grad, weight, indices, offsets, offset2bag, mode,
//   padding_idx) -> [N]: dot(grad[bag of i], weight[indices[i]]) for each i, 0 for padding.
// 1.13 writes out of bounds (or crashes) for indices outside [0, num_weights) and bags outside
// grad: Fathom checks them.
#include <vector>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/VectorBlas.h"
#include "engine/ops/families/EmbeddingBag.h"
#include "engine/ops/families/IndexingFamily.h"
#include "engine/ops/layout/ContiguousOutput.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

void checkContiguousArg(const TensorMeta& t, const char* name) {
  FATHOM_CHECK(isContiguous(t), "Expected contiguous tensor, but got non-contiguous tensor for argument #1 '", name,
               "' (while checking arguments for embedding_bag)");
}

// The checks both weight-gradient ops make; the result is [num_weights, D].
TensorMeta denseLayout(const TensorMeta& grad, int64_t numWeights, int64_t mode, const TensorMeta* perSample) {
  checkBagWeightDtype(grad.dtype, "grad_");
  checkBagMode(mode);
  FATHOM_CHECK(grad.dim() == 2, "embedding_bag backward: grad must be 2-D [bags, embedding_dim], got ",
               grad.dim(), "-D");
  FATHOM_CHECK(!perSample || mode == kBagSum,
               "embedding_bag_backward: per_sample_weights only supported for mode='sum'");
  FATHOM_CHECK(numWeights >= 0, "Trying to create tensor with negative dimension ", numWeights);
  return contiguousOutput(grad, {numWeights, grad.sizes[1]});
}

TensorMeta denseBackwardLayout(const ValueList& margs) {
  const TensorMeta &indices = metaArg(margs, 1), &offset2bag = metaArg(margs, 2);
  FATHOM_CHECK(indices.dim() == 1 && offset2bag.dim() == 1, "embedding_bag backward: indices and offset2bag must be 1-D");
  return denseLayout(metaArg(margs, 0), intArg(margs, 5), intArg(margs, 7), optionalTensorMeta(margs, 8));
}

TensorMeta backwardLayout(const ValueList& margs) {
  const TensorMeta &indices = metaArg(margs, 1), &offsets = metaArg(margs, 2);
  checkBagIndices(indices, offsets);
  const DType index = bagIndexDtype(indices, offsets);
  if (indices.dtype == index) checkContiguousArg(indices, "indices");
  if (offsets.dtype == index) checkContiguousArg(offsets, "offsets");
  FATHOM_CHECK(!boolArg(margs, 9), "embedding_bag backward: sparse=True asks for a sparse gradient, which Fathom "
               "does not have (only sparse=False is supported)");
  return denseLayout(metaArg(margs, 0), intArg(margs, 6), intArg(margs, 8), optionalTensorMeta(margs, 10));
}

// offset2bag as given (int32/int64, contiguous), or rebuilt from offsets where the forward's fast
// path left it empty.
std::vector<int64_t> offset2bagOf(const Tensor& offset2bag, const Tensor& indices, const Tensor& offsets) {
  if (indices.numel() != 0 && offset2bag.numel() == 0) {
    Bags bags;
    bags.index.resize(static_cast<size_t>(indices.numel()));
    bags.starts = indexList(offsets);
    bool ordered = !bags.starts.empty() && bags.starts[0] == 0;
    for (size_t b = 1; b < bags.starts.size(); ++b) ordered = ordered && bags.starts[b] >= bags.starts[b - 1];
    FATHOM_CHECK(ordered, "embedding_bag backward: offsets must start at 0 and not decrease");
    return bags.offset2bag();
  }
  FATHOM_CHECK(offset2bag.dtype() == DType::Int64 || offset2bag.dtype() == DType::Int32,
               "Expected tensor for argument #1 'offset2bag' to have one of the following scalar types: Long, Int; "
               "but got torch.", scalarTypeName(offset2bag.dtype()), "Tensor instead (while checking arguments for "
               "embedding_bag)");
  checkContiguousArg(offset2bag.meta(), "offset2bag");
  return indexList(offset2bag);
}

// indices sorted as 1.13's indices.sort() orders them: the values and where each came from.
std::pair<std::vector<int64_t>, std::vector<int64_t>> sortedIndices(const Tensor& indices) {
  const OpDef* sort = OpRegistry::global().find("aten.sort.default");
  FATHOM_CHECK(sort != nullptr, "missing op aten.sort.default");
  auto r = callKernel(*sort, {Value(indices), Value(int64_t{-1}), Value(false)});
  if (!r.ok()) throwOpError(r.error().message);
  return {indexList((*r)[0].as<Tensor>()), indexList((*r)[1].as<Tensor>())};
}

void checkRange(int64_t v, int64_t limit, const char* what) {
  FATHOM_CHECK(v >= 0 && v < limit, "embedding_bag backward: ", what, " ", v, " is out of range [0, ", limit, ")");
}

// Sum and mean: _embedding_bag_dense_backward_cpu_sum_mean.
void sumMeanBackward(const Tensor& grad, const Tensor& indices, const std::vector<int64_t>& offset2bag,
                     const std::vector<int64_t>& bagSize, bool byFreq, bool mean, const Tensor& perSample,
                     int64_t paddingIdx, const Tensor& out) {
  const int64_t numWeights = out.size(0), width = out.size(1), bags = grad.size(0);
  const auto [sorted, from] = sortedIndices(indices);
  FATHOM_CHECK(offset2bag.size() == sorted.size(), "embedding_bag backward: offset2bag has ", offset2bag.size(),
               " entries for ", sorted.size(), " indices");
  std::vector<int64_t> counts(static_cast<size_t>(numWeights), 0);
  for (int64_t k : sorted) {
    checkRange(k, numWeights, "index");
    ++counts[k];
  }
  const size_t elem = elementSize(out.dtype());
  const auto* g = static_cast<const std::byte*>(grad.data());
  auto* o = static_cast<std::byte*>(out.data());
  for (size_t start = 0, group = 0; start < sorted.size(); ++group) {
    size_t stop = start;
    while (stop < sorted.size() && sorted[stop] == sorted[start]) ++stop;
    const int64_t index = sorted[start];
    for (size_t j = start; j < stop && index != paddingIdx; ++j) {
      const int64_t source = offset2bag[from[j]];
      checkRange(source, bags, "bag");
      double scale = perSample.defined() ? perSample.atLinear(from[j]) : 1.0;
      if (byFreq) scale /= static_cast<double>(counts[sorted[group]]);  // 1.13's counts[indices_data[i]]
      if (mean) {
        checkRange(source, static_cast<int64_t>(bagSize.size()), "bag");
        if (bagSize[source] != 0) scale /= static_cast<double>(bagSize[source]);
      }
      axpy(out.dtype(), width, scale, g + source * width * elem, 1, o + index * width * elem, 1);
    }
    start = stop;
  }
}

// Max: index_add_ of each column's gradient at the rows of its maxima, bags of size 0 skipped.
void maxBackward(const Tensor& grad, const std::vector<int64_t>& bagSize, const Tensor& maxIndices, const Tensor& out) {
  const int64_t numWeights = out.size(0), width = out.size(1), bags = grad.size(0);
  FATHOM_CHECK(maxIndices.dim() == 2 && maxIndices.size(0) >= bags && maxIndices.size(1) >= width &&
                   static_cast<int64_t>(bagSize.size()) >= bags,
               "embedding_bag backward: maximum_indices must be [bags, embedding_dim] and bag_size [bags]");
  dispatchDType(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>>) {
      const T* g = grad.dataAs<T>();
      T* o = out.dataAs<T>();
      for (int64_t b = 0; b < bags; ++b) {
        if (bagSize[b] == 0) continue;
        for (int64_t d = 0; d < width; ++d) {
          const auto row = static_cast<int64_t>(maxIndices.atLinear(b * maxIndices.size(1) + d));
          checkRange(row, numWeights, "maximum index");
          T& dst = o[row * width + d];
          dst = T(static_cast<OpMath<T>>(dst) + static_cast<OpMath<T>>(g[b * width + d]));
        }
      }
    }
  });
}

// _embedding_bag_dense_backward's kernel, once the arguments are checked and offset2bag read.
Tensor denseBackward(const Tensor& gradIn, const Tensor& indices, const std::vector<int64_t>& offset2bag,
                     const Tensor& bagSize, const Tensor& maxIndices, bool byFreq, int64_t mode, const Tensor& perSample,
                     int64_t paddingIdx, const TensorMeta& layout) {
  Tensor out = allocateTensor(layout);
  const Tensor grad = contiguousOf(gradIn);
  if (out.numel() == 0) return out;
  if (perSample.defined())
    FATHOM_CHECK(perSample.dtype() == grad.dtype(), "expected scalar type ", scalarTypeName(grad.dtype()),
                 " but found ", scalarTypeName(perSample.dtype()));
  const std::vector<int64_t> sizes = indexList(bagSize);
  if (mode == kBagMax) maxBackward(grad, sizes, maxIndices, out);
  else sumMeanBackward(grad, indices, offset2bag, sizes, byFreq, mode == kBagMean, perSample, paddingIdx, out);
  return out;
}

Tensor optionalTensor(const ValueList& args, size_t i) { return args.at(i).isNone() ? Tensor() : tensorArg(args, i); }

ValueList denseBackwardKernel(const ValueList& args) {
  const TensorMeta layout = denseBackwardLayout(metaArgs(args));
  const Tensor& offset2bag = tensorArg(args, 2);
  const std::vector<int64_t> o2b = intArg(args, 7) == kBagMax ? std::vector<int64_t>{} : indexList(offset2bag);
  return {denseBackward(tensorArg(args, 0), tensorArg(args, 1), o2b, tensorArg(args, 3), tensorArg(args, 4),
                        boolArg(args, 6), intArg(args, 7), optionalTensor(args, 8), intArg(args, 9), layout)};
}

ValueList backwardKernel(const ValueList& args) {
  const TensorMeta layout = backwardLayout(metaArgs(args));
  const Tensor &indices = tensorArg(args, 1), &offsets = tensorArg(args, 2);
  const int64_t mode = intArg(args, 8);
  const std::vector<int64_t> o2b = mode == kBagMax ? std::vector<int64_t>{} : offset2bagOf(tensorArg(args, 3), indices, offsets);
  return {denseBackward(tensorArg(args, 0), indices, o2b, tensorArg(args, 4), tensorArg(args, 5), boolArg(args, 7),
                        mode, optionalTensor(args, 10), intArg(args, 11), layout)};
}

TensorMeta perSampleLayout(const ValueList& margs) {
  const TensorMeta &grad = metaArg(margs, 0), &weight = metaArg(margs, 1), &indices = metaArg(margs, 2),
                   &offsets = metaArg(margs, 3);
  FATHOM_CHECK(intArg(margs, 5) == kBagSum, "embedding_bag_backward: per_sample_weights only supported for mode='sum'");
  checkBagIndices(indices, offsets);
  const DType index = bagIndexDtype(indices, offsets);
  if (indices.dtype == index) checkContiguousArg(indices, "indices");
  FATHOM_CHECK(grad.dim() == 2 && weight.dim() == 2 && symEq(grad.sizes[1], weight.sizes[1], "embedding_bag: columns"),
               "embedding_bag backward: grad [bags, D] and weight [num_weights, D] must be 2-D with the same D");
  FATHOM_CHECK(isFloating(grad.dtype), "\"_embedding_bag_per_sample_weights_backward_cpu\" not implemented for '",
               scalarTypeName(grad.dtype), "'");
  FATHOM_CHECK(weight.dtype == grad.dtype, "expected scalar type ", scalarTypeName(grad.dtype), " but found ",
               scalarTypeName(weight.dtype));
  return contiguousOutput(grad, {indices.sizes[0]});
}

ValueList perSampleKernel(const ValueList& args) {
  Tensor out = allocateTensor(perSampleLayout(metaArgs(args)));
  const Tensor &grad = tensorArg(args, 0), &weight = tensorArg(args, 1), &indices = tensorArg(args, 2);
  const std::vector<int64_t> index = indexList(indices), o2b = offset2bagOf(tensorArg(args, 4), indices, tensorArg(args, 3));
  FATHOM_CHECK(o2b.size() == index.size(), "embedding_bag backward: offset2bag has ", o2b.size(), " entries for ",
               index.size(), " indices");
  const int64_t paddingIdx = intArg(args, 6), width = grad.size(1);
  const size_t elem = elementSize(grad.dtype());
  const auto *g = static_cast<const std::byte*>(grad.data()), *w = static_cast<const std::byte*>(weight.data());
  for (size_t i = 0; i < index.size(); ++i) {
    if (index[i] == paddingIdx) continue;
    checkRange(o2b[i], grad.size(0), "bag");
    checkRange(index[i], weight.size(0), "index");
    const double v = dot(grad.dtype(), width, g + o2b[i] * grad.stride(0) * elem, grad.stride(1),
                         w + index[i] * weight.stride(0) * elem, weight.stride(1));
    out.setLinear(static_cast<int64_t>(i), v);
  }
  return {out};
}

}  // namespace

void registerEmbeddingBagBackwardOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::_embedding_bag_backward(Tensor grad, Tensor indices, Tensor offsets, Tensor offset2bag, "
      "Tensor bag_size, Tensor maximum_indices, int num_weights, bool scale_grad_by_freq, int mode, bool sparse, "
      "Tensor? per_sample_weights, int padding_idx=-1) -> Tensor",
      [](const ValueList& args) { return ValueList{backwardLayout(args)}; }, backwardKernel);
  (void)registry.add(
      "aten::_embedding_bag_dense_backward(Tensor grad, Tensor indices, Tensor offset2bag, Tensor bag_size, "
      "Tensor maximum_indices, int num_weights, bool scale_grad_by_freq, int mode, Tensor? per_sample_weights, "
      "int padding_idx=-1) -> Tensor",
      [](const ValueList& args) { return ValueList{denseBackwardLayout(args)}; }, denseBackwardKernel);
  (void)registry.add(
      "aten::_embedding_bag_per_sample_weights_backward(Tensor grad, Tensor weight, Tensor indices, "
      "Tensor offsets, Tensor offset2bag, int mode, int padding_idx=-1) -> Tensor",
      [](const ValueList& args) { return ValueList{perSampleLayout(args)}; }, perSampleKernel);
}

}  // namespace fathom
