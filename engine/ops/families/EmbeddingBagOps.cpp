// _embedding_bag, EmbeddingBag's forward, as PyTorch 1.13's CPU kernel computes it.
//
// _embedding_bag(weight [V, D], indices [N], offsets, scale_grad_by_freq, mode, sparse,
// per_sample_weights [N]?, include_last_offset, padding_idx) -> (output, offset2bag, bag_size,
// max_indices). Bag b holds indices[offsets[b] : offsets[b + 1]], the last one running to N
// (with include_last_offset, offsets ends with N and there is one bag fewer). Mode 0 sums the
// rows (each times its per-sample weight, if any), 1 averages them, 2 takes each column's
// maximum; indices equal to padding_idx are left out and not counted. scale_grad_by_freq and
// sparse only matter for the backward.
//
// Outputs, all fresh and contiguous; the three index outputs have the promoted dtype of indices
// and offsets (int32 or int64):
//   output [B, D], weight's dtype; an empty bag gives 0.
//   offset2bag [N]: each index's bag - but in sum mode on 1.13's fast path (float32 or float16
//     weight whose columns are adjacent, per-sample weights likewise, padding_idx < 0) 1.13
//     does not compute it and returns an empty [0].
//   bag_size [B]: each bag's count without padding in mean and max modes; zeros in sum mode
//     (1.13 zeroes it "to make the output deterministic").
//   max_indices: [B, D] in max mode, the weight row each maximum came from (0 for an empty
//     bag); otherwise a copy of bag_size.
// Values: each bag accumulates in index order. float32 on the fast path fuses weight * row into
// the sum (caffe2's AVX2 EmbeddingLookupIdx), off it multiplies then adds; float64 multiplies
// then adds; float16 sums in float (its products are exact) and rounds once. Mean divides by
// max(bag_size, 1) in the element type. Max keeps the first maximum (NaN only when first).
// 1.13 reads or writes out of bounds (or crashes) for a mode other than 0-2, offsets that
// decrease, indices but no offsets, and with include_last_offset a last offset other than N:
// Fathom refuses those. 1.13 also reads non-contiguous indices and offsets as if they were
// contiguous; Fathom reads them by their strides.
#include <cmath>
#include <vector>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/families/EmbeddingBag.h"
#include "engine/ops/families/IndexingFamily.h"
#include "engine/ops/layout/ContiguousOutput.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

struct BagLayout {
  TensorMeta output, offset2bag, bagSize, maxIndices;
  bool fast = false;  // 1.13's fast path
};

// 1.13's is_fast_path: float32 or float16 rows read with unit column stride, per-sample
// weights of unit stride, and no padding_idx.
bool fastPath(const TensorMeta& weight, const TensorMeta* perSample, int64_t paddingIdx) {
  if (weight.dtype != DType::Float32 && weight.dtype != DType::Float16) return false;
  if (paddingIdx >= 0 || !symEq(weight.strides[1], 1, "embedding_bag: fast path (unit column stride)")) return false;
  return !perSample || symEq(perSample->strides[0], 1, "embedding_bag: fast path (unit per_sample_weights stride)");
}

