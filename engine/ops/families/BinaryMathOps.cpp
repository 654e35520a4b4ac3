// Binary math of Core ATen: atan2, fmod and remainder (Tensor and Scalar), pow.Tensor_Tensor,
// pow.Scalar, clamp.Tensor; and the activations elu and leaky_relu with their backward ops.
//
// All are TensorIterator ops over the common dtype (atan2 promotes integers to float32), with
// ATen's kernels' formulas: integer fmod and remainder refuse a zero divisor ("ZeroDivisionError"),
// remainder takes the divisor's sign (Python's %), integer pow by squaring with negative
// exponents giving 1, -1 or 0 (ATen's powi). pow.Scalar is not a TensorIterator op in ATen: its
// result is a fresh contiguous tensor of the exponent's shape, filled by pow(wrapped base, exp).
// clamp.Tensor with one bound is ATen's maximum/minimum, so a NaN anywhere gives NaN.
#include <cmath>
#include <limits>
#include <type_traits>

#include "engine/core/Error.h"
#include "engine/ops/cpu/ScalarConvert.h"
#include "engine/ops/cpu/WrappingArithmetic.h"
#include "engine/ops/families/ElementwiseFamilies.h"
#include "engine/ops/families/ElementwiseOp.h"

namespace fathom {
namespace {

using P = ElementwisePromotion;
constexpr std::array<size_t, 2> kAB{0, 1};

template <const char* Kernel>
void checkNotBool(const ElementwiseOperands& ops, const ValueList&) {
  FATHOM_CHECK(elementwiseResultType(ops, P::Common) != DType::Bool, "\"", Kernel, "\" not implemented for 'Bool'");
}
constexpr char kFmod[] = "fmod_cpu", kRemainder[] = "remainder_cpu", kPow[] = "pow";

template <class C> C fmodOf(C a, C b) {
  if constexpr (std::is_same_v<C, bool>) {
    return a;  // refused by the check
  } else if constexpr (std::is_integral_v<C>) {
    FATHOM_CHECK(b != 0, "ZeroDivisionError");
    if constexpr (std::is_signed_v<C>) {
      if (b == -1) return 0;  // INT_MIN % -1 overflows in C++
    }
    return static_cast<C>(a % b);
  } else {
    return std::fmod(a, b);
  }
}

// Python's %: fmod, then moved by the divisor where the signs differ.
template <class C> C remainderOf(C a, C b) {
  C r = fmodOf(a, b);
  if constexpr (std::is_same_v<C, bool> || std::is_unsigned_v<C>) {
    return r;
  } else {
    if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<C>(r + b);
    return r;
  }
}

// ATen's powi: negative exponents of a signed integer give 1 for base 1, +-1 for base -1, else 0.
template <class C> C integerPowOf(C base, C exponent) {
  if constexpr (std::is_signed_v<C>) {
    if (exponent < 0) {
      if (base == 1) return 1;
      if (base == -1) return exponent % 2 != 0 ? C(-1) : C(1);
      return 0;
    }
  }
  return wrapPow(base, exponent);
}

template <class C> C powOf(C a, C b) {
  if constexpr (std::is_same_v<C, bool>) return a;  // refused by the check
  else if constexpr (std::is_integral_v<C>) return integerPowOf(a, b);
  else return std::pow(a, b);
}

template <class F>
auto binary(F f) {
  return [f](auto tag, const ValueList&) {
    using C = MathOf<decltype(tag)>;
    return [f](C a, C b) -> C { return static_cast<C>(f(a, b)); };
  };
}

void registerDivisionLike(OpRegistry& r) {
  const ElementwiseRule fmod{.check = checkNotBool<kFmod>}, remainder{.check = checkNotBool<kRemainder>};
  auto fm = binary([](auto a, auto b) { return fmodOf(a, b); });
  auto rm = binary([](auto a, auto b) { return remainderOf(a, b); });
  addElementwise(r, "aten::fmod.Tensor(Tensor self, Tensor other) -> Tensor", kAB, fmod, fm);
  addElementwise(r, "aten::fmod.Scalar(Tensor self, Scalar other) -> Tensor", kAB, fmod, fm);
  addElementwise(r, "aten::remainder.Tensor(Tensor self, Tensor other) -> Tensor", kAB, remainder, rm);
  addElementwise(r, "aten::remainder.Scalar(Tensor self, Scalar other) -> Tensor", kAB, remainder, rm);
  addElementwise(r, "aten::atan2(Tensor self, Tensor other) -> Tensor", kAB, {.promotion = P::CommonToFloat},
                 binary([](auto a, auto b) { return std::atan2(a, b); }));
  auto pw = binary([](auto a, auto b) { return powOf(a, b); });
  addElementwise(r, "aten::pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor", kAB,
                 {.check = checkNotBool<kPow>}, pw);
  // pow.Scalar(Scalar self, Tensor exponent): a contiguous result of the exponent's shape.
  addElementwise(r, "aten::pow.Scalar(Scalar self, Tensor exponent) -> Tensor", kAB,
                 {.check = checkNotBool<kPow>, .outputStrides = OutputStrides::Contiguous}, pw);
}

// ---- clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -----------------------------

ElementwiseOperands clampTensorOperands(const ValueList& margs) {
  FATHOM_CHECK(!margs.at(1).isNone() || !margs.at(2).isNone(), "torch.clamp: At least one of 'min' or 'max' must not be None");
  ElementwiseOperands ops{{metaArg(margs, 0)}};
  for (size_t i : {1, 2})
    if (!margs.at(i).isNone()) ops.push_back({metaArg(margs, i)});
  return ops;
}

template <class C> C nanOr(C a, C b, C x) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<C>::quiet_NaN();
  }
  return x;
}

