// The built-in derivative formulas, one file per op family (PointwiseDerivatives.cpp, ...),
// and the helpers they share.
#pragma once

#include "engine/autograd/Formula.h"

namespace fathom::autograd {

void registerBuiltinDerivatives();
void registerPointwiseDerivatives();
void registerMathDerivatives();
void registerShapeDerivatives();
void registerMatmulDerivatives();
void registerNnDerivatives();
void registerReductionDerivatives();
void registerIndexingDerivatives();
void registerBackwardDerivatives();
void registerActivationDerivatives();  // ActivationDerivatives.cpp: hardswish, hardsigmoid, silu, prelu
void registerScatterDerivatives();     // ScatterDerivatives.cpp: index, index_put, *_scatter, fills, pad, roll
void registerAsStridedDerivative();    // AsStridedDerivative.cpp
void registerDistanceDerivatives();    // DistanceDerivatives.cpp: _cdist_forward, _pdist_forward

// The gradient of a broadcast operand: `grad` summed over the dimensions broadcasting added or
// expanded, then viewed as `sizes` (at::sum_to). Returns `grad` itself when the sizes match.
Tensor sumToSize(const Tensor& grad, const SymValues& sizes);
// Sizes equal as recorded (symbolic sizes by expression).
bool sameSizes(const SymValues& a, const SymValues& b);
// Sets the gradient of the tensor at `pos` of a broadcasting op: `grad` summed to its sizes and
// cast to its dtype (what PyTorch's engine does to every gradient it validates).
void setBroadcast(GradContext& c, size_t pos, const Tensor& grad);
// zeros_like(t): a gradient that does not depend on the values of its input.
Tensor zerosLike(const Tensor& t);
// `grad` cast back to `like`'s dtype when they differ (a float32 gradient of a float16 input).
Tensor castLike(const Tensor& grad, const Tensor& like);

}  // namespace fathom::autograd
