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

// scatter_reduce_backward: self's and src's gradients for each reduction; without include_self
// self gets none where something was scattered.
std::pair<Tensor, Tensor> scatterReduceGrads(GradContext& c) {
  const Tensor &self = c.tensor(0), &index = c.tensor(2), &src = c.tensor(3), &grad = c.grad(), &result = c.output();
  const int64_t dim = c.integer(1);
  const std::string reduce = c.string(4);
  auto op = [](const char* name, frontend::Args args, frontend::KwArgs kwargs = {}) {
    return callOp1(name, std::move(args), std::move(kwargs));
  };
  auto gatherAt = [&](const Tensor& t) { return op("aten.gather.default", {t, dim, index}); };
  Tensor gs, gsrc;
  if (reduce == "sum") {
    gs = grad, gsrc = gatherAt(grad);
  } else if (reduce == "mean") {
    Tensor n = c.flag(5) ? op("aten.ones_like.default", {grad}) : zerosLike(grad);
    n = op("aten.scatter_add.default", {n, dim, index, op("aten.ones_like.default", {src})});
    n = maskedFill(n, op("aten.eq.Scalar", {n, 0}), 1.0);
    gs = div(grad, n), gsrc = div(gatherAt(grad), gatherAt(n));
  } else if (reduce == "amax" || reduce == "amin") {  // split evenly among the elements equal to the result
    const Tensor selfIs = op("aten.eq.Tensor", {self, result}), srcIs = op("aten.eq.Tensor", {src, gatherAt(result)});
    const Tensor count = op("aten.scatter_add.default", {to(selfIs, self.dtype()), dim, index, to(srcIs, self.dtype())});
    const Tensor share = div(grad, count);
    gs = mul(to(selfIs, share.dtype()), share), gsrc = mul(to(srcIs, share.dtype()), gatherAt(share));
  } else {  // prod: the product of the others, with zeros handled exactly
    const Tensor selfOnes = maskedFill(self, op("aten.eq.Scalar", {self, 0.0}), 1.0);
    gs = div(mul(grad, op("aten.scatter_reduce.two", {selfOnes, dim, index, src, "prod"}, {{"include_self", c.flag(5)}})), selfOnes);
    const Tensor srcZero = op("aten.eq.Scalar", {src, 0.0});
    const Tensor zeros = gatherAt(op("aten.scatter_add.default", {zerosLike(self), dim, index, to(srcZero, self.dtype())}));
    const Tensor single = op("aten.logical_and.default", {srcZero, op("aten.eq.Scalar", {zeros, 1.0})});
    const Tensor others = op("aten.scatter_reduce.two", {self, dim, index, maskedFill(src, single, 1.0), "prod"},
                             {{"include_self", c.flag(5)}});
    gsrc = where(single, gatherAt(mul(grad, others)), div(gatherAt(mul(grad, result)), maskedFill(src, srcZero, 1.0)));
  }
  if (!c.flag(5)) gs = op("aten.scatter.value", {gs, dim, index, 0.0});
  return {gs, gsrc};
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
  registerDerivative("aten.scatter_reduce.two", [](GradContext& c) {
    if (!c.needs(0) && !c.needs(3)) return;
    auto [self, src] = scatterReduceGrads(c);
    if (c.needs(0)) c.set(0, self);
    if (c.needs(3)) c.set(3, src);
  });
  // masked_scatter: self's gradient is zeroed where the mask took source elements; source element
  // j gets the gradient of the j-th masked place (row-major), 0 past the last. PyTorch selects
  // them with masked_select (a data-dependent shape); the same numbers come here from a
  // scatter_add at cumsum(mask) - 1, so a traced backward keeps static shapes. (A non-bool mask
  // converts by value here; the forward reads its first bytes - the same for masks of 0 and 1.)
  registerDerivative("aten.masked_scatter.default", [](GradContext& c) {
    const Tensor& grad = c.grad();
    const Tensor mask = expand(to(c.tensor(1), DType::Bool), grad.sizes());
    if (c.needs(0)) setBroadcast(c, 0, maskedFill(grad, mask, 0.0));
    if (!c.needs(2)) return;
    const Tensor flatMask = reshape(mask, {SymValue(-1)}), flatGrad = reshape(grad, {SymValue(-1)});
    const Tensor position = callOp1("aten.sub.Scalar", {callOp1("aten.cumsum.default", {flatMask, 0}), int64_t{1}});
    const Tensor index = where(flatMask, position, zerosLike(position));
    const Tensor values = maskedFill(flatGrad, callOp1("aten.logical_not.default", {flatMask}), 0.0);
    const SymValues sourceSizes = c.sizes(2);
    const Tensor zeros = callOp1("aten.new_zeros.default", {grad, SymValues{product(sourceSizes)}});
    c.set(2, reshape(callOp1("aten.scatter_add.default", {zeros, 0, index, values}), sourceSizes));
  });
  registerDerivative("aten.select_scatter.default", [](GradContext& c) {
    const int64_t dim = c.integer(2), index = c.integer(3);
    if (c.needs(0))
      c.set(0, callOp1("aten.select_scatter.default", {c.grad(), zerosLike(c.tensor(1)), dim, index}));
    if (c.needs(1)) c.set(1, select(c.grad(), dim, index));
  });
}

}  // namespace fathom::autograd
