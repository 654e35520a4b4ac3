// gather and index_select: the gradient is scattered back, added up where indices repeat
// (PyTorch's scatter_add / index_add). The op library has neither scatter op, so both write the
// gradient through embedding_dense_backward, which is exactly "add row i of the gradient into row
// indices[i]": index_select along dim d is embedding on d moved to the front; gather is
// embedding over self's elements with rows of one element, indexed by flat position.
#include "engine/autograd/Derivatives.h"
#include "engine/frontend/Functional.h"

namespace fathom::autograd {
namespace {

using namespace frontend;

int64_t wrapDim(int64_t d, size_t rank) { return d < 0 ? d + static_cast<int64_t>(rank) : d; }

Tensor intTimes(const Tensor& t, const SymValue& k) { return callOp1("aten.mul.Scalar", {t, k}); }

// rows[i] added into row indices[i] of a [numRows, ...] zero tensor.
Tensor addRows(const Tensor& rows, const Tensor& indices, const SymValue& numRows) {
  return callOp1("aten.embedding_dense_backward.default", {rows, indices, numRows, -1, false});
}

// The position in a contiguous tensor of `sizes` of every element gather read: index along
// `dim`, the element's own coordinate along every other dim (index's sizes bound them).
Tensor flatPositions(const Tensor& index, const SymValues& sizes, int64_t dim) {
  SymValues strides(sizes.size(), SymValue(1));
  for (size_t k = sizes.size() - 1; k > 0; --k) strides[k - 1] = strides[k] * sizes[k];
  Tensor flat = intTimes(index, strides[static_cast<size_t>(dim)]);
  for (int64_t k = 0; k < index.dim(); ++k) {
    if (k == dim) continue;
    SymValues shape(static_cast<size_t>(index.dim()), SymValue(1));
    shape[static_cast<size_t>(k)] = index.size(k);
    Tensor coord = view(arange(0, index.size(k), DType::Int64), shape);
    flat = add(flat, intTimes(coord, strides[static_cast<size_t>(k)]));
  }
  return flat;
}

}  // namespace

void registerIndexingDerivatives() {
  registerDerivative("aten.gather.default", [](GradContext& c) {
    if (!c.needs(0)) return;
    const SymValues sizes = c.sizes(0);
    if (sizes.empty()) return c.set(0, sum(c.grad(), {}));  // every index is 0
    const int64_t dim = wrapDim(c.integer(1), sizes.size());
    Tensor positions = reshape(flatPositions(c.tensor(2), sizes, dim), {SymValue(-1)});
    Tensor rows = reshape(c.grad(), {SymValue(-1), SymValue(1)});
    c.set(0, view(addRows(rows, positions, product(sizes)), sizes));
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
}

}  // namespace fathom::autograd
