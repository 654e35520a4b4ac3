// Neural-network ops: their gradients are ATen's fused backward ops, asked only for the
// gradients that are needed (output_mask).
#include "engine/autograd/Derivatives.h"
#include "engine/frontend/Functional.h"

namespace fathom::autograd {
namespace {

using namespace frontend;

Arg mask3(bool a, bool b, bool c) { return Arg(Value(ValueList{a, b, c})); }

// Sets the gradients of a fused backward op's outputs on argument positions `pos`.
void setFused(GradContext& c, const std::vector<Tensor>& grads, std::initializer_list<size_t> pos) {
  size_t i = 0;
  for (size_t p : pos) {
    if (c.needs(p) && i < grads.size()) c.set(p, castLike(grads[i], c.tensor(p)));
    ++i;
  }
}

}  // namespace

void registerNnDerivatives() {
  registerDerivative("aten.native_layer_norm.default", [](GradContext& c) {
    if (!c.grad(0).defined()) return;
    auto g = callOp("aten.native_layer_norm_backward.default",
                    {c.grad(0), c.tensor(0), c.symList(1), c.output(1), c.output(2), c.tensor(2), c.tensor(3),
                     mask3(c.needs(0), c.needs(2), c.needs(3))});
    setFused(c, g, {0, 2, 3});
  });
  registerDerivative("aten.native_batch_norm.default", [](GradContext& c) {
    if (!c.grad(0).defined()) return;
    auto g = callOp("aten.native_batch_norm_backward.default",
                    {c.grad(0), c.tensor(0), c.tensor(1), c.tensor(3), c.tensor(4), c.output(1), c.output(2),
                     c.flag(5), c.number(7), mask3(c.needs(0), c.needs(1), c.needs(2))});
    setFused(c, g, {0, 1, 2});
  });
  registerDerivative("aten.convolution.default", [](GradContext& c) {
    Arg biasSizes = c.isNone(2) ? Arg(None{}) : Arg(c.sizes(2));
    auto g = callOp("aten.convolution_backward.default",
                    {c.grad(), c.tensor(0), c.tensor(1), biasSizes, c.intList(3), c.intList(4), c.intList(5),
                     c.flag(6), c.intList(7), c.integer(8), mask3(c.needs(0), c.needs(1), c.needs(2))});
    setFused(c, g, {0, 1, 2});
  });
  registerDerivative("aten.max_pool2d_with_indices.default", [](GradContext& c) {
    if (!c.needs(0) || !c.grad(0).defined()) return;
    c.set(0, callOp1("aten.max_pool2d_with_indices_backward.default",
                     {c.grad(0), c.tensor(0), c.intList(1), c.intList(2), c.intList(3), c.intList(4), c.flag(5),
                      c.output(1)}));
  });
  registerDerivative("aten.embedding.default", [](GradContext& c) {
    if (!c.needs(0)) return;
    c.set(0, callOp1("aten.embedding_dense_backward.default",
                     {c.grad(), c.tensor(1), c.tensor(0).size(0), c.integer(2), c.flag(3)}));
  });
  registerDerivative("aten.native_dropout.default", [](GradContext& c) {
    if (!c.needs(0) || !c.grad(0).defined()) return;
    const double p = c.number(1);
    const double scale = p >= 1.0 ? 0.0 : 1.0 / (1.0 - p);
    c.set(0, callOp1("aten.native_dropout_backward.default", {c.grad(0), c.output(1), scale}));
  });
}

}  // namespace fathom::autograd
