// Derivatives of the gated activations (SwishOps.cpp), of PReLU (PreluOps.cpp) and of their
// backward helpers, as derivatives.yaml writes them:
//   hardswish   -> hardswish_backward(g, x);    hardswish_backward: g' -> hardswish_backward(gg, x),
//                                               x -> gg * g / 3 where -3 < x < 3, else 0
//   hardsigmoid -> hardsigmoid_backward(g, x);  hardsigmoid_backward: g' -> hardsigmoid_backward(gg, x), x -> 0
//   silu        -> silu_backward(g, x);         silu_backward: g' -> silu_backward(gg, x),
//                                               x -> gg * g * s (1 - s) (2 + x (1 - 2 s)), s = sigmoid(x)
// (PyTorch's silu formula under grad mode spells silu_backward out in sigmoid, mul and add, the
// same values; AOT graphs from PyTorch hold those ops.)
//   prelu (1.13) -> prelu_backward(g, x, w);  _prelu_kernel (2.x) -> _prelu_kernel_backward(g, x, w),
//               whose grad_weight has x's shape and is summed to w's (as PyTorch's engine does);
//   prelu_backward (prelu_double_backward), with m = (x <= 0) and wb, ggWb the weight and its
//               incoming gradient broadcast over x: g' = ggI * (x > 0 ? 1 : wb) + ggWb * x * m,
//               x -> ggWb * g * m, w -> ggI * g * m summed to w's shape.
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

// prelu's weight shaped to broadcast over x: [1, C, 1, ...] for one weight per channel (dim 1),
// 0-d for a single weight.
Tensor broadcastWeight(const Tensor& w, const Tensor& x) {
  if (symEq(w.meta().numel(), 1, "prelu: a single weight")) return reshape(w, {});
  SymValues sizes(static_cast<size_t>(x.dim()), SymValue(1));
  sizes[1] = x.sizes()[1];
  return reshape(w, sizes);
}

void registerPreluDerivatives() {
  for (const char* op : {"aten.prelu.default", "aten._prelu_kernel.default"}) {
    const std::string backward =
        std::string_view(op) == "aten.prelu.default" ? "aten.prelu_backward.default" : "aten._prelu_kernel_backward.default";
    registerDerivative(op, [backward](GradContext& c) {
      if (!c.needs(0) && !c.needs(1)) return;
      const std::vector<Tensor> g = callOp(backward, {c.grad(), c.tensor(0), c.tensor(1)});
      for (size_t i = 0; i < 2; ++i)
        if (c.needs(i)) setBroadcast(c, i, g[i]);
    });
  }
  registerDerivative("aten.prelu_backward.default", [](GradContext& c) {
    const Tensor &g = c.tensor(0), &x = c.tensor(1), &w = c.tensor(2), &ggI = c.grad(0), &ggW = c.grad(1);
    const Tensor m = to(callOp1("aten.le.Scalar", {x, 0.0}), x.dtype());
    const Tensor ggWb = ggW.defined() ? broadcastWeight(ggW, x) : Tensor();
    if (c.needs(0)) {
      Tensor r = ggI.defined() ? where(callOp1("aten.gt.Scalar", {x, 0.0}), ggI, mul(ggI, broadcastWeight(w, x)))
                               : zerosLike(x);
      if (ggW.defined()) r = add(r, mul(mul(ggWb, m), x));
      c.set(0, r);
    }
    if (c.needs(1)) c.set(1, ggW.defined() ? mul(mul(ggWb, g), m) : zerosLike(x));
    if (c.needs(2)) {
      const Tensor wb = broadcastWeight(w, x);
      c.set(2, ggI.defined() ? reshape(sumToSize(mul(mul(ggI, g), m), wb.sizes()), w.sizes()) : zerosLike(w));
    }
  });
}

}  // namespace

void registerActivationDerivatives() {
  registerPreluDerivatives();
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
