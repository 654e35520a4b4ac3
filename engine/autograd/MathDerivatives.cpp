// The elementwise math of Core ATen (UnaryMathOps.cpp, BinaryMathOps.cpp): derivatives.yaml's
// formulas, written with the same ops in the same order so float32 gradients round like
// PyTorch's. Rounding ops and sign have zero gradients; broadcast operands get sumToSize'd ones.
#include <cmath>

#include "engine/autograd/Derivatives.h"
#include "engine/frontend/Functional.h"

namespace fathom::autograd {
namespace {

using namespace frontend;

Tensor op(const char* name, frontend::Args args) { return callOp1(name, std::move(args)); }

// The tensor at `pos`, or a 0-dim float64 tensor for a Python number there (which promotes
// below dimensioned tensors, as the wrapped number did in the forward op).
Tensor operand(const GradContext& c, size_t pos) {
  if (std::holds_alternative<Tensor>(c.arg(pos).v)) return c.tensor(pos);
  return full({}, c.number(pos), DType::Float64);
}

// grad * f(self) for a unary op.
void unary(const char* name, Tensor (*factor)(const GradContext& c)) {
  registerDerivative(name, [factor](GradContext& c) {
    if (c.needs(0)) c.set(0, mul(c.grad(), factor(c)));
  });
}

Tensor square(const Tensor& x) { return mul(x, x); }

void registerTrigonometric() {
  unary("aten.acos.default", [](const GradContext& c) {  // -1 / sqrt(1 - x^2)
    return neg(op("aten.rsqrt.default", {add(mul(neg(c.tensor(0)), c.tensor(0)), 1.0)}));
  });
  unary("aten.asin.default", [](const GradContext& c) {  // 1 / sqrt(1 - x^2)
    return op("aten.rsqrt.default", {add(mul(neg(c.tensor(0)), c.tensor(0)), 1.0)});
  });
  unary("aten.acosh.default", [](const GradContext& c) { return op("aten.rsqrt.default", {sub(pow(c.tensor(0), 2), 1.0)}); });
  unary("aten.asinh.default", [](const GradContext& c) { return op("aten.rsqrt.default", {add(pow(c.tensor(0), 2), 1.0)}); });
  registerDerivative("aten.atan.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, div(c.grad(), add(square(c.tensor(0)), 1.0)));
  });
  registerDerivative("aten.atanh.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, div(c.grad(), rsub(pow(c.tensor(0), 2), 1.0)));
  });
  unary("aten.cos.default", [](const GradContext& c) { return neg(op("aten.sin.default", {c.tensor(0)})); });
  unary("aten.sin.default", [](const GradContext& c) { return op("aten.cos.default", {c.tensor(0)}); });
  unary("aten.cosh.default", [](const GradContext& c) { return op("aten.sinh.default", {c.tensor(0)}); });
  unary("aten.sinh.default", [](const GradContext& c) { return op("aten.cosh.default", {c.tensor(0)}); });
  unary("aten.tan.default", [](const GradContext& c) { return add(pow(c.output(), 2), 1.0); });
}

void registerExpLog() {
  registerDerivative("aten.erf.default", [](GradContext& c) {  // 2 / sqrt(pi) * exp(-x^2) * grad
    if (c.needs(0)) c.set(0, mul(mul(exp(neg(pow(c.tensor(0), 2))), 2.0 / std::sqrt(M_PI)), c.grad()));
  });
  unary("aten.expm1.default", [](const GradContext& c) { return add(c.output(), 1.0); });
  registerDerivative("aten.log10.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, div(c.grad(), mul(c.tensor(0), std::log(10.0))));
  });
  registerDerivative("aten.log2.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, div(c.grad(), mul(c.tensor(0), std::log(2.0))));
  });
  registerDerivative("aten.log1p.default", [](GradContext& c) {  // log1p_backward
    if (c.needs(0)) c.set(0, div(c.grad(), add(c.tensor(0), 1.0)));
  });
  registerDerivative("aten.reciprocal.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, mul(neg(c.grad()), mul(c.output(), c.output())));
  });
  // Piecewise constant: zero gradient.
  for (const char* name : {"aten.ceil.default", "aten.floor.default", "aten.round.default", "aten.trunc.default",
                           "aten.sign.default"})
    registerDerivative(name, [](GradContext& c) {
      if (c.needs(0)) c.set(0, zerosLike(c.grad()));
    });
}

// fmod and remainder: self's gradient passes; other's is -grad * (self / other rounded toward
// zero for fmod, down for remainder).
void registerDivisionLike() {
  for (const char* name : {"aten.fmod.Scalar", "aten.remainder.Scalar"})
    registerDerivative(name, [](GradContext& c) {
      if (c.needs(0)) c.set(0, c.grad());
    });
  for (auto [name, rounding] : {std::pair{"aten.fmod.Tensor", "aten.trunc.default"},
                                std::pair{"aten.remainder.Tensor", "aten.floor.default"}})
    registerDerivative(name, [rounding = rounding](GradContext& c) {
      setBroadcast(c, 0, c.grad());
      if (c.needs(1)) setBroadcast(c, 1, mul(neg(c.grad()), op(rounding, {div(operand(c, 0), c.tensor(1))})));
    });
  registerDerivative("aten.atan2.default", [](GradContext& c) {
    const Tensor self = operand(c, 0), other = operand(c, 1);
    const Tensor recip = div(c.grad(), add(square(self), square(other)));
    if (c.needs(0)) setBroadcast(c, 0, mul(other, recip));
    if (c.needs(1)) setBroadcast(c, 1, mul(neg(self), recip));
  });
}

