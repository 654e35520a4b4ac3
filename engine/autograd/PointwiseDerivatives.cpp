// Elementwise ops (derivatives.yaml's formulas). Broadcast operands get sumToSize'd gradients.
#include "engine/autograd/Derivatives.h"
#include "engine/frontend/Functional.h"

namespace fathom::autograd {
namespace {

using namespace frontend;

Tensor scaled(const Tensor& g, double alpha) { return alpha == 1.0 ? g : mul(g, alpha); }

// Gradient for the tensor at `pos` of a broadcasting op.
void setBroadcast(GradContext& c, size_t pos, const Tensor& g) {
  if (c.needs(pos)) c.set(pos, castLike(sumToSize(g, c.sizes(pos)), c.tensor(pos)));
}

Tensor zeroScalar(const Tensor& like) { return callOp1("aten.zeros_like.default", {like}); }

}  // namespace

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
    if (c.needs(0)) setBroadcast(c, 0, mul(c.grad(), c.tensor(1)));
    if (c.needs(1)) setBroadcast(c, 1, mul(c.grad(), c.tensor(0)));
  });
  registerDerivative("aten.mul.Scalar", [](GradContext& c) {
    if (c.needs(0)) c.set(0, mul(c.grad(), c.number(1)));
  });
  registerDerivative("aten.div.Tensor", [](GradContext& c) {
    if (c.needs(0)) setBroadcast(c, 0, div(c.grad(), c.tensor(1)));
    if (c.needs(1)) {
      const Tensor& b = c.tensor(1);
      setBroadcast(c, 1, div(mul(neg(c.grad()), c.tensor(0)), mul(b, b)));
    }
  });
  registerDerivative("aten.div.Scalar", [](GradContext& c) {
    if (c.needs(0)) c.set(0, div(c.grad(), c.number(1)));
  });
  registerDerivative("aten.neg.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, neg(c.grad()));
  });
  registerDerivative("aten.pow.Tensor_Scalar", [](GradContext& c) {
    if (!c.needs(0)) return;
    const double e = c.number(1);
    if (e == 0.0) c.set(0, zeroScalar(c.tensor(0)));
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
  registerDerivative("aten.where.self", [](GradContext& c) {
    const Tensor& cond = c.tensor(0);
    if (c.needs(1)) setBroadcast(c, 1, where(cond, c.grad(), zeroScalar(c.grad())));
    if (c.needs(2)) setBroadcast(c, 2, where(cond, zeroScalar(c.grad()), c.grad()));
  });
  registerDerivative("aten.masked_fill.Scalar", [](GradContext& c) {
    if (c.needs(0)) c.set(0, maskedFill(c.grad(), c.tensor(1), 0.0));
  });
  registerDerivative("aten.tril.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, tril(c.grad(), c.integer(1)));
  });
  registerDerivative("aten._to_copy.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, castLike(c.grad(), c.tensor(0)));
  });
  registerDerivative("aten.clone.default", [](GradContext& c) { c.set(0, c.grad()); });
  registerDerivative("aten.contiguous.default", [](GradContext& c) { c.set(0, c.grad()); });
  registerDerivative("aten.alias.default", [](GradContext& c) { c.set(0, c.grad()); });
}

}  // namespace fathom::autograd
