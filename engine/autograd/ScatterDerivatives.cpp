// Derivatives of advanced indexing, the functionalized scatters and fills, padding and rolling,
// as derivatives.yaml writes them:
//   index.Tensor       self: zeros of self's sizes with grad added in at the indices (index_put, accumulate)
//   index_put          self: grad (accumulate) or grad with zeros put at the indices; values: grad.index(indices), summed to values' sizes
//   slice_scatter      self: grad with zeros in the slice;  src: grad's slice
//   as_strided_scatter self: grad with zeros in the view;   src: grad.contiguous().as_strided(...)
//                      (PyTorch differentiates a contiguous self only: the positions are the copy's)
//   zero, fill.Tensor  self: zeros;  fill.Tensor's value: grad.sum()
//   masked_fill.Tensor self: grad with zeros where the mask holds;  value: the sum of grad there
//   lift_fresh_copy    self: grad
//   constant_pad_nd    self: grad padded by the negated pad (a narrow)
//   roll               self: grad rolled back by the negated shifts
#include "engine/autograd/Derivatives.h"
#include "engine/frontend/Functional.h"

namespace fathom::autograd {
namespace {

using namespace frontend;

IntList negated(IntList v) {
  for (int64_t& x : v) x = -x;
  return v;
}

void indexDerivatives() {
  // torch 2.x's _unsafe_index / _unsafe_index_put: the same gradients, in the same spellings.
  for (const char* unsafe : {"", "_unsafe_"}) {
    const std::string index = std::string("aten.") + unsafe + "index.Tensor", put = std::string("aten.") + unsafe + "index_put.default";
    registerDerivative(index, [put](GradContext& c) {
      if (!c.needs(0)) return;
      Tensor zeros = callOp1("aten.new_zeros.default", {c.grad(), c.sizes(0)});
      c.set(0, callOp1(put, {zeros, c.arg(1), c.grad(), true}));
    });
    registerDerivative(put, [index, put](GradContext& c) {
      if (c.needs(0))
        c.set(0, c.flag(3) ? c.grad() : callOp1(put, {c.grad(), c.arg(1), zerosLike(c.tensor(2)), false}));
      if (c.needs(2)) setBroadcast(c, 2, callOp1(index, {c.grad(), c.arg(1)}));
    });
  }
}

void functionalizedDerivatives() {
  registerDerivative("aten.slice_scatter.default", [](GradContext& c) {
    if (c.needs(0))
      c.set(0, callOp1("aten.slice_scatter.default",
                       {c.grad(), zerosLike(c.tensor(1)), c.arg(2), c.arg(3), c.arg(4), c.arg(5)}));
    if (c.needs(1)) c.set(1, castLike(callOp1("aten.slice.Tensor", {c.grad(), c.arg(2), c.arg(3), c.arg(4), c.arg(5)}), c.tensor(1)));
  });
  registerDerivative("aten.as_strided_scatter.default", [](GradContext& c) {
    Tensor grad = contiguous(c.grad());
    if (c.needs(0))
      c.set(0, callOp1("aten.as_strided_scatter.default", {grad, zerosLike(c.tensor(1)), c.arg(2), c.arg(3), c.arg(4)}));
    if (c.needs(1)) c.set(1, castLike(callOp1("aten.as_strided.default", {grad, c.arg(2), c.arg(3), c.arg(4)}), c.tensor(1)));
  });
  registerDerivative("aten.zero.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, zerosLike(c.grad()));
  });
  registerDerivative("aten.fill.Tensor", [](GradContext& c) {
    if (c.needs(0)) c.set(0, zerosLike(c.grad()));
    if (c.needs(1)) c.set(1, castLike(sum(c.grad(), {}), c.tensor(1)));
  });
  registerDerivative("aten.masked_fill.Tensor", [](GradContext& c) {
    Tensor kept = maskedFill(c.grad(), c.tensor(1), 0.0);
    if (c.needs(0)) c.set(0, kept);
    if (c.needs(2)) c.set(2, castLike(sum(sub(c.grad(), kept), {}), c.tensor(2)));
  });
  registerDerivative("aten.lift_fresh_copy.default", [](GradContext& c) { c.set(0, c.grad()); });
  registerDerivative("aten.constant_pad_nd.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, callOp1("aten.constant_pad_nd.default", {c.grad(), negated(c.intList(1)), 0.0}));
  });
  registerDerivative("aten.roll.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, callOp1("aten.roll.default", {c.grad(), negated(c.intList(1)), c.intList(2)}));
  });
}

}  // namespace

void registerScatterDerivatives() {
  indexDerivatives();
  functionalizedDerivatives();
}

}  // namespace fathom::autograd
