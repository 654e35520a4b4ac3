// Pointwise arithmetic and the first activations: add, sub, rsub, mul, div (Tensor and Scalar
// overloads), neg, relu, threshold_backward, exp, tanh, sigmoid. Each op is its schema, the
// positions of its operands, an ElementwiseRule and one functor over OpMath values;
// addElementwise() (ElementwiseOp.h) turns that into the meta function and the CPU kernel.
#include <cmath>
#include <type_traits>

#include "engine/core/Error.h"
#include "engine/ops/cpu/WrappingArithmetic.h"
#include "engine/ops/families/ElementwiseOp.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

using Operands = ElementwiseOperands;

// self + alpha * other, rounded twice for floats as ATen's scalar loop does (its vector loop
// fuses the multiply-add: at most 1 ulp apart, and identical when alpha is 1 or a power of 2).
// Branch-free, so the contiguous loop vectorizes.
template <class C> C addScaled(C a, C b, C alpha) {
  if constexpr (std::is_floating_point_v<C>) return a + alpha * b;
  else return wrapAdd(a, wrapMul(alpha, b));
}

// ATen's alpha_check, on the common dtype.
void checkAlpha(const Operands& ops, const ValueList& args) {
  const DType dtype = elementwiseResultType(ops, ElementwisePromotion::Common);
  const ScalarArg alpha = scalarArg(args.at(2));
  FATHOM_CHECK(!alpha.isBool() || dtype == DType::Bool, "Boolean alpha only supported for Boolean results.");
  FATHOM_CHECK(isFloating(dtype) || !alpha.isFloating(),
               "For integral input tensors, argument alpha must not be a floating point number.");
}

