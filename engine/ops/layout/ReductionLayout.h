// The output of a reduction (sum, mean, amax, var, max.dim, argmax), as PyTorch 1.13's
// resize_reduction decides it: the input's shape with the reduced dims dropped (or kept as size
// 1 with keepdim), laid out contiguously whatever the input's strides (1.13 passes no strides to
// set_output_raw_strided, so a channels-last or permuted input still gives a row-major result).
//
// Which dims reduce (ATen's make_dim_mask): None or an empty list means every dim; negative dims
// wrap; a repeated dim is an error. A zero-dim tensor accepts dim 0 or -1.
//
// Written over SymInt so meta functions and kernels share it; decisions go through symEq.
#pragma once

#include <optional>
#include <vector>

#include "engine/tensor/Tensor.h"

namespace fathom {

struct ReductionLayout {
  TensorMeta output;
  std::vector<bool> reduced;  // per input dim
  SymInt count = 1;           // input elements folded into each output element
};

// ATen's make_dim_mask: true for every dim `dims` reduces.
std::vector<bool> reducedDims(const std::optional<IntList>& dims, int64_t ndim);

ReductionLayout reductionLayout(const TensorMeta& self, const std::optional<IntList>& dims, bool keepdim,
                                DType outDtype);

// ATen's zero_numel_check_dims for one dim: on an empty input, reducing over a size-0 dim has no
// identity for max-like reductions ("amax(): Expected reduction dim 0 to have non-zero size.").
// `dim` is reported as given; a zero-dim input only takes 0 or -1.
void checkReducibleDim(const TensorMeta& self, int64_t dim, const char* fn);
// The list form, used when the input is empty: an empty list (every dim) is refused outright.
void checkReducibleDims(const TensorMeta& self, const IntList& dims, const char* fn);

}  // namespace fathom
