// Division with a rounding mode: aten.div.Tensor_mode and aten.div.Scalar_mode (and their
// in-place forms), as PyTorch 1.13's div_true / div_trunc / div_floor kernels compute them.
//
//   rounding_mode=None     true division: integers and bool promote to float32 (div.Tensor)
//   rounding_mode="trunc"  the common dtype, no promotion to float: trunc(a / b); integers divide
//                          truncating, and b == 0 is an error ("ZeroDivisionError")
//   rounding_mode="floor"  floor(a / b) as Python's //: floats by ATen's div_floor_floating (from
//                          fmod, so 7.5 // -2 is -4 and -0.5 // 2 is -1; a / b when b is 0; a zero
//                          quotient keeps the sign of a / b), integers rounding toward -inf
//                          (uint8 as trunc), b == 0 an error
// Bool has no trunc or floor kernel. Half and bfloat16 compute in float and round the quotient
// to their type before trunc (as `std::trunc(a / b)` does on c10::Half), and keep floor's
// integer part in their type. Integer INT_MIN / -1, which PyTorch 1.13 runs into a SIGFPE for
// int64, wraps around (INT_MIN) as it does for the narrower types.
#include <cmath>
#include <limits>
#include <type_traits>

#include "engine/core/Error.h"
#include "engine/ops/families/ElementwiseFamilies.h"
#include "engine/ops/families/ElementwiseOp.h"

namespace fathom {
namespace {

enum class Rounding { None, Trunc, Floor };

Rounding roundingArg(const ValueList& args) {
  const Value& v = args.at(2);
  if (v.isNone()) return Rounding::None;
  const std::string* s = v.tryAs<std::string>();
  FATHOM_CHECK(s && (*s == "trunc" || *s == "floor"),
               "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '", s ? *s : "?", "'");
  return *s == "trunc" ? Rounding::Trunc : Rounding::Floor;
}

void checkRounding(const ElementwiseOperands& ops, const ValueList& args) {
  const Rounding r = roundingArg(args);
  if (r == Rounding::None) return;
  FATHOM_CHECK(elementwiseResultType(ops, ElementwisePromotion::Common) != DType::Bool, "\"",
               r == Rounding::Trunc ? "div_trunc_cpu" : "div_floor_cpu", "\" not implemented for 'Bool'");
}

// a / b truncating; INT_MIN / -1 wraps instead of trapping.
template <class C> C truncDiv(C a, C b) {
  FATHOM_CHECK(b != 0, "ZeroDivisionError");
  if constexpr (std::is_signed_v<C>)
    if (b == C(-1)) return static_cast<C>(C(0) - static_cast<std::make_unsigned_t<C>>(a));
  return static_cast<C>(a / b);
}

// c10::div_floor_integer.
template <class C> C floorDivInteger(C a, C b) {
  const C q = truncDiv(a, b);
  if constexpr (std::is_signed_v<C>)
    if ((a < 0) != (b < 0) && static_cast<C>(q * b) != a) return static_cast<C>(q - 1);
  return q;
}

// c10::div_floor_floating over T's OpMath, the integer part kept in T as ATen's scalar_t does.
template <class T, class C = OpMath<T>> C floorDivFloating(C a, C b) {
  if (b == 0) return a / b;
  const C mod = std::fmod(a, b);
  C div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0)) div -= C(1);
  if (div == 0) return std::copysign(C(0), a / b);
  C floordiv = static_cast<C>(static_cast<T>(std::floor(div)));
  if (div - floordiv > C(0.5)) floordiv = static_cast<C>(static_cast<T>(floordiv + C(1)));
  return floordiv;
}

auto makeDivision() {
  return [](auto tag, const ValueList& args) {
    using T = typename decltype(tag)::type;
    using C = OpMath<T>;
    const Rounding r = roundingArg(args);
    return [r](C a, C b) -> C {
      if constexpr (std::is_same_v<C, bool>) {
        return a;  // unreachable: bool is refused for trunc and floor, promoted for true division
      } else if constexpr (std::is_integral_v<C>) {
        return r == Rounding::Floor && std::is_signed_v<C> ? floorDivInteger(a, b) : truncDiv(a, b);
      } else if (r == Rounding::None) {
        return a / b;
      } else if (r == Rounding::Trunc) {
        return std::trunc(static_cast<C>(static_cast<T>(a / b)));
      } else {
        return floorDivFloating<T>(a, b);
      }
    };
  };
}

// The rule depends on the rounding mode: true division promotes integers to float.
ElementwiseRule ruleFor(const ValueList& args) {
  return {.promotion = roundingArg(args) == Rounding::None ? ElementwisePromotion::CommonToFloat
                                                           : ElementwisePromotion::Common,
          .check = checkRounding};
}

void addDivision(OpRegistry& r, const char* schema) {
  const std::array<size_t, 2> ab{0, 1};
  OpFn meta = [=](const ValueList& args) { return ValueList{elementwiseLayoutOf(args, args, ab, ruleFor(args)).output}; };
  OpFn kernel = [=](const ValueList& args) {
    const ElementwiseLayout layout = elementwiseLayoutOf(metaArgs(args), args, ab, ruleFor(args));
    return ValueList{runElementwise<2>(layout, inputsOf(args, ab), [&](auto tag) { return makeDivision()(tag, args); })};
  };
  (void)r.add(schema, std::move(meta), std::move(kernel));
}

}  // namespace

void registerDivisionOps(OpRegistry& r) {
  addDivision(r, "aten::div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor");
  addDivision(r, "aten::div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor");
}

}  // namespace fathom
