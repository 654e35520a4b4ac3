// Activations and the backward helpers autograd decomposes into: gelu (exact and tanh),
// gelu_backward, tanh_backward, sigmoid_backward, hardtanh_backward.
//
// Formulas are ATen's, written over OpMath (float for float32), so float32 results round like
// PyTorch's; float32 gelu also has ATen's vector form (erf by Abramowitz & Stegun) for speed,
// and bfloat16 gelu rounds every step as c10::BFloat16 arithmetic does. The backward ops are TensorIterator binary ops over
// (grad_output, saved tensor): the gradient is the first operand and so decides the output
// layout when the two disagree.
#include <cmath>
#include <string>
#include <type_traits>

#include "engine/core/Error.h"
#include "engine/ops/families/ElementwiseFamilies.h"
#include "engine/ops/families/ElementwiseOp.h"
#include "engine/ops/cpu/GeluConstants.h"
#include "engine/ops/cpu/RoundedBFloat16.h"
#include "engine/ops/cpu/VecMath.h"

namespace fathom {
namespace {

// kAlpha = 1/sqrt(2); kBeta (tanh) = sqrt(2) * 2/sqrt(pi) * 0.5 = sqrt(2/pi);
// kBetaPdf = 2/sqrt(pi) * 1/sqrt(2) * 0.5 = 1/sqrt(2*pi); kKappa = 0.044715 (GeluConstants.h).
using gelu::kKappa;
using gelu::kSqrt1_2;
using gelu::kSqrt2;
using gelu::kTwoOverSqrtPi;

// The approximate= argument: "none" (exact, erf) or "tanh".
bool tanhApproximation(const ValueList& args, size_t i) {
  const std::string* s = args.at(i).tryAs<std::string>();
  FATHOM_CHECK(s && (*s == "none" || *s == "tanh"), "approximate argument must be either none or tanh.");
  return *s == "tanh";
}

// PyTorch has these kernels for floating dtypes only.
template <const char* Kernel>
void checkFloating(const ElementwiseOperands& ops, const ValueList&) {
  const DType t = elementwiseResultType(ops, ElementwisePromotion::Common);
  FATHOM_CHECK(isFloating(t), "\"", Kernel, "\" not implemented for '", scalarTypeName(t), "'");
}
constexpr char kGelu[] = "GeluKernelImpl";
constexpr char kGeluBackward[] = "GeluBackwardKernelImpl";
constexpr char kTanhBackward[] = "tanh_backward_cpu";
constexpr char kSigmoidBackward[] = "sigmoid_backward_cpu";
constexpr char kHardtanhBackward[] = "hardshrink_backward_cpu";

template <const char* Kernel, size_t ApproximateArg>
void checkGelu(const ElementwiseOperands& ops, const ValueList& args) {
  (void)tanhApproximation(args, ApproximateArg);
  checkFloating<Kernel>(ops, args);
}

// PyTorch 1.13 runs gelu and gelu_backward on bfloat16 as c10::BFloat16 arithmetic, every
// step rounded (RoundedBFloat16.h): the formulas below are written once over a step type S.

template <class S>
S geluExact(S x) {
  using std::erf;
  const S kAlpha = S(kSqrt1_2);
  return x * S(0.5) * (S(1) + erf(x * kAlpha));
}

template <class S>
S geluTanh(S x) {
  using std::tanh;
  const S kBeta = S(kSqrt2 * kTwoOverSqrtPi * 0.5), kK = S(kKappa);
  const S xCube = x * x * x;
  const S inner = kBeta * (x + kK * xCube);
  return S(0.5) * x * (S(1) + tanh(inner));
}

template <class S>
S geluExactBackward(S dy, S x) {
  using std::erf, std::exp;
  const S kBeta = S(kTwoOverSqrtPi * kSqrt1_2 * 0.5), kAlpha = S(kSqrt1_2);
  const S cdf = S(0.5) * (S(1) + erf(x * kAlpha));
  const S pdf = kBeta * exp(x * x * S(-0.5));
  return dy * (cdf + x * pdf);
}

template <class S>
S geluTanhBackward(S dy, S x) {
  using std::tanh;
  const S kBeta = S(kSqrt2 * kTwoOverSqrtPi * 0.5), kK = S(kKappa);
  const S xSq = x * x, xCube = xSq * x;
  const S tanhInner = tanh(kBeta * (x + kK * xCube));
  const S left = S(0.5) * x, right = S(1) + tanhInner;
  const S leftDerivative = S(0.5) * right;
  const S tanhDerivative = S(1) - tanhInner * tanhInner;
  const S innerDerivative = kBeta * (S(1) + S(3) * kK * xSq);
  return dy * (leftDerivative + left * tanhDerivative * innerDerivative);
}

// float32 erf as ATen's Vectorized<float>::erf computes it: Abramowitz & Stegun 7.1.26
// (|error| < 1.5e-7) over an exp polynomial; sign(x) * (1 - r(t) * t * exp(-x^2)).
inline vec::Float4 erfVec(vec::Float4 x) {
  const vec::Int4 negative = x < 0;
  const vec::Float4 ax = vec::select(negative, -x, x);
  const vec::Float4 t = 1.0f / (0.3275911f * ax + 1.0f);
  vec::Float4 r = 1.061405429f * t - 1.453152027f;
  r = r * t + 1.421413741f;
  r = r * t - 0.284496736f;
  r = r * t + 0.254829592f;
  const vec::Float4 y = 1.0f - r * t * vec::expVec(-(x * x));
  return vec::select(negative, -y, y);
}

// float32 gelu and gelu_backward: the scalar formulas above, and for blocks of eight the vector
// form ATen's cpu_kernel_vec runs (erfVec, vec::expVec). The tanh form stays scalar.
struct GeluFloat {
  bool tanhApprox;
  float operator()(float x) const { return tanhApprox ? geluTanh(x) : geluExact(x); }
  void block8(float* out, const float* in) const {
    if (tanhApprox) {
      for (int i = 0; i < 8; ++i) out[i] = geluTanh(in[i]);
      return;
    }
    for (int i = 0; i < 8; i += vec::kLanes) {
      const vec::Float4 x = vec::load(in + i);
      vec::store(out + i, x * 0.5f * (1.0f + erfVec(x * static_cast<float>(kSqrt1_2))));
    }
  }
};

struct GeluBackwardFloat {
  bool tanhApprox;
  float operator()(float dy, float x) const { return tanhApprox ? geluTanhBackward(dy, x) : geluExactBackward(dy, x); }
  void block8(float* out, const float* dys, const float* xs) const {
    if (tanhApprox) {
      for (int i = 0; i < 8; ++i) out[i] = geluTanhBackward(dys[i], xs[i]);
      return;
    }
    const float kBeta = static_cast<float>(kTwoOverSqrtPi * kSqrt1_2 * 0.5);
    for (int i = 0; i < 8; i += vec::kLanes) {
      const vec::Float4 dy = vec::load(dys + i), x = vec::load(xs + i);
      const vec::Float4 cdf = 0.5f * (1.0f + erfVec(x * static_cast<float>(kSqrt1_2)));
      const vec::Float4 pdf = kBeta * vec::expVec(x * x * -0.5f);
      vec::store(out + i, dy * (cdf + x * pdf));
    }
  }
};

// The functors compute for floating types only: the checks reject every other dtype, whose
// instantiations just return 0.
template <class C> constexpr bool kFloating = std::is_floating_point_v<C>;

auto makeGelu() {
  return [](auto tag, const ValueList& args) {
    using T = typename decltype(tag)::type;
    using C = OpMath<T>;
    const bool tanhApprox = tanhApproximation(args, 1);
    if constexpr (std::is_same_v<T, float>) {
      return GeluFloat{tanhApprox};
    } else {
      return [tanhApprox](C x) -> C {
        if constexpr (!kFloating<C>) {
          return C(0);
        } else {
          using S = StepOf<T>;
          return valueOf(tanhApprox ? geluTanh(S(x)) : geluExact(S(x)));
        }
      };
    }
  };
}

auto makeGeluBackward() {
  return [](auto tag, const ValueList& args) {
    using T = typename decltype(tag)::type;
    using C = OpMath<T>;
    const bool tanhApprox = tanhApproximation(args, 2);
    if constexpr (std::is_same_v<T, float>) {
      return GeluBackwardFloat{tanhApprox};
    } else {
      return [tanhApprox](C dy, C x) -> C {
        if constexpr (!kFloating<C>) {
          return C(0);
        } else {
          using S = StepOf<T>;
          return valueOf(tanhApprox ? geluTanhBackward(S(dy), S(x)) : geluExactBackward(S(dy), S(x)));
        }
      };
    }
  };
}

auto makeTanhBackward() {
  return [](auto tag, const ValueList&) {
    using C = MathOf<decltype(tag)>;
    return [](C grad, C y) -> C {
      if constexpr (!kFloating<C>) return C(0);
      else return grad * (C(1) - y * y);
    };
  };
}

auto makeSigmoidBackward() {
  return [](auto tag, const ValueList&) {
    using C = MathOf<decltype(tag)>;
    return [](C grad, C y) -> C {
      if constexpr (!kFloating<C>) return C(0);
      else return grad * (C(1) - y) * y;
    };
  };
}

// The gradient passes where min < self < max; the bounds are converted to the element type.
auto makeHardtanhBackward() {
  return [](auto tag, const ValueList& args) {
    using T = typename decltype(tag)::type;
    using C = OpMath<T>;
    const C lo = C(convertValue<T>(scalarArg(args.at(2)).real)), hi = C(convertValue<T>(scalarArg(args.at(3)).real));
    return [lo, hi](C grad, C self) -> C { return (self <= lo || self >= hi) ? C(0) : grad; };
  };
}

}  // namespace

void registerActivationOps(OpRegistry& r) {
  const std::array<size_t, 2> gradFirst{0, 1};
  addElementwise(r, "aten::gelu(Tensor self, *, str approximate=\"none\") -> Tensor", std::array<size_t, 1>{0},
                 {.promotion = ElementwisePromotion::SameDtype, .check = checkGelu<kGelu, 1>}, makeGelu());
  addElementwise(r, "aten::gelu_backward(Tensor grad_output, Tensor self, *, str approximate=\"none\") -> Tensor",
                 gradFirst, {.check = checkGelu<kGeluBackward, 2>}, makeGeluBackward());
  addElementwise(r, "aten::tanh_backward(Tensor grad_output, Tensor output) -> Tensor", gradFirst,
                 {.check = checkFloating<kTanhBackward>}, makeTanhBackward());
  addElementwise(r, "aten::sigmoid_backward(Tensor grad_output, Tensor output) -> Tensor", gradFirst,
                 {.check = checkFloating<kSigmoidBackward>}, makeSigmoidBackward());
  addElementwise(r,
                 "aten::hardtanh_backward(Tensor grad_output, Tensor self, Scalar min_val, Scalar max_val) -> Tensor",
                 gradFirst, {.check = checkFloating<kHardtanhBackward>}, makeHardtanhBackward());
}

}  // namespace fathom
