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
void registerUnaryMathOps(OpRegistry& registry);   // UnaryMathOps.cpp: acos..tan, erf, log2, ceil..trunc, sign, isnan, ...
void registerBitwiseOps(OpRegistry& registry);     // BitwiseOps.cpp: bitwise_and/or/xor, logical_and/or/xor
void registerBinaryMathOps(OpRegistry& registry);  // BinaryMathOps.cpp: atan2, fmod, remainder, pow, clamp.Tensor, elu, leaky_relu
void registerTernaryPointwiseOps(OpRegistry& registry);  // TernaryPointwiseOps.cpp: addcmul, addcdiv
}  // namespace fathom
