// Bitwise and logical binaries: bitwise_and, bitwise_or, bitwise_xor (Tensor and Scalar) and
// logical_and, logical_or, logical_xor.
//
// bitwise_*: TensorIterator ops over the common dtype, which must be integral or bool (a Python
// float makes it floating, and ATen has no kernel for that); the .Scalar overloads are the
// .Tensor ones with the number wrapped, so `uint8 | 300` reads 300 as uint8 (44), as ATen does.
// logical_*: comparison ops in ATen - the inputs promote to their common dtype, any nonzero
// value (NaN included) is true, and the result is bool.
#include <type_traits>

#include "engine/core/Error.h"
#include "engine/ops/families/ElementwiseFamilies.h"
#include "engine/ops/families/ElementwiseOp.h"

namespace fathom {
namespace {

template <const char* Kernel>
void checkIntegral(const ElementwiseOperands& ops, const ValueList&) {
  const DType t = elementwiseResultType(ops, ElementwisePromotion::Common);
  FATHOM_CHECK(isIntegral(t, /*includeBool=*/true), "\"", Kernel, "_cpu\" not implemented for '", scalarTypeName(t), "'");
}
constexpr char kAnd[] = "bitwise_and", kOr[] = "bitwise_or", kXor[] = "bitwise_xor";

enum class Bitwise { And, Or, Xor };

template <Bitwise Op>
auto makeBitwise() {
  return [](auto tag, const ValueList&) {
    using C = MathOf<decltype(tag)>;
    return [](C a, C b) -> C {
      if constexpr (std::is_same_v<C, bool>) {
        if constexpr (Op == Bitwise::And) return a && b;
        else if constexpr (Op == Bitwise::Or) return a || b;
        else return a != b;
      } else if constexpr (std::is_integral_v<C>) {
        if constexpr (Op == Bitwise::And) return static_cast<C>(a & b);
        else if constexpr (Op == Bitwise::Or) return static_cast<C>(a | b);
        else return static_cast<C>(a ^ b);
      } else {
        return a;  // floating common dtypes are refused by the check
      }
    };
  };
}

template <Bitwise Op, const char* Name>
void addBitwise(OpRegistry& r) {
  const ElementwiseRule rule{.check = checkIntegral<Name>};
  const std::array<size_t, 2> ab{0, 1};
  const std::string name = Name;
  addElementwise(r, ("aten::" + name + ".Tensor(Tensor self, Tensor other) -> Tensor").c_str(), ab, rule,
                 makeBitwise<Op>());
  addElementwise(r, ("aten::" + name + ".Scalar(Tensor self, Scalar other) -> Tensor").c_str(), ab, rule,
                 makeBitwise<Op>());
}

template <Bitwise Op>
auto makeLogical() {
  return [](auto tag, const ValueList&) {
    using C = MathOf<decltype(tag)>;
    return [](C a, C b) -> bool {
      const bool x = a != C(0), y = b != C(0);  // NaN != 0: true
      if constexpr (Op == Bitwise::And) return x && y;
      else if constexpr (Op == Bitwise::Or) return x || y;
      else return x != y;
    };
  };
}

}  // namespace

void registerBitwiseOps(OpRegistry& r) {
  addBitwise<Bitwise::And, kAnd>(r);
  addBitwise<Bitwise::Or, kOr>(r);
  addBitwise<Bitwise::Xor, kXor>(r);
  const ElementwiseRule logical{.outputDtype = DType::Bool};
  const std::array<size_t, 2> ab{0, 1};
  addElementwise(r, "aten::logical_and(Tensor self, Tensor other) -> Tensor", ab, logical, makeLogical<Bitwise::And>());
  addElementwise(r, "aten::logical_or(Tensor self, Tensor other) -> Tensor", ab, logical, makeLogical<Bitwise::Or>());
  addElementwise(r, "aten::logical_xor(Tensor self, Tensor other) -> Tensor", ab, logical, makeLogical<Bitwise::Xor>());
}

}  // namespace fathom
