// Pairwise distances, as 1.13's derivatives.yaml differentiates them: _cdist_forward through
// _cdist_backward (x2's gradient is x1's with the roles swapped: grad and the result
// transposed), _pdist_forward through _pdist_backward. _cdist_backward returns the broadcast
// batch, which is summed back to each input's size as PyTorch's engine does. The backward ops
// themselves have no derivative (1.13: not implemented).
#include "engine/autograd/Derivatives.h"
#include "engine/frontend/Functional.h"

namespace fathom::autograd {
namespace {

using namespace frontend;

Tensor mT(const Tensor& t) { return transpose(t, -2, -1); }

}  // namespace

void registerDistanceDerivatives() {
  registerDerivative("aten._cdist_forward.default", [](GradContext& c) {
    const double p = c.number(2);
    if (c.needs(0))
      setBroadcast(c, 0, callOp1("aten._cdist_backward.default", {contiguous(c.grad()), c.tensor(0), c.tensor(1), p, c.output()}));
    if (c.needs(1))
      setBroadcast(c, 1, callOp1("aten._cdist_backward.default",
                                 {contiguous(mT(c.grad())), c.tensor(1), c.tensor(0), p, contiguous(mT(c.output()))}));
  });
  registerDerivative("aten._pdist_forward.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, callOp1("aten._pdist_backward.default", {c.grad(), c.tensor(0), c.number(1), c.output()}));
  });
}

}  // namespace fathom::autograd
