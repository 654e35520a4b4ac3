// The unary float math of Core ATen: acos, acosh, asin, asinh, atan, atanh, cos, cosh, sin,
// sinh, tan, erf, expm1, log10, log1p, log2, reciprocal (integers and bool promote to float32);
// ceil, floor, round, trunc, sign (self's dtype; ceil..trunc leave integers as they are, and
// refuse bool as ATen's kernels do); isnan, isinf (bool results); bitwise_not (integers and bool).
//
// Every one is a one-operand TensorIterator op (addUnary), except isinf on an integral input,
// which ATen answers with zeros_like(self, bool) - preserve_format strides, not TensorIterator's.
// Values: the C++ library's functions in OpMath precision (float32 for float32 and the 16-bit
// types); ATen's vectorized SLEEF paths agree within 1 ulp, inside the oracle's tolerance.
#include <cmath>
#include <type_traits>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/families/ElementwiseFamilies.h"
#include "engine/ops/families/ElementwiseOp.h"
#include "engine/ops/layout/MemoryLayout.h"

namespace fathom {
namespace {

using P = ElementwisePromotion;

// ceil, floor, round, trunc: "ceil_vml_cpu" has no Bool kernel.
template <const char* Name>
void checkNotBool(const ElementwiseOperands& ops, const ValueList&) {
  FATHOM_CHECK(ops[0].meta.dtype != DType::Bool, "\"", Name, "_vml_cpu\" not implemented for 'Bool'");
}
constexpr char kCeil[] = "ceil", kFloor[] = "floor", kRound[] = "round", kTrunc[] = "trunc";

void checkBitwiseNot(const ElementwiseOperands& ops, const ValueList&) {
  const DType d = ops[0].meta.dtype;
  FATHOM_CHECK(isIntegral(d, /*includeBool=*/true), "\"bitwise_not_cpu\" not implemented for '", scalarTypeName(d), "'");
}

// A rounding function over floating values; integers are already whole.
template <class C, class F> C rounded(C x, F f) {
  if constexpr (std::is_floating_point_v<C>) return f(x);
  else return x;
}

// ATen's sign_kernel: (0 < x) - (x < 0), so NaN and -0.0 give 0; bool is itself.
template <class C> C signOf(C x) {
  if constexpr (std::is_same_v<C, bool>) return x;
  else return static_cast<C>(static_cast<int>(C(0) < x) - static_cast<int>(x < C(0)));
}

template <class C> bool isNanOf(C x) {
  if constexpr (std::is_floating_point_v<C>) return std::isnan(x);
  else return false;
}

template <class C> C bitwiseNot(C x) {
  if constexpr (std::is_same_v<C, bool>) return !x;
  else if constexpr (std::is_integral_v<C>) return static_cast<C>(~x);
  else return x;  // floating types are refused by the check
}

// Long: a table, one line per op.
void registerFloatUnary(OpRegistry& r) {
  const ElementwiseRule f{.promotion = P::CommonToFloat};
  addUnary(r, "aten::acos(Tensor self) -> Tensor", f, [](auto x) { return std::acos(x); });
  addUnary(r, "aten::acosh(Tensor self) -> Tensor", f, [](auto x) { return std::acosh(x); });
  addUnary(r, "aten::asin(Tensor self) -> Tensor", f, [](auto x) { return std::asin(x); });
  addUnary(r, "aten::asinh(Tensor self) -> Tensor", f, [](auto x) { return std::asinh(x); });
  addUnary(r, "aten::atan(Tensor self) -> Tensor", f, [](auto x) { return std::atan(x); });
  addUnary(r, "aten::atanh(Tensor self) -> Tensor", f, [](auto x) { return std::atanh(x); });
  addUnary(r, "aten::cos(Tensor self) -> Tensor", f, [](auto x) { return std::cos(x); });
  addUnary(r, "aten::cosh(Tensor self) -> Tensor", f, [](auto x) { return std::cosh(x); });
  addUnary(r, "aten::sin(Tensor self) -> Tensor", f, [](auto x) { return std::sin(x); });
  addUnary(r, "aten::sinh(Tensor self) -> Tensor", f, [](auto x) { return std::sinh(x); });
  addUnary(r, "aten::tan(Tensor self) -> Tensor", f, [](auto x) { return std::tan(x); });
  addUnary(r, "aten::erf(Tensor self) -> Tensor", f, [](auto x) { return std::erf(x); });
  addUnary(r, "aten::expm1(Tensor self) -> Tensor", f, [](auto x) { return std::expm1(x); });
  addUnary(r, "aten::log10(Tensor self) -> Tensor", f, [](auto x) { return std::log10(x); });
  addUnary(r, "aten::log1p(Tensor self) -> Tensor", f, [](auto x) { return std::log1p(x); });
  addUnary(r, "aten::log2(Tensor self) -> Tensor", f, [](auto x) { return std::log2(x); });
  addUnary(r, "aten::reciprocal(Tensor self) -> Tensor", f, [](auto x) { return decltype(x)(1) / x; });
}

// isinf(self): integral inputs are never infinite, and ATen returns zeros_like(self, bool) for
// them (preserve_format); floating inputs go through abs(self) == inf, a TensorIterator layout.
const ElementwiseRule kIsinfRule{.promotion = P::SameDtype, .outputDtype = DType::Bool};

TensorMeta isinfIntegralLayout(const TensorMeta& self) {
  return freshLike(self, DType::Bool, likeStrides(self, std::nullopt));
}

void registerIsinf(OpRegistry& r) {
  const std::array<size_t, 1> self{0};
  OpFn meta = [self](const ValueList& args) {
    const TensorMeta& m = metaArg(args, 0);
    if (isIntegral(m.dtype, /*includeBool=*/true)) return ValueList{isinfIntegralLayout(m)};
    return ValueList{elementwiseLayoutOf(args, args, self, kIsinfRule).output};
  };
  OpFn kernel = [self](const ValueList& args) {
    const Tensor& t = tensorArg(args, 0);
    if (isIntegral(t.dtype(), /*includeBool=*/true)) {
      Tensor out = allocateTensor(isinfIntegralLayout(t.meta()));
      fillWith(out, scalarArg(Value(SymInt(0))));
      return ValueList{out};
    }
    const ElementwiseLayout layout = elementwiseLayoutOf(metaArgs(args), args, self, kIsinfRule);
    return ValueList{runElementwise<1>(layout, inputsOf(args, self), [](auto tag) {
      using C = MathOf<decltype(tag)>;
      return [](C x) -> bool {
        if constexpr (std::is_floating_point_v<C>) return std::isinf(x);
        else return false;
      };
    })};
  };
  (void)r.add("aten::isinf(Tensor self) -> Tensor", std::move(meta), std::move(kernel));
}

void registerExactUnary(OpRegistry& r) {
  addUnary(r, "aten::ceil(Tensor self) -> Tensor", {.promotion = P::SameDtype, .check = checkNotBool<kCeil>},
           [](auto x) { return rounded(x, [](auto v) { return std::ceil(v); }); });
  addUnary(r, "aten::floor(Tensor self) -> Tensor", {.promotion = P::SameDtype, .check = checkNotBool<kFloor>},
           [](auto x) { return rounded(x, [](auto v) { return std::floor(v); }); });
  // Half to even, as std::nearbyint in the default rounding mode (ATen's round).
  addUnary(r, "aten::round(Tensor self) -> Tensor", {.promotion = P::SameDtype, .check = checkNotBool<kRound>},
           [](auto x) { return rounded(x, [](auto v) { return std::nearbyint(v); }); });
  addUnary(r, "aten::trunc(Tensor self) -> Tensor", {.promotion = P::SameDtype, .check = checkNotBool<kTrunc>},
           [](auto x) { return rounded(x, [](auto v) { return std::trunc(v); }); });
  addUnary(r, "aten::sign(Tensor self) -> Tensor", {.promotion = P::SameDtype}, [](auto x) { return signOf(x); });
  addUnary(r, "aten::bitwise_not(Tensor self) -> Tensor", {.promotion = P::SameDtype, .check = checkBitwiseNot},
           [](auto x) { return bitwiseNot(x); });
  // isnan is self != self in ATen: a TensorIterator op writing bool.
  addElementwise(r, "aten::isnan(Tensor self) -> Tensor", std::array<size_t, 1>{0},
                 {.promotion = P::SameDtype, .outputDtype = DType::Bool}, [](auto tag, const ValueList&) {
                   using C = MathOf<decltype(tag)>;
                   return [](C x) -> bool { return isNanOf(x); };
                 });
  registerIsinf(r);
}

}  // namespace

void registerUnaryMathOps(OpRegistry& registry) {
  registerFloatUnary(registry);
  registerExactUnary(registry);
}

}  // namespace fathom
