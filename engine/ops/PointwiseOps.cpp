// Pointwise ops: add, sub, mul, div (Tensor and Scalar overloads), neg, relu,
// threshold_backward, exp, tanh, sigmoid. Each op is its schema, an optional argument check,
// its TensorIterator promotion kind, the positions of its tensor operands, and one functor
// over OpMath values; addElementwise() turns that into the meta function and the CPU kernel,
// which share computeElementwiseLayout (so they agree on sizes, strides and dtype).
#include <cmath>
#include <type_traits>

#include "engine/core/Error.h"
#include "engine/ops/ElementwiseKernel.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

using Operands = std::vector<ElementwiseOperand>;
using CheckFn = void (*)(const Operands& ops, const ValueList& args);

// Integer arithmetic wraps around like PyTorch's (two's complement), without C++ overflow UB.
template <class C> C wrapAdd(C a, C b) {
  if constexpr (std::is_same_v<C, bool>) return a || b;
  else if constexpr (std::is_integral_v<C>) {
    using U = std::make_unsigned_t<decltype(a + b)>;
    return static_cast<C>(static_cast<U>(a) + static_cast<U>(b));
  } else return a + b;
}
template <class C> C wrapMul(C a, C b) {
  if constexpr (std::is_same_v<C, bool>) return a && b;
  else if constexpr (std::is_integral_v<C>) {
    using U = std::make_unsigned_t<decltype(a * b)>;
    return static_cast<C>(static_cast<U>(a) * static_cast<U>(b));
  } else return a * b;
}
template <class C> C wrapNeg(C a) {
  if constexpr (std::is_integral_v<C>) {
    using U = std::make_unsigned_t<decltype(+a)>;
    return static_cast<C>(U{0} - static_cast<U>(a));
  } else return -a;
}
// self + alpha * other; floats use one fused multiply-add as ATen's vectorized add does.
template <class C> C addScaled(C a, C b, C alpha) {
  if constexpr (std::is_floating_point_v<C>) return alpha == C(1) ? a + b : std::fma(b, alpha, a);
  else return wrapAdd(a, wrapMul(alpha, b));
}

template <class Tag> using MathOf = OpMath<typename Tag::type>;

// The inputs of an op as TensorIterator operands: tensors, and Python numbers as wrapped
// zero-dim tensors. Works on meta arguments (kernels pass metaArgs(args)).
template <size_t N>
Operands operandsOf(const ValueList& margs, const std::array<size_t, N>& positions) {
  Operands ops;
  for (size_t pos : positions) {
    if (margs.at(pos).is<TensorMeta>()) ops.push_back({margs[pos].as<TensorMeta>(), false});
    else ops.push_back({wrappedNumberMeta(scalarArg(margs[pos]).dtype), true});
  }
  return ops;
}

template <size_t N>
std::array<Tensor, N> inputsOf(const ValueList& args, const std::array<size_t, N>& positions) {
  std::array<Tensor, N> ins;
  for (size_t k = 0; k < N; ++k) {
    const Value& v = args.at(positions[k]);
    ins[k] = v.is<Tensor>() ? tensorArg(args, positions[k]) : wrappedNumberTensor(scalarArg(v));
  }
  return ins;
}

template <size_t N, class MakeFn>
void addElementwise(OpRegistry& registry, const char* schema, std::array<size_t, N> positions,
                    ElementwisePromotion promotion, CheckFn check, MakeFn makeFn) {
  OpFn meta = [=](const ValueList& args) {
    Operands ops = operandsOf(args, positions);
    if (check) check(ops, args);
    return ValueList{computeElementwiseLayout(ops, promotion).output};
  };
  OpFn kernel = [=](const ValueList& args) {
    Operands ops = operandsOf(metaArgs(args), positions);
    if (check) check(ops, args);
    const ElementwiseLayout layout = computeElementwiseLayout(ops, promotion);
    return ValueList{runElementwise<N>(layout, inputsOf(args, positions),
                                       [&](auto tag) { return makeFn(tag, args); })};
  };
  (void)registry.add(schema, std::move(meta), std::move(kernel));
}

