// The gated activations of MobileNetV3 and EfficientNet and their backward helpers: hardswish,
// hardsigmoid, silu (swish), hardswish_backward, hardsigmoid_backward, silu_backward.
//
// Formulas are PyTorch 1.13's CPU kernels (BinaryOps / Activation.cpp), on float32, float64 and
// bfloat16 only (Half and integers: "not implemented"):
//   hardswish(x)       = x * min(max(x + 3, 0), 6) / 6
//   hardsigmoid(x)     = min(max(x + 3, 0), 6) / 6
//   silu(x)            = x / (1 + exp(-x))
//   hardswish_backward = x < -3 ? 0 : x <= 3 ? g * (x / 3 + 0.5) : g   (vector loop: x >= 3 -> g)
//   hardsigmoid_backward = -3 < x < 3 ? g * float(1/6) : 0           (the float constant, even in float64)
//   silu_backward      = g * s * (1 + x * (1 - s)),  s = 1 / (1 + exp(-x))
// bfloat16 hardswish and hardsigmoid compute in float; silu and silu_backward round every step
// to bfloat16, as c10::BFloat16 arithmetic does (RoundedBFloat16.h). The forward ops keep their
// input's dtype; the backward ops are TensorIterator binary ops over (grad_output, self), which
// promote and take the gradient's layout first.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "engine/core/Error.h"
#include "engine/ops/cpu/RoundedBFloat16.h"
#include "engine/ops/families/ElementwiseFamilies.h"
#include "engine/ops/families/ElementwiseOp.h"

namespace fathom {
namespace {

// ATen dispatches these on float32, float64 and bfloat16.
template <const char* Kernel>
void checkFloatingNoHalf(const ElementwiseOperands& ops, const ValueList&) {
  const DType t = elementwiseResultType(ops, ElementwisePromotion::Common);
  FATHOM_CHECK(t == DType::Float32 || t == DType::Float64 || t == DType::BFloat16, "\"", Kernel,
               "\" not implemented for '", scalarTypeName(t), "'");
}
constexpr char kHardswish[] = "hardswish_cpu";
constexpr char kHardsigmoid[] = "hardsigmoid_cpu";
constexpr char kSilu[] = "silu_cpu";
constexpr char kHardswishBackward[] = "hardswish_backward_cpu";
constexpr char kHardsigmoidBackward[] = "hardsigmoid_backward";
constexpr char kSiluBackward[] = "silu_backward_cpu";

template <class C> constexpr bool kFloating = std::is_floating_point_v<C>;

// std::min / std::max as ATen calls them: a NaN in x passes through both.
template <class C> C clamp06(C v) { return std::min(std::max(v, C(0)), C(6)); }

template <class S> S siluOf(S x) {
  using std::exp;
  return x / (S(1) + exp(-x));
}

template <class S> S siluBackwardOf(S dy, S x) {
  using std::exp;
  const S sigmoid = S(1) / (S(1) + exp(-x));
  return dy * sigmoid * (S(1) + x * (S(1) - sigmoid));
}

// Elements per iteration of ATen's vectorized_loop under AVX2: two Vectorized<T>.
template <class T> constexpr int64_t kVectorBlock = std::is_same_v<T, double> ? 8 : std::is_same_v<T, BFloat16> ? 32 : 16;

// hardswish_backward: ATen's scalar loop takes the formula at x == 3, its vector loop the
// gradient (Vec::blendv on self >= 3); see VectorFormFunctor.
template <class C>
struct HardswishBackward {
  int64_t vectorBlock;
  C operator()(C dy, C x) const {
    if constexpr (!kFloating<C>) return C(0);
    else return x < C(-3) ? C(0) : x <= C(3) ? dy * (x / C(3) + C(0.5)) : dy;
  }
  C vector(C dy, C x) const {
    if constexpr (!kFloating<C>) return C(0);
    else return x < C(-3) ? C(0) : x >= C(3) ? dy : dy * (x / C(3) + C(0.5));
  }
};

auto makeHardswish() {
  return [](auto tag, const ValueList&) {
    using C = MathOf<decltype(tag)>;
    return [](C x) -> C {
      if constexpr (!kFloating<C>) return C(0);
      else return x * clamp06(x + C(3)) / C(6);
    };
  };
}

auto makeHardsigmoid() {
  return [](auto tag, const ValueList&) {
    using C = MathOf<decltype(tag)>;
    return [](C x) -> C {
      if constexpr (!kFloating<C>) return C(0);
      else return clamp06(x + C(3)) / C(6);
    };
  };
}

auto makeSilu() {
  return [](auto tag, const ValueList&) {
    using T = typename decltype(tag)::type;
    using C = OpMath<T>;
    return [](C x) -> C {
      if constexpr (!kFloating<C>) return C(0);
      else return valueOf(siluOf(StepOf<T>(x)));
    };
  };
}

auto makeHardswishBackward() {
  return [](auto tag, const ValueList&) {
    using T = typename decltype(tag)::type;
    return HardswishBackward<OpMath<T>>{kVectorBlock<T>};
  };
}

auto makeHardsigmoidBackward() {
  return [](auto tag, const ValueList&) {
    using C = MathOf<decltype(tag)>;
    return [](C dy, C x) -> C {
      if constexpr (!kFloating<C>) return C(0);
      else return (x > C(-3) && x < C(3)) ? dy * C(1.0f / 6.0f) : C(0);
    };
  };
}

auto makeSiluBackward() {
  return [](auto tag, const ValueList&) {
    using T = typename decltype(tag)::type;
    using C = OpMath<T>;
    return [](C dy, C x) -> C {
      if constexpr (!kFloating<C>) return C(0);
      else return valueOf(siluBackwardOf(StepOf<T>(dy), StepOf<T>(x)));
    };
  };
}

}  // namespace

void registerSwishOps(OpRegistry& r) {
  using P = ElementwisePromotion;
  const std::array<size_t, 1> self{0};
  const std::array<size_t, 2> gradFirst{0, 1};
  addElementwise(r, "aten::hardswish(Tensor self) -> Tensor", self,
                 {.promotion = P::SameDtype, .check = checkFloatingNoHalf<kHardswish>}, makeHardswish());
  addElementwise(r, "aten::hardsigmoid(Tensor self) -> Tensor", self,
                 {.promotion = P::SameDtype, .check = checkFloatingNoHalf<kHardsigmoid>}, makeHardsigmoid());
  addElementwise(r, "aten::silu(Tensor self) -> Tensor", self,
                 {.promotion = P::SameDtype, .check = checkFloatingNoHalf<kSilu>}, makeSilu());
  addElementwise(r, "aten::hardswish_backward(Tensor grad_output, Tensor self) -> Tensor", gradFirst,
                 {.check = checkFloatingNoHalf<kHardswishBackward>}, makeHardswishBackward());
  addElementwise(r, "aten::hardsigmoid_backward(Tensor grad_output, Tensor self) -> Tensor", gradFirst,
                 {.check = checkFloatingNoHalf<kHardsigmoidBackward>}, makeHardsigmoidBackward());
  addElementwise(r, "aten::silu_backward(Tensor grad_output, Tensor self) -> Tensor", gradFirst,
                 {.check = checkFloatingNoHalf<kSiluBackward>}, makeSiluBackward());
}

}  // namespace fathom