// min(max(x, lo), hi) with NaN anywhere giving NaN (ATen's clamp, maximum and minimum kernels).
ValueList clampTensorKernel(const ValueList& args) {
  const bool hasLo = !args.at(1).isNone(), hasHi = !args.at(2).isNone();
  const ElementwiseRule rule{.operands = clampTensorOperands};
  if (hasLo && hasHi) {
    const std::array<size_t, 3> pos{0, 1, 2};
    const ElementwiseLayout layout = elementwiseLayoutOf(metaArgs(args), args, pos, rule);
    return {runElementwise<3>(layout, inputsOf(args, pos), [](auto tag) {
      using C = MathOf<decltype(tag)>;
      return [](C x, C lo, C hi) -> C {
        const C m = nanOr(x, lo, x < lo ? lo : x);
        return nanOr(m, hi, hi < m ? hi : m);
      };
    })};
  }
  const std::array<size_t, 2> pos{0, hasLo ? size_t{1} : size_t{2}};
  const ElementwiseLayout layout = elementwiseLayoutOf(metaArgs(args), args, pos, rule);
  return {runElementwise<2>(layout, inputsOf(args, pos), [hasLo](auto tag) {
    using C = MathOf<decltype(tag)>;
    return [hasLo](C x, C bound) -> C { return nanOr(x, bound, hasLo ? (x < bound ? bound : x) : (bound < x ? bound : x)); };
  })};
}

void registerClampTensor(OpRegistry& r) {
  const ElementwiseRule rule{.operands = clampTensorOperands};
  (void)r.add(
      "aten::clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor",
      [rule](const ValueList& args) {
        return ValueList{elementwiseLayoutOf(args, args, std::array<size_t, 1>{0}, rule).output};
      },
      clampTensorKernel);
}

// ---- elu, leaky_relu and their backward ops ----------------------------------------------------

template <const char* Kernel>
void checkFloating(const ElementwiseOperands& ops, const ValueList&) {
  const DType t = elementwiseResultType(ops, P::Common);
  FATHOM_CHECK(isFloating(t), "\"", Kernel, "\" not implemented for '", scalarTypeName(t), "'");
}
constexpr char kElu[] = "elu_cpu", kEluBackward[] = "elu_backward_cpu", kLeaky[] = "leaky_relu_cpu",
               kLeakyBackward[] = "leaky_relu_backward_cpu";

template <class T> OpMath<T> coefficient(const ValueList& args, size_t i) {
  return static_cast<OpMath<T>>(convertValue<T>(scalarArg(args.at(i)).real));
}