// pow_backward_self and pow_backward_exponent (tensor exponent, and a Python-number base).
void registerPow() {
  registerDerivative("aten.pow.Tensor_Tensor", [](GradContext& c) {
    const Tensor self = operand(c, 0), exponent = operand(c, 1);
    if (c.needs(0)) {
      const Tensor g = mul(c.grad(), mul(exponent, op("aten.pow.Tensor_Tensor", {self, sub(exponent, 1.0)})));
      setBroadcast(c, 0, where(op("aten.eq.Scalar", {exponent, 0.0}), zerosLike(g), g));
    }
    if (c.needs(1)) {
      const Tensor zeroBase = op("aten.logical_and.default", {op("aten.eq.Scalar", {self, 0.0}), op("aten.ge.Scalar", {exponent, 0.0})});
      const Tensor g = mul(c.output(), op("aten.log.default", {self}));
      setBroadcast(c, 1, mul(c.grad(), where(zeroBase, zerosLike(g), g)));
    }
  });
  registerDerivative("aten.pow.Scalar", [](GradContext& c) {
    if (!c.needs(1)) return;
    const double base = c.number(0);
    const Tensor g = mul(c.output(), std::log(base));
    if (base != 0.0) return c.set(1, mul(c.grad(), g));
    c.set(1, mul(c.grad(), where(op("aten.ge.Scalar", {c.tensor(1), 0.0}), zerosLike(g), g)));
  });
}

// clamp_backward and clamp_backward_min_max.
void registerClampTensor() {
  registerDerivative("aten.clamp.Tensor", [](GradContext& c) {
    const Tensor& x = c.tensor(0);
    const bool hasMin = !c.isNone(1), hasMax = !c.isNone(2);
    const Tensor g = c.grad(), zero = zerosLike(c.grad());
    auto cmp = [](const char* name, const Tensor& a, const Tensor& b) { return op(name, {a, b}); };
    auto both = [](const char* name, const Tensor& a, const Tensor& b) { return op(name, {a, b}); };
    if (c.needs(0)) {
      Tensor pass = hasMin ? cmp("aten.ge.Tensor", x, c.tensor(1)) : cmp("aten.le.Tensor", x, c.tensor(2));
      if (hasMin && hasMax) pass = both("aten.logical_and.default", pass, cmp("aten.le.Tensor", x, c.tensor(2)));
      setBroadcast(c, 0, where(pass, g, zero));
    }
    if (hasMin && c.needs(1)) {
      Tensor low = cmp("aten.lt.Tensor", x, c.tensor(1));
      if (hasMax) low = both("aten.logical_and.default", low, cmp("aten.lt.Tensor", c.tensor(1), c.tensor(2)));
      setBroadcast(c, 1, where(low, g, zero));
    }
    if (hasMax && c.needs(2)) {
      Tensor high = cmp("aten.gt.Tensor", x, c.tensor(2));
      if (hasMin) high = both("aten.logical_or.default", high, cmp("aten.lt.Tensor", c.tensor(2), c.tensor(1)));
      setBroadcast(c, 2, where(high, g, zero));
    }
  });
}

// elu and leaky_relu through their backward ops, and those ops' own derivatives.
void registerActivations() {
  registerDerivative("aten.elu.default", [](GradContext& c) {
    if (c.needs(0))
      c.set(0, op("aten.elu_backward.default", {c.grad(), c.number(1), c.number(2), c.number(3), false, c.tensor(0)}));
  });
  registerDerivative("aten.elu_backward.default", [](GradContext& c) {
    const double alpha = c.number(1), scale = c.number(2), inputScale = c.number(3);
    const bool isResult = c.flag(4);
    const Tensor& x = c.tensor(5);
    if (c.needs(0)) setBroadcast(c, 0, op("aten.elu_backward.default", {c.grad(), alpha, scale, inputScale, isResult, x}));
    if (!c.needs(5)) return;
    const Tensor negative = to(op("aten.lt.Scalar", {x, 0.0}), c.grad().dtype());
    const Tensor gg = mul(mul(c.grad(), c.tensor(0)), inputScale);
    const Tensor inner = isResult ? gg : op("aten.elu_backward.default", {gg, alpha, scale, inputScale, false, x});
    setBroadcast(c, 5, mul(inner, negative));
  });
  registerDerivative("aten.leaky_relu.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, op("aten.leaky_relu_backward.default", {c.grad(), c.tensor(0), c.number(1), false}));
  });
  registerDerivative("aten.leaky_relu_backward.default", [](GradContext& c) {
    if (c.needs(0)) setBroadcast(c, 0, op("aten.leaky_relu_backward.default", {c.grad(), c.tensor(1), c.number(2), false}));
    if (c.needs(1)) setBroadcast(c, 1, zerosLike(c.grad()));
  });
}

}  // namespace

void registerMathDerivatives() {
  registerTrigonometric();
  registerExpLog();
  registerDivisionLike();
  registerPow();
  registerClampTensor();
  registerActivations();
  for (const char* name : {"aten.isnan.default", "aten.isinf.default", "aten.bitwise_not.default", "aten.bitwise_and.Tensor",
                           "aten.bitwise_and.Scalar", "aten.bitwise_or.Tensor", "aten.bitwise_or.Scalar",
                           "aten.bitwise_xor.Tensor", "aten.bitwise_xor.Scalar", "aten.logical_and.default",
                           "aten.logical_or.default", "aten.logical_xor.default"})
    registerNonDifferentiable(name);
}

}  // namespace fathom::autograd
