// Elementwise math: abs, log, sqrt, rsqrt, pow.Tensor_Scalar, maximum, minimum, clamp, clamp_min,
// hardtanh; and registerMathOps, which also registers the activation, comparison and fill ops
// (see ElementwiseFamilies.h). rsub lives beside sub in PointwiseOps.cpp.
//
// pow and clamp let their Python-number arguments take part in type promotion, then run as a
// unary op on `self.to(result_type)` (ATen's meta functions do exactly this), so the numbers
// never influence the output's strides.
#include <cmath>
#include <limits>
#include <type_traits>

#include "engine/core/Error.h"
#include "engine/ops/AtenVersion.h"
#include "engine/ops/families/ElementwiseFamilies.h"
#include "engine/ops/families/ElementwiseOp.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/cpu/ScalarConvert.h"
#include "engine/ops/cpu/WrappingArithmetic.h"

namespace fathom {
namespace {

using P = ElementwisePromotion;

// self converted to `dtype` as Tensor.to(dtype) does (preserve_format), as the one operand.
ElementwiseOperands selfAs(const TensorMeta& self, DType dtype) {
  if (self.dtype == dtype) return {{self}};
  return {{freshLike(self, dtype, likeStrides(self, std::nullopt))}};
}

void checkAbs(const ElementwiseOperands& ops, const ValueList&) {
  FATHOM_CHECK(ops[0].meta.dtype != DType::Bool, "\"abs_cpu\" not implemented for 'Bool'");
}

template <class C> C absOf(C x) {
  if constexpr (std::is_same_v<C, bool>) return x;
  else if constexpr (std::is_floating_point_v<C>) return std::fabs(x);
  else if constexpr (std::is_unsigned_v<C>) return x;
  else return x < 0 ? static_cast<C>(0u - static_cast<std::make_unsigned_t<C>>(x)) : x;  // abs(-128) is -128
}

// ---- pow(Tensor self, Scalar exponent) ------------------------------------------------------

ElementwiseOperands powOperands(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  return selfAs(self, elementwiseResultType({{self}, {wrappedNumberMeta(scalarArg(margs.at(1)).dtype), true}},
                                            P::Common));
}

void checkPow(const ElementwiseOperands& ops, const ValueList& args) {
  const ScalarArg exponent = scalarArg(args.at(1));
  const DType self = args.at(0).is<Tensor>() ? tensorArg(args, 0).dtype() : metaArg(args, 0).dtype;  // before promotion
  FATHOM_CHECK(!(isIntegral(self, /*includeBool=*/true) && !exponent.isFloating() && exponent.integer < 0),
               "Integers to negative integer powers are not allowed.");
  const DType common = ops[0].meta.dtype;
  FATHOM_CHECK(common != DType::Bool, "\"pow\" not implemented for 'Bool'");
  // The kernel converts the exponent to the element type, except for float and double.
  if (common != DType::Float32 && common != DType::Float64) checkScalarFits(exponent, common);
}

// pow_tensor_scalar_kernel's shortcuts: float, double and bfloat16 compute exponents 0.5, -0.5
// and -1 as sqrt, rsqrt and reciprocal (judged on the exponent as given), then 2, 3 and -2 as
// products (judged on the exponent as the kernel converted it); float16 takes none.
enum class PowKind { General, Sqrt, Rsqrt, Reciprocal, Square, Cube, InverseSquare };

PowKind powKind(double given, double converted) {
  if (given == 0.5) return PowKind::Sqrt;
  if (given == -0.5) return PowKind::Rsqrt;
  if (given == -1) return PowKind::Reciprocal;
  if (converted == 2) return PowKind::Square;
  if (converted == 3) return PowKind::Cube;
  if (converted == -2) return PowKind::InverseSquare;
  return PowKind::General;
}

auto makePow() {
  return [](auto tag, const ValueList& args) {
    using T = typename decltype(tag)::type;
    using C = OpMath<T>;
    const ScalarArg exponent = scalarArg(args.at(1));
    if constexpr (std::is_integral_v<C>) {
      const C e = checkedScalarTo<T>(exponent);
      return [e](C x) { return wrapPow<C>(x, e); };
    } else {
      // float and double use the exponent as a double; the 16-bit types round it to T first.
      const double e = kIsReducedFloat<T> ? static_cast<double>(static_cast<float>(checkedScalarTo<T>(exponent)))
                                          : exponent.real;
      const PowKind kind = std::is_same_v<T, Half> ? PowKind::General : powKind(exponent.real, e);
      return [e, kind](C x) -> C {
        switch (kind) {
          case PowKind::Sqrt: return std::sqrt(x);
          case PowKind::Rsqrt: return C(1) / std::sqrt(x);
          case PowKind::Reciprocal: return C(1) / x;
          case PowKind::Square: return x * x;
          case PowKind::Cube: return x * x * x;
          case PowKind::InverseSquare: return C(1) / (x * x);
          case PowKind::General: break;
        }
        return static_cast<C>(std::pow(static_cast<double>(x), e));
      };
    }
  };
}

// ---- maximum / minimum ------------------------------------------------------------------------

// NaN in either input gives NaN; otherwise std::max / std::min (which keep the first operand
// on ties, so maximum(0.0, -0.0) is 0.0).
template <bool IsMax>
auto makeExtremum() {
  return [](auto tag, const ValueList&) {
    using C = MathOf<decltype(tag)>;
    return [](C a, C b) -> C {
      if constexpr (std::is_floating_point_v<C>) {
        if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<C>::quiet_NaN();
      }
      return IsMax ? std::max(a, b) : std::min(a, b);
    };
  };
}

// ---- clamp(Tensor self, Scalar? min, Scalar? max) ---------------------------------------------

// A floating self keeps its dtype; otherwise the bounds take part in promotion (clamp meta).
ElementwiseOperands clampOperands(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  if (isFloating(self.dtype)) return {{self}};
  ElementwiseOperands all{{self}};
  for (size_t i : {1, 2})
    if (!margs.at(i).isNone()) all.push_back({wrappedNumberMeta(scalarArg(margs[i]).dtype), true});
  return selfAs(self, elementwiseResultType(all, P::Common));
}

void checkClamp(const ElementwiseOperands& ops, const ValueList& args) {
  FATHOM_CHECK(!args.at(1).isNone() || !args.at(2).isNone(), "torch.clamp: At least one of 'min' or 'max' must not be None");
  for (size_t i : {1, 2})
    if (!args.at(i).isNone()) checkScalarFits(scalarArg(args[i]), ops[0].meta.dtype);
}

// Shared with hardtanh: min(max(x, lo), hi) over the element type, NaN propagating from x; a
// NaN bound fills the output with NaN when both bounds are given (clamp_out), and a missing
// bound is no bound. The bounds are converted to T first (Scalar::to<scalar_t>).
template <class T>
auto clampFunctor(std::optional<ScalarArg> lo, std::optional<ScalarArg> hi) {
  using C = OpMath<T>;
  bool nanFill = false;
  if constexpr (!std::is_integral_v<C>) nanFill = lo && hi && (std::isnan(lo->real) || std::isnan(hi->real));
  const bool hasLo = lo.has_value(), hasHi = hi.has_value();
  const C l = hasLo ? C(checkedScalarTo<T>(*lo)) : C(0), h = hasHi ? C(checkedScalarTo<T>(*hi)) : C(0);
  return [=](C x) -> C {
    if constexpr (!std::is_integral_v<C>) {
      if (nanFill) return std::numeric_limits<C>::quiet_NaN();
    }
    // std::max(x, l) keeps x when x is NaN or equal; likewise std::min.
    if (hasLo) x = x < l ? l : x;
    if (hasHi) x = h < x ? h : x;
    return x;
  };
}

auto makeClamp() {
  return [](auto tag, const ValueList& args) {
    using T = typename decltype(tag)::type;
    std::optional<ScalarArg> lo, hi;
    if (!args.at(1).isNone()) lo = scalarArg(args[1]);
    if (!args.at(2).isNone()) hi = scalarArg(args[2]);
    return clampFunctor<T>(lo, hi);
  };
}

// ---- clamp_min(Tensor self, Scalar min) ---------------------------------------------------------

// F.normalize's floor under the norm in torch 2.x graphs. clamp's lower bound alone (its
// promotion, its overflow check), except that a NaN min fills the result with NaN, bool results
// have no kernel, and 1.13 has none for float16 either (its kernel name says which ATen it is).
ElementwiseOperands clampMinOperands(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  if (isFloating(self.dtype)) return {{self}};
  return selfAs(self, elementwiseResultType({{self}, {wrappedNumberMeta(scalarArg(margs.at(1)).dtype), true}},
                                            P::Common));
}

void checkClampMin(const ElementwiseOperands& ops, const ValueList& args) {
  const DType t = ops[0].meta.dtype;
  const bool torch2 = atenVersion().atLeast(2, 0);
  FATHOM_CHECK(t != DType::Bool && (t != DType::Float16 || torch2), "\"",
               torch2 ? "clamp_min_scalar_cpu" : "clamp_min_cpu", "\" not implemented for '", scalarTypeName(t), "'");
  checkScalarFits(scalarArg(args.at(1)), t);
}

auto makeClampMin() {
  return [](auto tag, const ValueList& args) {
    using T = typename decltype(tag)::type;
    using C = OpMath<T>;
    const ScalarArg min = scalarArg(args.at(1));
    const bool nanFill = min.isFloating() && std::isnan(min.real);
    const C l = nanFill ? C(0) : C(checkedScalarTo<T>(min));
    return [=](C x) -> C { return nanFill ? std::numeric_limits<C>::quiet_NaN() : (x < l ? l : x); };
  };
}

// ---- hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -------------------------------

// ATen's hardtanh: empty_like(self), then clamp_out into it; integer inputs truncate the bounds
// to integers first ("boundaries not causing type promotion").
ScalarArg hardtanhBound(const ScalarArg& bound, DType dtype) {
  if (!isIntegral(dtype, /*includeBool=*/false) || !bound.isFloating()) return bound;
  ScalarArg truncated;  // an int64 number (Scalar::toLong)
  truncated.integer = checkedScalarTo<int64_t>(bound);
  truncated.real = static_cast<double>(truncated.integer);
  return truncated;
}

void checkHardtanh(const ElementwiseOperands& ops, const ValueList& args) {
  const DType dtype = ops[0].meta.dtype;
  FATHOM_CHECK(dtype != DType::Bool, "Bool inputs not supported for hardtanh");
  const ScalarArg lo = hardtanhBound(scalarArg(args.at(1)), dtype), hi = hardtanhBound(scalarArg(args.at(2)), dtype);
  FATHOM_CHECK(dtype != DType::UInt8 || (lo.integer >= 0 && hi.integer >= 0),
               "cannot do hardtanh on an unsigned type with negative limits");
  checkScalarFits(lo, dtype);
  checkScalarFits(hi, dtype);
}

auto makeHardtanh() {
  return [](auto tag, const ValueList& args) {
    using T = typename decltype(tag)::type;
    const DType dtype = tensorArg(args, 0).dtype();
    return clampFunctor<T>(hardtanhBound(scalarArg(args.at(1)), dtype), hardtanhBound(scalarArg(args.at(2)), dtype));
  };
}

void registerUnaryMath(OpRegistry& r) {
  const ElementwiseRule toFloat{.promotion = P::CommonToFloat};
  addUnary(r, "aten::abs(Tensor self) -> Tensor", {.promotion = P::SameDtype, .check = checkAbs},
           [](auto x) { return absOf(x); });
  addUnary(r, "aten::log(Tensor self) -> Tensor", toFloat, [](auto x) { return std::log(x); });
  addUnary(r, "aten::sqrt(Tensor self) -> Tensor", toFloat, [](auto x) { return std::sqrt(x); });
  addUnary(r, "aten::rsqrt(Tensor self) -> Tensor", toFloat, [](auto x) { return decltype(x)(1) / std::sqrt(x); });
  addElementwise(r, "aten::pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor", std::array<size_t, 1>{0},
                 {.promotion = P::SameDtype, .check = checkPow, .operands = powOperands}, makePow());
  addElementwise(r, "aten::clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", std::array<size_t, 1>{0},
                 {.promotion = P::SameDtype, .check = checkClamp, .operands = clampOperands}, makeClamp());
  addElementwise(r, "aten::clamp_min(Tensor self, Scalar min) -> Tensor", std::array<size_t, 1>{0},
                 {.promotion = P::SameDtype, .check = checkClampMin, .operands = clampMinOperands}, makeClampMin());
  addElementwise(r, "aten::hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor",
                 std::array<size_t, 1>{0},
                 {.promotion = P::SameDtype, .check = checkHardtanh, .outputStrides = OutputStrides::LikeFirstOperand},
                 makeHardtanh());
}

void registerBinaryMath(OpRegistry& r) {
  const std::array<size_t, 2> ab{0, 1};
  addElementwise(r, "aten::maximum(Tensor self, Tensor other) -> Tensor", ab, {}, makeExtremum<true>());
  addElementwise(r, "aten::minimum(Tensor self, Tensor other) -> Tensor", ab, {}, makeExtremum<false>());
}

}  // namespace

void registerMathOps(OpRegistry& registry) {
  registerUnaryMath(registry);
  registerBinaryMath(registry);
  registerActivationOps(registry);
  registerComparisonOps(registry);
  registerFillOps(registry);
  registerSwishOps(registry);
  registerDivisionOps(registry);
  registerUnaryMathOps(registry);
  registerBitwiseOps(registry);
  registerBinaryMathOps(registry);
  registerTernaryPointwiseOps(registry);
}

}  // namespace fathom
