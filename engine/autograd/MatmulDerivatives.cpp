// Matrix products: d(A@B) = dC@Bᵀ for A and Aᵀ@dC for B (times alpha), bias gets beta * dC.
#include "engine/autograd/Derivatives.h"
#include "engine/frontend/Functional.h"

namespace fathom::autograd {
namespace {

using namespace frontend;

Tensor scaled(const Tensor& g, double alpha) { return alpha == 1.0 ? g : mul(g, alpha); }
Tensor batchT(const Tensor& x) { return transpose(x, 1, 2); }

}  // namespace

void registerMatmulDerivatives() {
  registerDerivative("aten.mm.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, mm(c.grad(), t(c.tensor(1))));
    if (c.needs(1)) c.set(1, mm(t(c.tensor(0)), c.grad()));
  });
  registerDerivative("aten.addmm.default", [](GradContext& c) {
    const double beta = c.number(3), alpha = c.number(4);
    if (c.needs(0)) c.set(0, sumToSize(scaled(c.grad(), beta), c.sizes(0)));
    if (c.needs(1)) c.set(1, scaled(mm(c.grad(), t(c.tensor(2))), alpha));
    if (c.needs(2)) c.set(2, scaled(mm(t(c.tensor(1)), c.grad()), alpha));
  });
  registerDerivative("aten.bmm.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, bmm(c.grad(), batchT(c.tensor(1))));
    if (c.needs(1)) c.set(1, bmm(batchT(c.tensor(0)), c.grad()));
  });
  registerDerivative("aten.baddbmm.default", [](GradContext& c) {
    const double beta = c.number(3), alpha = c.number(4);
    if (c.needs(0)) c.set(0, sumToSize(scaled(c.grad(), beta), c.sizes(0)));
    if (c.needs(1)) c.set(1, scaled(bmm(c.grad(), batchT(c.tensor(2))), alpha));
    if (c.needs(2)) c.set(2, scaled(bmm(batchT(c.tensor(1)), c.grad()), alpha));
  });
}

}  // namespace fathom::autograd