// ATen's alpha_check, on the common dtype.
void checkAlpha(const Operands& ops, const ValueList& args) {
  const DType dtype = elementwiseResultType(ops, ElementwisePromotion::Common);
  const ScalarArg alpha = scalarArg(args.at(2));
  FATHOM_CHECK(!alpha.isBool() || dtype == DType::Bool, "Boolean alpha only supported for Boolean results.");
  FATHOM_CHECK(isFloating(dtype) || !alpha.isFloating(),
               "For integral input tensors, argument alpha must not be a floating point number.");
}

void checkSub(const Operands& ops, const ValueList& args) {
  const bool a = ops[0].meta.dtype == DType::Bool, b = ops[1].meta.dtype == DType::Bool;
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
  addElementwise(r, "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", ab, P::Common,
                 checkAlpha, makeAdd(false));
  addElementwise(r, "aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", ab, P::Common,
                 checkAlpha, makeAdd(false));
  addElementwise(r, "aten::sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", ab, P::Common,
                 checkSub, makeAdd(true));
  addElementwise(r, "aten::sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", ab, P::Common,
                 checkSub, makeAdd(true));
  addElementwise(r, "aten::mul.Tensor(Tensor self, Tensor other) -> Tensor", ab, P::Common, nullptr, makeMul());
  addElementwise(r, "aten::mul.Scalar(Tensor self, Scalar other) -> Tensor", ab, P::Common, nullptr, makeMul());
  addElementwise(r, "aten::div.Tensor(Tensor self, Tensor other) -> Tensor", ab, P::CommonToFloat, nullptr,
                 makeDiv());
  addElementwise(r, "aten::div.Scalar(Tensor self, Scalar other) -> Tensor", ab, P::CommonToFloat, nullptr,
                 makeDiv());
}

// A one-input op whose functor does not depend on the arguments.
template <class Fn>
void addUnary(OpRegistry& r, const char* schema, ElementwisePromotion promotion, CheckFn check, Fn fn) {
  addElementwise(r, schema, std::array<size_t, 1>{0}, promotion, check,
                 [fn](auto tag, const ValueList&) {
                   using C = MathOf<decltype(tag)>;
                   return [fn](C x) { return static_cast<C>(fn(x)); };
                 });
}

void registerActivations(OpRegistry& r) {
  using P = ElementwisePromotion;
  addUnary(r, "aten::neg(Tensor self) -> Tensor", P::SameDtype, checkNeg, [](auto x) { return wrapNeg(x); });
  // relu is clamp_min(self, 0): NaN stays NaN, and -0.0 stays -0.0 (max keeps its first operand).
  addUnary(r, "aten::relu(Tensor self) -> Tensor", P::SameDtype, checkRelu,
           [](auto x) { return x < decltype(x)(0) ? decltype(x)(0) : x; });
  addUnary(r, "aten::exp(Tensor self) -> Tensor", P::CommonToFloat, nullptr, [](auto x) { return std::exp(x); });
  addUnary(r, "aten::tanh(Tensor self) -> Tensor", P::CommonToFloat, nullptr, [](auto x) { return std::tanh(x); });
  addUnary(r, "aten::sigmoid(Tensor self) -> Tensor", P::CommonToFloat, nullptr,
           [](auto x) { return decltype(x)(1) / (decltype(x)(1) + std::exp(-x)); });
  // grad_input = self <= threshold ? 0 : grad_output. TensorIterator sees self first, then the
  // gradient (ATen's operand order), which decides the output layout when they differ.
  addElementwise(r, "aten::threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor",
                 std::array<size_t, 2>{1, 0}, P::Common, checkThreshold, [](auto tag, const ValueList& args) {
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
