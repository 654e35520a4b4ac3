// The elementwise ops beyond PointwiseOps.cpp, one registration function per file;
// registerMathOps (MathOps.cpp) calls them all.
#pragma once

namespace fathom {
class OpRegistry;
void registerActivationOps(OpRegistry& registry);  // ActivationOps.cpp: gelu, hardtanh, *_backward
void registerComparisonOps(OpRegistry& registry);  // ComparisonOps.cpp: eq..ge, logical_not, where
void registerFillOps(OpRegistry& registry);        // FillOps.cpp: fill, masked_fill, tril, triu
void registerSwishOps(OpRegistry& registry);       // SwishOps.cpp: hardswish, hardsigmoid, silu, *_backward
void registerDivisionOps(OpRegistry& registry);    // DivisionOps.cpp: div.Tensor_mode, div.Scalar_mode
}  // namespace fathom
