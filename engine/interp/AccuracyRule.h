// PyTorch's own accuracy rule (torch._dynamo.utils.same with an fp64 reference), the judge of a
// float result computed in another way than PyTorch's: it passes when it is allclose to PyTorch's
// result (rtol = atol = tol), or when its error against a float64 run is at most a small
// multiple of PyTorch's own error against that run:
//
//   rmse(got, fp64) <= multiplier * rmse(pytorch, fp64) + tol / 10
//
// (multiplier 2; 3 for tensors under 1000 elements or 4-d ones with 1x1 spatial dims, whose
// errors are noisy - `same`'s own rule). Rounding a batch norm over two values per channel may
// move a float32 output far from PyTorch's in absolute terms while both stay equally far from
// the float64 truth: that passes; an op that computes something else does not.
#pragma once

#include "engine/core/Result.h"
#include "engine/graph/Graph.h"
#include "engine/ops/Value.h"

namespace fathom {

inline constexpr double kSameTolerance = 1e-4;  // `same`'s default tol

struct AccuracyJudgement {
  bool ok = false;
  bool allclose = false;        // decided by allclose(got, reference, tol, tol)
  double error = 0;             // rmse(got, fp64)
  double referenceError = 0;    // rmse(reference, fp64)
  double allowed = 0;           // multiplier * referenceError + tol / 10
};

// `got` and `reference` (PyTorch's) of one float output, `fp64` the float64 run's; all of the
// same sizes. NaN where both have NaN agrees; a NaN reference error (PyTorch's result is not
// stable in this precision) passes, as in `same`.
AccuracyJudgement judgeAccuracy(const Tensor& got, const Tensor& reference, const Tensor& fp64, double tol);

// The inputs of a float64 reference run: float tensors converted to float64 (contiguous), the
// rest unchanged.
Result<ValueList> widenedToFloat64(const ValueList& values);
double rmse(const Tensor& a, const Tensor& b);

// The graph of the float64 reference run: `graph` with every float dtype argument (a factory's
// dtype=torch.float32, convert_element_type's target, _to_copy's dtype) made float64. A captured
// graph bakes its dtypes in: AOT's backward makes `new_zeros(..., dtype=torch.float32)` where the
// model said `grad.new_zeros(...)`, and that zeros tensor, indexed-put with a float64 source,
// fails the run. PyTorch widens its own graphs the same way for its minifier's reference
// (torch._dynamo.debug_utils.cast_dtype_args_to_fp64).
Graph withFloat64DtypeArgs(Graph graph);

}  // namespace fathom
