// Advanced indexing (x[idx], x[:, idx0, idx1], x[idx] = v) as ATen 1.13 lays it out (make_info,
// AdvancedIndex, TensorIterator):
//   1. at most self.dim() indices; each long, byte or bool (masks become their nonzero()'s
//      columns, which needs values: see expandMasks in the kernels);
//   2. the defined indices broadcast together; missing trailing ones are None;
//   3. when the defined indices are not adjacent, self is permuted to put the indexed dims first;
//   4. the result has self's dims before the indexed block, then the indices' broadcast shape,
//      then self's dims after; `src` is self restrided to that shape with stride 0 on the index
//      block, and each index is viewed with size-1 dims to broadcast against it;
//   5. index.Tensor's result is TensorIterator's output over (src, indices...).
// Over SymInt, for meta functions and kernels alike.
#pragma once

#include <optional>
#include <vector>

#include "engine/tensor/TensorMeta.h"

namespace fathom {

using OptionalMetas = std::vector<std::optional<TensorMeta>>;

struct AdvancedIndex {
  TensorMeta src;                   // self (permuted if needed) restrided to the result's shape
  std::vector<TensorMeta> indices;  // the defined indices, broadcast and viewed against src
  SymIntList indexedSizes, indexedStrides;  // self's size and stride (elements) at each indexed dim
};

// Step 1's checks on the index list as given (count, dtypes); true when some index is a mask.
bool checkIndexList(const TensorMeta& self, const OptionalMetas& indices);

// Steps 2-4 for int64 indices (masks already expanded).
AdvancedIndex advancedIndex(const TensorMeta& self, const OptionalMetas& indices);

// Step 5: the layout of index.Tensor's result.
TensorMeta indexResultLayout(const AdvancedIndex& info);

}  // namespace fathom
