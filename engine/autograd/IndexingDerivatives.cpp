// gather and index_select: the gradient is scattered back, added up where indices repeat
// (PyTorch's scatter_add / index_add). gather's is PyTorch's zeros.scatter_add(dim, index, grad);
// the op library has no index_add, so index_select writes its gradient through
// embedding_dense_backward, which is exactly "add row i of the gradient into row indices[i]"
// (index_select along dim d is embedding on d moved to the front).
// The scatters: self's gradient is the gradient with the written places zeroed, src's the
// gradient gathered from them; select_scatter likewise with a select.
#include "engine/autograd/Derivatives.h"
#include "engine/frontend/Functional.h"

namespace fathom::autograd {
namespace {

using namespace frontend;

int64_t wrapDim(int64_t d, size_t rank) { return d < 0 ? d + static_cast<int64_t>(rank) : d; }

// rows[i] added into row indices[i] of a [numRows, ...] zero tensor.
Tensor addRows(const Tensor& rows, const Tensor& indices, const SymValue& numRows) {
  return callOp1("aten.embedding_dense_backward.default", {rows, indices, numRows, -1, false});
}

// scatter with the value 0: the gradient with the places a scatter wrote zeroed.
Tensor zeroedAt(const GradContext& c, const Tensor& grad) {
  return callOp1("aten.scatter.value", {grad, c.integer(1), c.tensor(2), 0.0});
}

Tensor gathered(const GradContext& c, const Tensor& grad) {
  return callOp1("aten.gather.default", {grad, c.integer(1), c.tensor(2)});
}

}  // namespace

void registerIndexingDerivatives() {
  registerDerivative("aten.gather.default", [](GradContext& c) {
    if (c.needs(0))
      c.set(0, callOp1("aten.scatter_add.default",
                       {callOp1("aten.new_zeros.default", {c.grad(), c.sizes(0)}), c.integer(1), c.tensor(2), c.grad()}));
  });
  registerDerivative("aten.index_select.default", [](GradContext& c) {
    if (!c.needs(0)) return;
    const SymValues sizes = c.sizes(0);
    if (sizes.empty()) return c.set(0, sum(c.grad(), {}));  // the index is a single 0
    const int64_t dim = wrapDim(c.integer(1), sizes.size());
    // dim first, the others after it in order: rows of the gradient, one per index.
    IntList order{dim};
    SymValues rest;
    for (int64_t k = 0; k < static_cast<int64_t>(sizes.size()); ++k)
      if (k != dim) order.push_back(k), rest.push_back(sizes[static_cast<size_t>(k)]);
    const Tensor& index = c.tensor(2);
    Tensor rows = reshape(permute(c.grad(), order), {product(index.sizes()), product(rest)});
    Tensor added = addRows(rows, reshape(index, {SymValue(-1)}), sizes[static_cast<size_t>(dim)]);
    SymValues movedSizes{sizes[static_cast<size_t>(dim)]};
    movedSizes.insert(movedSizes.end(), rest.begin(), rest.end());
    IntList inverse(order.size());
    for (size_t i = 0; i < order.size(); ++i) inverse[static_cast<size_t>(order[i])] = static_cast<int64_t>(i);
    c.set(0, permute(view(added, movedSizes), inverse));
  });
  registerDerivative("aten.scatter.src", [](GradContext& c) {
    if (c.needs(0)) c.set(0, zeroedAt(c, c.grad()));
    if (c.needs(3)) c.set(3, gathered(c, c.grad()));
  });
  registerDerivative("aten.scatter.value", [](GradContext& c) {
    if (c.needs(0)) c.set(0, zeroedAt(c, c.grad()));
  });
  registerDerivative("aten.scatter_add.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, c.grad());
    if (c.needs(3)) c.set(3, gathered(c, c.grad()));
  });
  registerDerivative("aten.select_scatter.default", [](GradContext& c) {
    const int64_t dim = c.integer(2), index = c.integer(3);
    if (c.needs(0))
      c.set(0, callOp1("aten.select_scatter.default", {c.grad(), zerosLike(c.tensor(1)), dim, index}));
    if (c.needs(1)) c.set(1, select(c.grad(), dim, index));
  });
}

}  // namespace fathom::autograd
