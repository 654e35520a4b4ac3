// Layouts of freshly allocated tensors: what at::empty(sizes, memory_format) gives, what
// Tensor::is_contiguous(memory_format) and suggest_memory_format() answer, and the layouts that
// copy an input's (clone, _to_copy, *_like factories, the temporaries TensorIterator makes when it
// promotes an input).
//
// PyTorch's memory_format=preserve rule: a non-overlapping and dense input keeps its strides
// exactly; any other strided input gets dense strides in the same dimension order
// (infer_dense_strides, which sorts dimensions the way TensorIterator does).
//
// The channels-last rules here are c10's exactly: its strides multiply plain sizes (a size-0 dim
// makes the outer strides 0, unlike contiguous strides) and its contiguity check has no special
// case for empty tensors.
#pragma once

#include <optional>

#include "engine/tensor/TensorMeta.h"

namespace fathom {

// PyTorch's Tensor::is_non_overlapping_and_dense(): contiguous, channels-last, or a permutation
// of a contiguous layout.
bool isDenseLayout(const TensorMeta& t);

// Dense strides with the dimension order of `strides` (ATen's infer_dense_strides).
SymIntList inferDenseStrides(const SymIntList& sizes, const SymIntList& strides);

// Strides of at::empty(sizes, memory_format=format). Throws for channels_last on a size list that
// is not 4-d and for preserve_format (which needs an input to preserve).
SymIntList memoryFormatStrides(const SymIntList& sizes, MemoryFormat format);

// Tensor::is_contiguous(memory_format); preserve_format asks for plain contiguity, as c10 does.
bool isContiguousIn(const TensorMeta& t, MemoryFormat format);

// Tensor::suggest_memory_format() of a strided tensor: channels-last when its strides order the
// dims like NHWC (4-d) or NDHWC (5-d), else contiguous. ChannelsLast3d has no MemoryFormat
// value (no op argument can name it), so suggestions have their own type.
enum class SuggestedFormat { Contiguous, ChannelsLast, ChannelsLast3d };
SuggestedFormat suggestMemoryFormat(const TensorMeta& t);
// Strides of at::empty(sizes, memory_format=format) for a suggested format.
SymIntList suggestedFormatStrides(const SymIntList& sizes, SuggestedFormat format);

// Strides of empty_like(t, memory_format=format); nullopt means preserve_format.
// Throws for channels_last on a tensor that is not 4-d.
SymIntList likeStrides(const TensorMeta& t, std::optional<MemoryFormat> format);

// A TensorMeta for a new tensor shaped like `t` with the given dtype and strides (offset 0).
TensorMeta freshLike(const TensorMeta& t, DType dtype, SymIntList strides);

}  // namespace fathom
