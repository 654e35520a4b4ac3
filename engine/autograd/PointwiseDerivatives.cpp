// Elementwise ops (derivatives.yaml's formulas). Broadcast operands get sumToSize'd gradients.
#include "engine/autograd/Derivatives.h"
#include "engine/frontend/Functional.h"

namespace fathom::autograd {
namespace {

using namespace frontend;

Tensor scaled(const Tensor& g, double alpha) { return alpha == 1.0 ? g : mul(g, alpha); }

// PyTorch records `x * 0.5` and `x / 4.0` as the .Tensor overloads with a wrapped number
// (aten.div.Tensor(x, 4.0)), so either operand of mul.Tensor and div.Tensor may be a number.
bool isNumber(const GradContext& c, size_t pos) { return !std::holds_alternative<Tensor>(c.arg(pos).v); }
Tensor timesOperand(const GradContext& c, const Tensor& g, size_t pos) {
  return isNumber(c, pos) ? mul(g, c.number(pos)) : mul(g, c.tensor(pos));
}

Tensor cmp(const char* op, const Tensor& a, const Arg& b) { return callOp1(op, {a, b}); }

// sgn(x) in x's dtype: 0 at 0, so abs gets PyTorch's subgradient there.
Tensor sign(const Tensor& x) {
  return sub(to(cmp("aten.gt.Scalar", x, 0.0), x.dtype()), to(cmp("aten.lt.Scalar", x, 0.0), x.dtype()));
}

// maximum/minimum: the gradient goes to the selected operand, split evenly on ties.
// `loses` is the comparison under which this operand was not selected.
Tensor selectedGrad(const GradContext& c, const char* loses) {
  const Tensor &a = c.tensor(0), &b = c.tensor(1), &g = c.grad();
  Tensor split = where(cmp("aten.eq.Tensor", a, b), div(g, 2.0), g);
  return where(cmp(loses, a, b), zerosLike(split), split);
}

}  // namespace

// Long: a table, one short registration per op's derivative, read one entry at a time.
void registerPointwiseDerivatives() {
  registerDerivative("aten.add.Tensor", [](GradContext& c) {
    setBroadcast(c, 0, c.grad());
    if (c.needs(1)) setBroadcast(c, 1, scaled(c.grad(), c.number(2)));
  });
  registerDerivative("aten.add.Scalar", [](GradContext& c) { c.set(0, c.grad()); });
  registerDerivative("aten.sub.Tensor", [](GradContext& c) {
    setBroadcast(c, 0, c.grad());
    if (c.needs(1)) setBroadcast(c, 1, scaled(neg(c.grad()), c.number(2)));
  });
  registerDerivative("aten.sub.Scalar", [](GradContext& c) { c.set(0, c.grad()); });
  registerDerivative("aten.rsub.Scalar", [](GradContext& c) {
    if (c.needs(0)) c.set(0, scaled(neg(c.grad()), c.number(2)));
  });
  registerDerivative("aten.rsub.Tensor", [](GradContext& c) {  // other - alpha * self
    if (c.needs(0)) setBroadcast(c, 0, scaled(neg(c.grad()), c.number(2)));
    setBroadcast(c, 1, c.grad());
  });
  registerDerivative("aten.mul.Tensor", [](GradContext& c) {
    if (c.needs(0)) setBroadcast(c, 0, timesOperand(c, c.grad(), 1));
    if (c.needs(1)) setBroadcast(c, 1, timesOperand(c, c.grad(), 0));
  });
  registerDerivative("aten.mul.Scalar", [](GradContext& c) {
    if (c.needs(0)) c.set(0, mul(c.grad(), c.number(1)));
  });
  for (const char* division : {"aten.div.Tensor", "aten.true_divide.Tensor"})
    registerDerivative(division, [](GradContext& c) {
      if (c.needs(0)) setBroadcast(c, 0, isNumber(c, 1) ? div(c.grad(), c.number(1)) : div(c.grad(), c.tensor(1)));
      if (c.needs(1)) {
        const Tensor& b = c.tensor(1);
        setBroadcast(c, 1, div(timesOperand(c, neg(c.grad()), 0), mul(b, b)));
      }
    });
  registerDerivative("aten.div.Scalar", [](GradContext& c) {
    if (c.needs(0)) c.set(0, div(c.grad(), c.number(1)));
  });
  // With rounding_mode "trunc" or "floor" the result is piecewise constant: zero gradients.
  registerDerivative("aten.div.Tensor_mode", [](GradContext& c) {
    if (!c.isNone(2)) {
      for (size_t pos : {0, 1})
        if (c.needs(pos)) c.set(pos, zerosLike(c.tensor(pos)));
      return;
    }
    if (c.needs(0)) setBroadcast(c, 0, div(c.grad(), c.tensor(1)));
    if (c.needs(1)) setBroadcast(c, 1, div(mul(neg(c.grad()), c.tensor(0)), mul(c.tensor(1), c.tensor(1))));
  });
  registerDerivative("aten.div.Scalar_mode", [](GradContext& c) {
    if (c.needs(0)) c.set(0, c.isNone(2) ? div(c.grad(), c.number(1)) : zerosLike(c.tensor(0)));
  });
  registerDerivative("aten.neg.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, neg(c.grad()));
  });
  registerDerivative("aten.pow.Tensor_Scalar", [](GradContext& c) {
    if (!c.needs(0)) return;
    const double e = c.number(1);
    if (e == 0.0) c.set(0, zerosLike(c.tensor(0)));
    else c.set(0, mul(mul(c.grad(), e), pow(c.tensor(0), e - 1)));
  });
  registerDerivative("aten.exp.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, mul(c.grad(), c.output()));
  });
  registerDerivative("aten.tanh.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, callOp1("aten.tanh_backward.default", {c.grad(), c.output()}));
  });
  registerDerivative("aten.sigmoid.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, callOp1("aten.sigmoid_backward.default", {c.grad(), c.output()}));
  });
  registerDerivative("aten.relu.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, callOp1("aten.threshold_backward.default", {c.grad(), c.output(), 0}));
  });
  registerDerivative("aten.gelu.default", [](GradContext& c) {
    if (c.needs(0))
      c.set(0, callOp1("aten.gelu_backward.default", {c.grad(), c.tensor(0)}, {{"approximate", c.string(1).c_str()}}));
  });
  registerDerivative("aten.abs.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, mul(c.grad(), sign(c.tensor(0))));
  });
  registerDerivative("aten.log.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, div(c.grad(), c.tensor(0)));
  });
  registerDerivative("aten.sqrt.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, div(c.grad(), mul(c.output(), 2.0)));
  });
  registerDerivative("aten.rsqrt.default", [](GradContext& c) {  // d x^-1/2 = -1/2 x^-3/2
    if (c.needs(0)) c.set(0, mul(mul(c.grad(), -0.5), pow(c.output(), 3.0)));
  });
  registerDerivative("aten.hardtanh.default", [](GradContext& c) {
    if (c.needs(0))
      c.set(0, callOp1("aten.hardtanh_backward.default", {c.grad(), c.tensor(0), c.number(1), c.number(2)}));
  });
  // clamp_backward: the gradient passes where min <= x <= max (subgradient 1 at the bounds).
  registerDerivative("aten.clamp.default", [](GradContext& c) {
    if (!c.needs(0)) return;
    const Tensor& x = c.tensor(0);
    Tensor g = c.grad();
    if (!c.isNone(1)) g = where(cmp("aten.ge.Scalar", x, c.number(1)), g, zerosLike(g));
    if (!c.isNone(2)) g = where(cmp("aten.le.Scalar", x, c.number(2)), g, zerosLike(g));
    c.set(0, g);
  });
  registerDerivative("aten.clamp_min.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, where(cmp("aten.ge.Scalar", c.tensor(0), c.number(1)), c.grad(), zerosLike(c.grad())));
  });
  registerDerivative("aten.maximum.default", [](GradContext& c) {
    if (c.needs(0)) setBroadcast(c, 0, selectedGrad(c, "aten.lt.Tensor"));
    if (c.needs(1)) setBroadcast(c, 1, selectedGrad(c, "aten.gt.Tensor"));
  });
  registerDerivative("aten.minimum.default", [](GradContext& c) {
    if (c.needs(0)) setBroadcast(c, 0, selectedGrad(c, "aten.gt.Tensor"));
    if (c.needs(1)) setBroadcast(c, 1, selectedGrad(c, "aten.lt.Tensor"));
  });
  registerDerivative("aten.where.self", [](GradContext& c) {
    const Tensor& cond = c.tensor(0);
    if (c.needs(1)) setBroadcast(c, 1, where(cond, c.grad(), zerosLike(c.grad())));
    if (c.needs(2)) setBroadcast(c, 2, where(cond, zerosLike(c.grad()), c.grad()));
  });
  registerDerivative("aten.masked_fill.Scalar", [](GradContext& c) {
    if (c.needs(0)) c.set(0, maskedFill(c.grad(), c.tensor(1), 0.0));
  });
  registerDerivative("aten.tril.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, tril(c.grad(), c.integer(1)));
  });
  registerDerivative("aten.triu.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, callOp1("aten.triu.default", {c.grad(), c.integer(1)}));
  });
  // fill.Scalar's result does not depend on self's values.
  registerDerivative("aten.fill.Scalar", [](GradContext& c) {
    if (c.needs(0)) c.set(0, zerosLike(c.grad()));
  });
  for (const char* cast : {"aten._to_copy.default", "prims.convert_element_type.default"})
    registerDerivative(cast, [](GradContext& c) {
      if (c.needs(0)) c.set(0, castLike(c.grad(), c.tensor(0)));
    });
  registerDerivative("aten.clone.default", [](GradContext& c) { c.set(0, c.grad()); });
  registerDerivative("aten.contiguous.default", [](GradContext& c) { c.set(0, c.grad()); });
  registerDerivative("aten.alias.default", [](GradContext& c) { c.set(0, c.grad()); });
  // addcmul: self + value * t1 * t2; addcdiv: self + value * t1 / t2 (value is schema position 3).
  registerDerivative("aten.addcmul.default", [](GradContext& c) {
    setBroadcast(c, 0, c.grad());
    if (c.needs(1)) setBroadcast(c, 1, mul(c.grad(), mul(c.tensor(2), c.number(3))));
    if (c.needs(2)) setBroadcast(c, 2, mul(c.grad(), mul(c.tensor(1), c.number(3))));
  });
  registerDerivative("aten.addcdiv.default", [](GradContext& c) {
    const Tensor &t1 = c.tensor(1), &t2 = c.tensor(2);
    setBroadcast(c, 0, c.grad());
    if (c.needs(1)) setBroadcast(c, 1, mul(c.grad(), callOp1("aten.div.Tensor", {c.number(3), t2})));  // value / t2
    if (c.needs(2)) setBroadcast(c, 2, mul(neg(c.grad()), div(mul(t1, c.number(3)), mul(t2, t2))));
  });
}

}  // namespace fathom::autograd