BagLayout bagLayout(const ValueList& margs) {
  const TensorMeta &weight = metaArg(margs, 0), &indices = metaArg(margs, 1), &offsets = metaArg(margs, 2);
  const int64_t mode = intArg(margs, 4), paddingIdx = intArg(margs, 8);
  const bool includeLast = boolArg(margs, 7);
  const TensorMeta* perSample = optionalTensorMeta(margs, 6);
  checkBagIndices(indices, offsets);
  const DType index = bagIndexDtype(indices, offsets);
  FATHOM_CHECK(weight.dim() >= 2, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  FATHOM_CHECK(weight.dim() == 2, "embedding_bag: weight must be 2-D, got ", weight.dim(), "-D");
  checkBagWeightDtype(weight.dtype, "weight");
  checkBagMode(mode);
  if (perSample) {
    FATHOM_CHECK(mode == kBagSum, "embedding_bag: per_sample_weights only supported with mode='sum'");
    FATHOM_CHECK(perSample->dtype == weight.dtype,
                 "Expected tensor for argument #1 'weight' to have the same type as tensor for argument #1 "
                 "'per_sample_weights'; but type torch.",
                 scalarTypeName(weight.dtype), "Tensor does not equal torch.", scalarTypeName(perSample->dtype),
                 "Tensor (while checking arguments for embedding_bag)");
    FATHOM_CHECK(perSample->dim() == 1, "Expected per_sample_weights.value().dim() == 1 to be true, but got false.");
    FATHOM_CHECK(symEq(perSample->numel(), indices.numel(), "embedding_bag: one per_sample_weight per index"),
                 "Expected per_sample_weights.value().numel() == indices.numel() to be true, but got false.");
  }
  FATHOM_CHECK(!includeLast || symGe(offsets.sizes[0], 1, "embedding_bag: include_last_offset needs an offset"),
               "include_last_offset: number of offset should be at least 1");
  const SymInt bags = includeLast ? offsets.sizes[0] - 1 : offsets.sizes[0];
  TensorMeta indexLike = indices;
  indexLike.dtype = index;
  BagLayout out;
  out.fast = fastPath(weight, perSample, paddingIdx);
  const bool noOffset2bag = mode == kBagSum && out.fast;
  out.output = contiguousOutput(weight, {bags, weight.sizes[1]});
  out.offset2bag = contiguousOutput(indexLike, {noOffset2bag ? SymInt(0) : indices.sizes[0]});
  out.bagSize = contiguousOutput(indexLike, {bags});
  out.maxIndices = contiguousOutput(indexLike, mode == kBagMax ? SymIntList{bags, weight.sizes[1]} : SymIntList{bags});
  return out;
}

// Each bag's rows, accumulated in OpMath<T> (fused on the float32 fast path), written as T;
// mean divides by max(bag size, 1).
template <class T>
void sumBags(const Tensor& weight, const Bags& bags, const Tensor& perSample, bool fused, bool mean,
             const Tensor& output) {
  using C = OpMath<T>;
  const int64_t width = weight.size(1), s0 = weight.stride(0), s1 = weight.stride(1);
  const T* w = weight.dataAs<T>();
  const T* ps = perSample.defined() ? perSample.dataAs<T>() : nullptr;
  T* out = output.dataAs<T>();
  std::vector<C> acc(static_cast<size_t>(width));
  for (int64_t b = 0; b < bags.count(); ++b) {
    std::fill(acc.begin(), acc.end(), C(0));
    for (int64_t i = bags.begin(b); i < bags.end(b); ++i) {
      const int64_t k = bags.index[i];
      if (k == bags.paddingIdx) continue;
      const T* row = w + k * s0;
      if (!ps) {
        for (int64_t j = 0; j < width; ++j) acc[j] += static_cast<C>(row[j * s1]);
        continue;
      }
      const C scale = static_cast<C>(ps[i * perSample.stride(0)]);
      for (int64_t j = 0; j < width; ++j)
        acc[j] = fused ? std::fma(static_cast<C>(row[j * s1]), scale, acc[j]) : acc[j] + static_cast<C>(row[j * s1]) * scale;
    }
    const T divisor = T(static_cast<C>(std::max<int64_t>(bags.size[b], 1)));
    for (int64_t j = 0; j < width; ++j) {
      const T sum = T(acc[j]);
      out[b * width + j] = mean ? T(static_cast<C>(sum) / static_cast<C>(divisor)) : sum;
    }
  }
}

// Each column's maximum over a bag's rows (the first one of equals), and the row it came from.
template <class T>
void maxBags(const Tensor& weight, const Bags& bags, const Tensor& output, std::vector<int64_t>& argmax) {
  const int64_t width = weight.size(1), s0 = weight.stride(0), s1 = weight.stride(1);
  const T* w = weight.dataAs<T>();
  T* out = output.dataAs<T>();
  for (int64_t b = 0; b < bags.count(); ++b) {
    bool first = true;
    for (int64_t i = bags.begin(b); i < bags.end(b); ++i) {
      const int64_t k = bags.index[i];
      if (k == bags.paddingIdx) continue;
      for (int64_t j = 0; j < width; ++j) {
        const T v = w[k * s0 + j * s1];
        T& cur = out[b * width + j];
        if (first || static_cast<OpMath<T>>(v) > static_cast<OpMath<T>>(cur)) {
          cur = v;
          argmax[b * width + j] = k;
        }
      }
      first = false;
    }
  }
}

ValueList embeddingBagKernel(const ValueList& args) {
  const BagLayout layout = bagLayout(metaArgs(args));
  Tensor output = allocateTensor(layout.output), offset2bag = allocateTensor(layout.offset2bag),
         bagSize = allocateTensor(layout.bagSize), maxIndices = allocateTensor(layout.maxIndices);
  const Tensor &weight = tensorArg(args, 0), &indices = tensorArg(args, 1), &offsets = tensorArg(args, 2);
  const int64_t mode = intArg(args, 4);
  const Tensor perSample = args.at(6).isNone() ? Tensor() : tensorArg(args, 6);
  const Bags bags = readBags(indices, offsets, boolArg(args, 7), intArg(args, 8), weight.size(0));
  if (offset2bag.numel() > 0) writeIndices(offset2bag, bags.offset2bag());
  std::vector<int64_t> argmax(static_cast<size_t>(maxIndices.numel()), 0);
  dispatchDType(weight.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>>) {
      if (mode == kBagMax) {
        maxBags<T>(weight, bags, output, argmax);
      } else {
        sumBags<T>(weight, bags, perSample, layout.fast && weight.dtype() == DType::Float32, mode == kBagMean, output);
      }
    }
  });
  if (mode == kBagSum) return {output, offset2bag, bagSize, maxIndices};  // bag_size and its copy stay 0
  writeIndices(bagSize, bags.size);
  writeIndices(maxIndices, mode == kBagMax ? argmax : bags.size);
  return {output, offset2bag, bagSize, maxIndices};
}

}  // namespace

void registerEmbeddingBagOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::_embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, "
      "int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, "
      "int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)",
      [](const ValueList& args) {
        const BagLayout l = bagLayout(args);
        return ValueList{l.output, l.offset2bag, l.bagSize, l.maxIndices};
      },
      embeddingBagKernel);
}

}  // namespace fathom
