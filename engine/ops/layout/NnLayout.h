// Layout helpers the NN ops (convolution, batch norm, pooling) share, on top of c10's rules in
// MemoryLayout.h (suggest_memory_format, at::empty(memory_format), is_contiguous(format)):
//   - newTensorMeta: a fresh result laid out in a suggested format;
//   - contiguousIn: Tensor::contiguous(format), which keeps a tensor that already is contiguous
//     in that format (size-1 dims may have any stride) and otherwise lays it out afresh;
//   - the views a 1-d convolution takes (unsqueeze / squeeze of a size-1 dim).
// All over SymInt, deciding with symEq/symLt, so meta functions can run them on fake tensors.
// Also the output_mask argument the NN backward ops share.
#pragma once

#include <array>
#include <string>

#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/Value.h"
#include "engine/tensor/TensorMeta.h"

namespace fathom {

// suggest_memory_format() == ChannelsLast (4-d tensors only).
inline bool suggestsChannelsLast(const TensorMeta& t) {
  return suggestMemoryFormat(t) == SuggestedFormat::ChannelsLast;
}
inline SuggestedFormat channelsLastIf(bool channelsLast) {
  return channelsLast ? SuggestedFormat::ChannelsLast : SuggestedFormat::Contiguous;
}

// A new tensor's meta: `sizes` laid out in `format`, offset 0, on like's device.
TensorMeta newTensorMeta(const TensorMeta& like, DType dtype, SymIntList sizes, SuggestedFormat format);

// `t` after t.contiguous(format) (Contiguous or ChannelsLast).
TensorMeta contiguousIn(const TensorMeta& t, SuggestedFormat format);

// `t` after t.unsqueeze(dim) / t.squeeze(dim) of a size-1 dim (ATen's view rules for strides).
TensorMeta unsqueezeMeta(const TensorMeta& t, int64_t dim);
TensorMeta squeezeMeta(const TensorMeta& t, int64_t dim);

// "[2, 3, 4]", as PyTorch prints sizes in messages.
std::string sizesText(const SymIntList& sizes);

// A bool[3] output_mask: which of (grad_input, grad_weight, grad_bias) to compute.
std::array<bool, 3> outputMaskArg(const Value& v);

}  // namespace fathom
