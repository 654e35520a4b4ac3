// Layouts of freshly allocated tensors that copy an input's layout: clone, _to_copy,
// *_like factories, and the temporaries TensorIterator makes when it promotes an input.
//
// PyTorch's memory_format=preserve rule: a non-overlapping and dense input keeps its strides
// exactly; any other strided input gets dense strides in the same dimension order
// (infer_dense_strides, which sorts dimensions the way TensorIterator does).
#pragma once

#include <optional>

#include "engine/tensor/TensorMeta.h"

namespace fathom {

// PyTorch's Tensor::is_non_overlapping_and_dense(): contiguous, channels-last, or a permutation
// of a contiguous layout.
bool isDenseLayout(const TensorMeta& t);

// Dense strides with the dimension order of `strides` (ATen's infer_dense_strides).
SymIntList inferDenseStrides(const SymIntList& sizes, const SymIntList& strides);

// Strides of empty_like(t, memory_format=format); nullopt means preserve_format.
// Throws for channels_last on a tensor that is not 4-d.
SymIntList likeStrides(const TensorMeta& t, std::optional<MemoryFormat> format);

// A TensorMeta for a new tensor shaped like `t` with the given dtype and strides (offset 0).
TensorMeta freshLike(const TensorMeta& t, DType dtype, SymIntList strides);

}  // namespace fathom
