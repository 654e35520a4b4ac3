// How far a computed value is from a reference one: the largest |difference| against the
// largest |reference| element, and whether dtype, sizes and strides agree. Shared by everything
// that compares runs (aot_eager against eager autograd, `fathom run` against the outputs
// PyTorch recorded).
#pragma once

#include "engine/ops/Value.h"

namespace fathom {

struct ValueDiff {
  double maxAbsDiff = 0, scale = 0;  // NaN maxAbsDiff when one side has NaN where the other has not
  bool dtypeMatch = true, sizesMatch = true, stridesMatch = true;
  bool ok = true;  // values within tolerance (and both None, or both tensors of the same sizes)
};

// `ok` is maxAbsDiff <= rtol * scale + atol with equal sizes; strides and dtype are reported,
// not judged (callers decide whether a layout difference matters). Strides are compared where
// they are significant: not for size-1 dimensions, nor for empty tensors.
ValueDiff diffValues(const Value& got, const Value& want, double rtol, double atol);

}  // namespace fathom