// elu: x > 0 ? x * scale : (exp(x * input_scale) - 1) * alpha * scale.
auto makeElu() {
  return [](auto tag, const ValueList& args) {
    using T = typename decltype(tag)::type;
    using C = OpMath<T>;
    if constexpr (!std::is_floating_point_v<C>) {
      return [](C x) -> C { return x; };  // refused by the check
    } else {
      const C neg = coefficient<T>(args, 1) * coefficient<T>(args, 2), pos = coefficient<T>(args, 2),
              in = coefficient<T>(args, 3);
      return [=](C x) -> C { return x <= C(0) ? (std::exp(x * in) - C(1)) * neg : x * pos; };
    }
  };
}

// elu_backward(grad_output, alpha, scale, input_scale, is_result, self_or_result).
auto makeEluBackward() {
  return [](auto tag, const ValueList& args) {
    using T = typename decltype(tag)::type;
    using C = OpMath<T>;
    if constexpr (!std::is_floating_point_v<C>) {
      return [](C g, C) -> C { return g; };  // refused by the check
    } else {
      const C neg = coefficient<T>(args, 1) * coefficient<T>(args, 2), pos = coefficient<T>(args, 2),
              in = coefficient<T>(args, 3);
      const bool isResult = boolArg(args, 4);
      return [=](C g, C b) -> C {
        if (!(b <= C(0))) return g * pos;  // NaN takes this side, as in ATen
        return isResult ? g * in * (b + neg) : g * in * neg * std::exp(b * in);
      };
    }
  };
}

void checkEluBackward(const ElementwiseOperands& ops, const ValueList& args) {
  checkFloating<kEluBackward>(ops, args);
  const double alpha = scalarArg(args.at(1)).real;
  FATHOM_CHECK(!boolArg(args, 4) || alpha >= 0.0,
               "In-place elu backward calculation is triggered with a negative slope which is not supported. "
               "This is caused by calling in-place forward function with a negative slope, please call out-of-place "
               "version instead.");
}

void checkLeakyBackward(const ElementwiseOperands& ops, const ValueList& args) {
  checkFloating<kLeakyBackward>(ops, args);
  FATHOM_CHECK(!boolArg(args, 3) || scalarArg(args.at(2)).real >= 0.0,
               "In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. "
               "This is caused by calling in-place forward function with a negative slope, please call out-of-place "
               "version instead.");
}

void registerActivations(OpRegistry& r) {
  const std::array<size_t, 1> self{0};
  addElementwise(r, "aten::elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor", self,
                 {.promotion = P::SameDtype, .check = checkFloating<kElu>}, makeElu());
  addElementwise(r,
                 "aten::elu_backward(Tensor grad_output, Scalar alpha, Scalar scale, Scalar input_scale, bool is_result, "
                 "Tensor self_or_result) -> Tensor",
                 std::array<size_t, 2>{0, 5}, {.check = checkEluBackward}, makeEluBackward());
  addElementwise(r, "aten::leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor", self,
                 {.promotion = P::SameDtype, .check = checkFloating<kLeaky>}, [](auto tag, const ValueList& args) {
                   using T = typename decltype(tag)::type;
                   using C = OpMath<T>;
                   const C slope = coefficient<T>(args, 1);
                   return [slope](C x) -> C { return x > C(0) ? x : x * slope; };
                 });
  // leaky_relu_backward: TensorIterator sees self_or_result first, then the gradient.
  addElementwise(r,
                 "aten::leaky_relu_backward(Tensor grad_output, Tensor self, Scalar negative_slope, bool self_is_result) "
                 "-> Tensor",
                 std::array<size_t, 2>{1, 0}, {.check = checkLeakyBackward}, [](auto tag, const ValueList& args) {
                   using T = typename decltype(tag)::type;
                   using C = OpMath<T>;
                   const C slope = coefficient<T>(args, 2);
                   return [slope](C x, C g) -> C { return x > C(0) ? g : g * slope; };
                 });
}

}  // namespace

void registerBinaryMathOps(OpRegistry& registry) {
  registerDivisionLike(registry);
  registerClampTensor(registry);
  registerActivations(registry);
}

}  // namespace fathom
