// Reductions and softmax: the gradient is broadcast back over the reduced dimensions.
#include <algorithm>

#include "engine/autograd/Derivatives.h"
#include "engine/frontend/Functional.h"

namespace fathom::autograd {
namespace {

using namespace frontend;

// The dims a reduction's int[1]? argument names, wrapped; all dims when None or empty.
IntList reducedDims(const GradContext& c, size_t pos, size_t rank) {
  IntList dims;
  if (!c.isNone(pos)) dims = c.intList(pos);
  if (dims.empty())
    for (size_t d = 0; d < rank; ++d) dims.push_back(static_cast<int64_t>(d));
  for (auto& d : dims)
    if (d < 0) d += static_cast<int64_t>(rank);
  std::sort(dims.begin(), dims.end());
  return dims;
}

// sum_backward: unsqueeze the reduced dims (unless keepdim) and expand to the input's sizes.
Tensor expandBack(const Tensor& grad, const SymValues& sizes, const IntList& dims, bool keepdim) {
  Tensor g = grad;
  if (!keepdim && !sizes.empty())
    for (int64_t d : dims) g = unsqueeze(g, d);
  return expand(g, sizes);
}

}  // namespace

void registerReductionDerivatives() {
  registerDerivative("aten.sum.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, expand(c.grad(), c.sizes(0)));
  });
  registerDerivative("aten.sum.dim_IntList", [](GradContext& c) {
    if (!c.needs(0)) return;
    const SymValues sizes = c.sizes(0);
    c.set(0, expandBack(c.grad(), sizes, reducedDims(c, 1, sizes.size()), c.flag(2)));
  });
  registerDerivative("aten.mean.dim", [](GradContext& c) {
    if (!c.needs(0)) return;
    const SymValues sizes = c.sizes(0);
    const IntList dims = reducedDims(c, 1, sizes.size());
    SymValues reduced;
    for (int64_t d : dims) reduced.push_back(sizes[static_cast<size_t>(d)]);
    const SymValue count = product(reduced);
    Tensor g = expandBack(c.grad(), sizes, dims, c.flag(2));
    c.set(0, count.isSymbolic() ? callOp1("aten.div.Scalar", {g, count})
                                : div(g, static_cast<double>(count.hint())));
  });
  registerDerivative("aten._softmax.default", [](GradContext& c) {
    if (c.needs(0))
      c.set(0, callOp1("aten._softmax_backward_data.default", {c.grad(), c.output(), c.integer(1), c.tensor(0).dtype()}));
  });
  registerDerivative("aten._log_softmax.default", [](GradContext& c) {
    if (c.needs(0))
      c.set(0, callOp1("aten._log_softmax_backward_data.default",
                       {c.grad(), c.output(), c.integer(1), c.tensor(0).dtype()}));
  });
}

}  // namespace fathom::autograd
