// Derivatives of the backward helpers themselves (double backward), so a traced backward
// differentiated again keeps working. Each helper is
// linear in grad_output: its gradient there is the helper applied to the incoming gradient (or
// the forward op, for pooling and nll_loss). The saved-tensor input (x, output, self) gets the
// second derivative of the forward op, or zeros where the helper is piecewise constant in it.
//
// Left out (no formula: backward through them fails with "not implemented"): the fused
// native_layer_norm_backward, native_batch_norm_backward and convolution_backward, whose
// double-backward formulas (layer_norm_double_backward, batchnorm_double_backward,
// _convolution_double_backward) are each a few hundred lines in PyTorch.
#include <cmath>

#include "engine/autograd/Derivatives.h"
#include "engine/frontend/Functional.h"

namespace fathom::autograd {
namespace {

using namespace frontend;

// d²/dx² gelu(x), as gelu_double_backward computes it.
Tensor geluSecondDerivative(const Tensor& x, const std::string& approximate) {
  if (approximate == "tanh") {
    // gelu = x/2 (1 + tanh(u)), u = k (x + c x³): gelu'' = (1 - t²) (u' + x/2 (u'' - 2 t u'²)).
    const double k = std::sqrt(2.0 / M_PI), c = 0.044715;
    Tensor x2 = mul(x, x);
    Tensor t = tanh(mul(add(x, mul(mul(x2, x), c)), k));
    Tensor sech2 = rsub(mul(t, t), 1.0);
    Tensor du = mul(add(mul(x2, 3 * c), 1.0), k);
    Tensor d2u = mul(x, 6 * c * k);
    Tensor inner = add(du, mul(mul(x, 0.5), sub(d2u, mul(mul(t, mul(du, du)), 2.0))));
    return mul(sech2, inner);
  }
  // gelu' = Φ(x) + x φ(x), so gelu'' = 2 φ(x) - x² φ(x).
  Tensor x2 = mul(x, x);
  Tensor pdf = mul(exp(mul(x2, -0.5)), 1.0 / std::sqrt(2.0 * M_PI));
  return mul(pdf, rsub(x2, 2.0));
}

Tensor softmaxBackward(const char* op, const Tensor& g, const GradContext& c) {
  return callOp1(op, {castLike(g, c.tensor(1)), c.tensor(1), c.integer(2), c.tensor(1).dtype()});
}

}  // namespace

void registerBackwardDerivatives() {
  // threshold_backward(g, x, t) = g * (x > t), hardtanh_backward(g, x, lo, hi) = g * (lo < x < hi):
  // linear in g, piecewise constant in x.
  registerDerivative("aten.threshold_backward.default", [](GradContext& c) {
    if (c.needs(0)) setBroadcast(c, 0, callOp1("aten.threshold_backward.default", {c.grad(), c.tensor(1), c.number(2)}));
    if (c.needs(1)) c.set(1, zerosLike(c.tensor(1)));
  });
  registerDerivative("aten.hardtanh_backward.default", [](GradContext& c) {
    if (c.needs(0))
      setBroadcast(c, 0, callOp1("aten.hardtanh_backward.default", {c.grad(), c.tensor(1), c.number(2), c.number(3)}));
    if (c.needs(1)) c.set(1, zerosLike(c.tensor(1)));
  });
  // tanh_backward(g, y) = g (1 - y²); sigmoid_backward(g, y) = g y (1 - y).
  registerDerivative("aten.tanh_backward.default", [](GradContext& c) {
    const Tensor& y = c.tensor(1);
    if (c.needs(0)) setBroadcast(c, 0, callOp1("aten.tanh_backward.default", {c.grad(), y}));
    if (c.needs(1)) setBroadcast(c, 1, mul(mul(c.grad(), c.tensor(0)), mul(y, -2.0)));
  });
  registerDerivative("aten.sigmoid_backward.default", [](GradContext& c) {
    const Tensor& y = c.tensor(1);
    if (c.needs(0)) setBroadcast(c, 0, callOp1("aten.sigmoid_backward.default", {c.grad(), y}));
    if (c.needs(1)) setBroadcast(c, 1, mul(mul(c.grad(), c.tensor(0)), rsub(mul(y, 2.0), 1.0)));
  });
  registerDerivative("aten.gelu_backward.default", [](GradContext& c) {
    const std::string approximate = c.string(2);
    if (c.needs(0))
      setBroadcast(c, 0, callOp1("aten.gelu_backward.default", {c.grad(), c.tensor(1)}, {{"approximate", approximate.c_str()}}));
    if (c.needs(1))
      setBroadcast(c, 1, mul(mul(c.grad(), c.tensor(0)), geluSecondDerivative(c.tensor(1), approximate)));
  });
  // _softmax_backward_data(g, y) = y (g - Σ g y): grad_g is the same map of G; grad_y is
  // G (g - Σ g y) - g Σ G y.
  registerDerivative("aten._softmax_backward_data.default", [](GradContext& c) {
    const Tensor &g = c.tensor(0), &y = c.tensor(1), &G = c.grad();
    const IntList dim{c.integer(2)};
    if (c.needs(0)) c.set(0, castLike(softmaxBackward("aten._softmax_backward_data.default", G, c), g));
    if (c.needs(1)) {
      Tensor centered = sub(g, sum(mul(g, y), dim, true));
      c.set(1, sub(mul(G, centered), mul(g, sum(mul(G, y), dim, true))));
    }
  });
  // _log_softmax_backward_data(g, y) = g - exp(y) Σ g: grad_g = G - Σ G exp(y) (not the same map);
  // grad_y = -G exp(y) Σ g.
  registerDerivative("aten._log_softmax_backward_data.default", [](GradContext& c) {
    const Tensor &g = c.tensor(0), &y = c.tensor(1), &G = c.grad();
    const IntList dim{c.integer(2)};
    if (c.needs(0)) c.set(0, castLike(sub(G, sum(mul(G, exp(y)), dim, true)), g));
    if (c.needs(1)) c.set(1, neg(mul(mul(G, exp(y)), sum(g, dim, true))));
  });
  registerDerivative("aten.native_dropout_backward.default", [](GradContext& c) {
    if (c.needs(0))
      c.set(0, callOp1("aten.native_dropout_backward.default", {c.grad(), c.tensor(1), c.number(2)}));
  });
  registerDerivative("aten.slice_backward.default", [](GradContext& c) {
    if (c.needs(0))
      c.set(0, callOp1("aten.slice.Tensor", {c.grad(), c.integer(2), c.symInt(3), c.symInt(4), c.symInt(5)}));
  });
  registerDerivative("aten.select_backward.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, callOp1("aten.select.int", {c.grad(), c.integer(2), c.symInt(3)}));
  });
  registerDerivative("aten.diagonal_backward.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, callOp1("aten.diagonal.default", {c.grad(), c.integer(2), c.integer(3), c.integer(4)}));
  });
}

}  // namespace fathom::autograd
