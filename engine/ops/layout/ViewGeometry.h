// Geometry of views, as ATen computes it. Every view op is a function from the input's
// TensorMeta to the view's (same dtype and storage, new sizes, strides and offset); meta functions
// return it and kernels realize it on the input's storage with realizeView().
//   inferViewSizes: fills the one -1 of a requested shape from the element count (infer_size);
//   computeViewStrides: strides that let `sizes` view a tensor without copying, or nullopt
//     when some new dimension would span two non-contiguous chunks (TensorUtils computeStride);
//   sliceView: ATen's slice (and narrow, split), clamping start/end into the dim.
// All over SymInt, deciding with symEq/symLt so symbolic traces record why.
#pragma once

#include <optional>

#include "engine/tensor/Tensor.h"
#include "engine/tensor/TensorMeta.h"

namespace fathom {

SymIntList inferViewSizes(const SymIntList& requested, const SymInt& numel);

std::optional<SymIntList> computeViewStrides(const SymIntList& oldSizes, const SymIntList& oldStrides,
                                             const SymIntList& newSizes);

// `self` viewed with other sizes, strides and storage offset.
TensorMeta viewOf(const TensorMeta& self, SymIntList sizes, SymIntList strides, SymInt offset);

// self[start:end:step] along `dim` (already wrapped); start/end default to the whole dim and
// are wrapped once if negative, then clamped, as at::slice does.
TensorMeta sliceView(const TensorMeta& self, int64_t dim, std::optional<SymInt> start, std::optional<SymInt> end,
                     const SymInt& step);

// The view of `t`'s storage with `view`'s (concrete) geometry; throws PyTorch's setStorage error
// when it reaches past the storage.
Tensor realizeView(const Tensor& t, const TensorMeta& view);

}  // namespace fathom
