// Geometry of view/reshape, as ATen computes it:
//   inferViewSizes: fills the one -1 of a requested shape from the element count (infer_size);
//   computeViewStrides: strides that let `sizes` view a tensor without copying, or nullopt
//     when some new dimension would span two non-contiguous chunks (TensorUtils computeStride).
// Both over SymInt, deciding with symEq/symLt so symbolic traces record why.
#pragma once

#include <optional>

#include "engine/tensor/TensorMeta.h"

namespace fathom {

SymIntList inferViewSizes(const SymIntList& requested, const SymInt& numel);

std::optional<SymIntList> computeViewStrides(const SymIntList& oldSizes, const SymIntList& oldStrides,
                                             const SymIntList& newSizes);

}  // namespace fathom
