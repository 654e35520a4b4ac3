// The constants of gelu and its backward (exact and tanh forms), as ATen writes them: shared by
// the eager kernels (ActivationOps.cpp) and the jit's formulas (engine/compile/PointwiseLowering.cpp),
// so both round the same numbers.
#pragma once

namespace fathom::gelu {

inline constexpr double kSqrt1_2 = 0.70710678118654752440;        // 1/sqrt(2), kAlpha
inline constexpr double kTwoOverSqrtPi = 1.12837916709551257390;  // 2/sqrt(pi)
inline constexpr double kSqrt2 = 1.41421356237309504880;
inline constexpr double kKappa = 0.044715;

}  // namespace fathom::gelu
