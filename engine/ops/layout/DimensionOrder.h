// The order of a layout's dimensions from fastest- to slowest-moving, as TensorIterator's
// reorder_dimensions computes it. Elementwise ops use it to lay out their output, and
// preserve_format (infer_dense_strides) to densify a non-dense input: PyTorch uses one
// algorithm for both, and so do we.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/tensor/TensorMeta.h"

namespace fathom {

// A permutation of [0, shape.size()) with perm[0] the fastest-moving dimension. `strides` holds
// one stride list per operand (already broadcast to `shape`, 0 for broadcast dims); earlier
// operands decide first. Insertion sort, starting from row-major order.
std::vector<int64_t> reorderDimensions(const std::vector<SymIntList>& strides, const SymIntList& shape);

}  // namespace fathom
