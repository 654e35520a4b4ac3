// Derivatives of the gated activations (SwishOps.cpp) and of their backward helpers, as
// derivatives.yaml writes them:
//   hardswish   -> hardswish_backward(g, x);    hardswish_backward: g' -> hardswish_backward(gg, x),
//                                               x -> gg * g / 3 where -3 < x < 3, else 0
//   hardsigmoid -> hardsigmoid_backward(g, x);  hardsigmoid_backward: g' -> hardsigmoid_backward(gg, x), x -> 0
//   silu        -> silu_backward(g, x);         silu_backward: g' -> silu_backward(gg, x),
//                                               x -> gg * g * s (1 - s) (2 + x (1 - 2 s)), s = sigmoid(x)
// (PyTorch's silu formula under grad mode spells silu_backward out in sigmoid, mul and add, the
// same values; AOT graphs from PyTorch hold those ops.)
#include "engine/autograd/Derivatives.h"
#include "engine/frontend/Functional.h"

namespace fathom::autograd {
namespace {

using namespace frontend;

// The derivative of a backward helper h(g, x) that is linear in g: h itself on the incoming
// gradient, and `wrtSelf` for x.
template <class WrtSelf>
void registerHelper(const char* op, WrtSelf wrtSelf) {
  registerDerivative(op, [op, wrtSelf](GradContext& c) {
    if (c.needs(0)) setBroadcast(c, 0, callOp1(op, {c.grad(), c.tensor(1)}));
    if (c.needs(1)) setBroadcast(c, 1, wrtSelf(c));
  });
}

// Where lo < x < hi, as x's dtype (1 or 0).
Tensor inside(const Tensor& x, double lo, double hi) {
  Tensor above = callOp1("aten.gt.Scalar", {x, lo}), below = callOp1("aten.lt.Scalar", {x, hi});
  return mul(to(above, x.dtype()), to(below, x.dtype()));
}

}  // namespace

void registerActivationDerivatives() {
  for (const char* op : {"aten.hardswish.default", "aten.hardsigmoid.default", "aten.silu.default"}) {
    const std::string backward = std::string(op).substr(0, std::string(op).size() - 8) + "_backward.default";
    registerDerivative(op, [backward](GradContext& c) {
      if (c.needs(0)) c.set(0, callOp1(backward, {c.grad(), c.tensor(0)}));
    });
  }
  registerHelper("aten.hardswish_backward.default", [](GradContext& c) {
    return mul(div(mul(c.grad(), c.tensor(0)), 3.0), inside(c.tensor(1), -3.0, 3.0));
  });
  registerHelper("aten.hardsigmoid_backward.default", [](GradContext& c) {
    return zerosLike(c.tensor(1));
  });
  registerHelper("aten.silu_backward.default", [](GradContext& c) {
    const Tensor& x = c.tensor(1);
    Tensor s = sigmoid(x);
    Tensor curvature = mul(mul(s, rsub(s, 1.0)), add(mul(x, rsub(mul(s, 2.0), 1.0)), 2.0));
    return mul(mul(c.grad(), c.tensor(0)), curvature);
  });
}

}  // namespace fathom::autograd