// ATen's sub_check; a Python bool is not a "bool tensor" here (PyTorch: `bool_tensor - True`
// reports "a bool tensor").
void checkSub(const Operands& ops, const ValueList& args) {
  auto boolTensor = [](const ElementwiseOperand& op) { return !op.wrappedNumber && op.meta.dtype == DType::Bool; };
  const bool a = boolTensor(ops[0]), b = boolTensor(ops[1]);
  FATHOM_CHECK(!(a && b), "Subtraction, the `-` operator, with two bool tensors is not supported. "
                          "Use the `^` or `logical_xor()` operator instead.");
  FATHOM_CHECK(!a && !b, "Subtraction, the `-` operator, with a bool tensor is not supported. "
                         "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
  checkAlpha(ops, args);
}

void checkNeg(const Operands& ops, const ValueList&) {
  FATHOM_CHECK(ops[0].meta.dtype != DType::Bool,
               "Negation, the `-` operator, on a bool tensor is not supported. "
               "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

void checkRelu(const Operands& ops, const ValueList&) {
  FATHOM_CHECK(ops[0].meta.dtype != DType::Bool, "Boolean inputs not supported for relu");
}

void checkThreshold(const Operands& ops, const ValueList&) {
  FATHOM_CHECK(elementwiseResultType(ops, ElementwisePromotion::Common) != DType::Bool,
               "\"threshold_cpu\" not implemented for 'Bool'");
}

auto makeAdd(bool negateAlpha) {
  return [negateAlpha](auto tag, const ValueList& args) {
    using C = MathOf<decltype(tag)>;
    ScalarArg alpha = scalarArg(args[2]);
    if (negateAlpha) {  // sub(a, b, alpha) is add(a, b, -alpha), as in ATen
      alpha.real = -alpha.real;
      alpha.integer = static_cast<int64_t>(0ull - static_cast<uint64_t>(alpha.integer));
    }
    const C a = alpha.to<C>();
    return [a](C x, C y) { return addScaled<C>(x, y, a); };
  };
}

auto makeMul() {
  return [](auto tag, const ValueList&) {
    using C = MathOf<decltype(tag)>;
    return [](C x, C y) { return wrapMul<C>(x, y); };
  };
}

auto makeDiv() {
  return [](auto tag, const ValueList&) {
    using C = MathOf<decltype(tag)>;
    // The common dtype is floating (CommonToFloat); the integer instantiation never runs.
    return [](C x, C y) -> C {
      if constexpr (std::is_floating_point_v<C>) return x / y;
      else return y == C(0) ? C(0) : static_cast<C>(x / y);
    };
  };
}

void registerArithmetic(OpRegistry& r) {
  using P = ElementwisePromotion;
  const std::array<size_t, 2> ab{0, 1};
  // rsub(self, other) is sub(other, self): `other` is TensorIterator's first operand.
  const std::array<size_t, 2> ba{1, 0};
  const ElementwiseRule add{.check = checkAlpha}, sub{.check = checkSub}, common{};
  const ElementwiseRule toFloat{.promotion = P::CommonToFloat};
  addElementwise(r, "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", ab, add, makeAdd(false));
  addElementwise(r, "aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", ab, add, makeAdd(false));
  addElementwise(r, "aten::sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", ab, sub, makeAdd(true));
  addElementwise(r, "aten::sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", ab, sub, makeAdd(true));
  addElementwise(r, "aten::rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", ba, sub, makeAdd(true));
  addElementwise(r, "aten::rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", ba, sub, makeAdd(true));
  addElementwise(r, "aten::mul.Tensor(Tensor self, Tensor other) -> Tensor", ab, common, makeMul());
  addElementwise(r, "aten::mul.Scalar(Tensor self, Scalar other) -> Tensor", ab, common, makeMul());
  addElementwise(r, "aten::div.Tensor(Tensor self, Tensor other) -> Tensor", ab, toFloat, makeDiv());
  addElementwise(r, "aten::div.Scalar(Tensor self, Scalar other) -> Tensor", ab, toFloat, makeDiv());
  // torch 2.x graphs keep the alias where the model wrote it (ALBERT's attention scores).
  addElementwise(r, "aten::true_divide.Tensor(Tensor self, Tensor other) -> Tensor", ab, toFloat, makeDiv());
}

void registerActivations(OpRegistry& r) {
  using P = ElementwisePromotion;
  const ElementwiseRule toFloat{.promotion = P::CommonToFloat};
  addUnary(r, "aten::neg(Tensor self) -> Tensor", {.promotion = P::SameDtype, .check = checkNeg},
           [](auto x) { return wrapNeg(x); });
  // relu is clamp_min(self, 0): NaN stays NaN, and -0.0 stays -0.0 (max keeps its first operand).
  addUnary(r, "aten::relu(Tensor self) -> Tensor", {.promotion = P::SameDtype, .check = checkRelu},
           [](auto x) { return x < decltype(x)(0) ? decltype(x)(0) : x; });
  addUnary(r, "aten::exp(Tensor self) -> Tensor", toFloat, [](auto x) { return std::exp(x); });
  addUnary(r, "aten::tanh(Tensor self) -> Tensor", toFloat, [](auto x) { return std::tanh(x); });
  addUnary(r, "aten::sigmoid(Tensor self) -> Tensor", toFloat,
           [](auto x) { return decltype(x)(1) / (decltype(x)(1) + std::exp(-x)); });
  // grad_input = self <= threshold ? 0 : grad_output. TensorIterator sees self first, then the
  // gradient (ATen's operand order), which decides the output layout when they differ.
  addElementwise(r, "aten::threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor",
                 std::array<size_t, 2>{1, 0}, {.check = checkThreshold}, [](auto tag, const ValueList& args) {
                   using T = typename decltype(tag)::type;
                   using C = OpMath<T>;
                   // ATen converts the threshold to the element type first (rounding for f16).
                   const C threshold = static_cast<C>(convertValue<T>(scalarArg(args[2]).real));
                   return [threshold](C self, C grad) { return self <= threshold ? C(0) : grad; };
                 });
}

}  // namespace

void registerPointwiseOps(OpRegistry& registry) {
  registerArithmetic(registry);
  registerActivations(registry);
}

}  // namespace fathom
