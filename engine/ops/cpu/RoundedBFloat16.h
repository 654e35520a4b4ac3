// bfloat16 arithmetic as c10::BFloat16's operators compute it: every operation (constants too)
// rounds its result to bfloat16. PyTorch 1.13 runs a few activations (gelu, silu and their
// backwards) on bfloat16 this way, so their formulas, written once over a step type S, give
// PyTorch's bfloat16 values with S = RoundedBFloat16 and compute in OpMath<T> otherwise
// (StepOf<T>). valueOf() reads the float back from either.
#pragma once

#include <cmath>
#include <type_traits>

#include "engine/tensor/DTypeDispatch.h"

namespace fathom {

struct RoundedBFloat16 {
  float v;
  explicit RoundedBFloat16(double x) : v(static_cast<float>(BFloat16(static_cast<float>(x)))) {}
  friend RoundedBFloat16 operator+(RoundedBFloat16 a, RoundedBFloat16 b) { return RoundedBFloat16(a.v + b.v); }
  friend RoundedBFloat16 operator-(RoundedBFloat16 a, RoundedBFloat16 b) { return RoundedBFloat16(a.v - b.v); }
  friend RoundedBFloat16 operator*(RoundedBFloat16 a, RoundedBFloat16 b) { return RoundedBFloat16(a.v * b.v); }
  friend RoundedBFloat16 operator/(RoundedBFloat16 a, RoundedBFloat16 b) { return RoundedBFloat16(a.v / b.v); }
  friend RoundedBFloat16 operator-(RoundedBFloat16 a) { return RoundedBFloat16(-a.v); }
  friend RoundedBFloat16 erf(RoundedBFloat16 a) { return RoundedBFloat16(std::erf(a.v)); }
  friend RoundedBFloat16 tanh(RoundedBFloat16 a) { return RoundedBFloat16(std::tanh(a.v)); }
  friend RoundedBFloat16 exp(RoundedBFloat16 a) { return RoundedBFloat16(std::exp(a.v)); }
};

template <class T> using StepOf = std::conditional_t<std::is_same_v<T, BFloat16>, RoundedBFloat16, OpMath<T>>;
template <class C> C valueOf(C x) { return x; }
inline float valueOf(RoundedBFloat16 x) { return x.v; }

}  // namespace fathom
