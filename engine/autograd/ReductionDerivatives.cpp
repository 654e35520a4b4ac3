// Reductions, scans and softmax: the gradient is broadcast back over the reduced dimensions
// (amax, amin, max.dim, min.dim: only to the selected elements; prod: to the product of the
// others; cumsum: summed in reverse; linalg_vector_norm: each ord's formula).
#include <algorithm>
#include <cmath>

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

// Divides by the number of reduced elements (a size expression when symbolic).
Tensor divByCount(const Tensor& g, const SymValue& count) {
  return count.isSymbolic() ? callOp1("aten.div.Scalar", {g, count}) : div(g, static_cast<double>(count.hint()));
}

SymValue reducedCount(const SymValues& sizes, const IntList& dims) {
  SymValues reduced;
  for (int64_t d : dims) reduced.push_back(sizes[static_cast<size_t>(d)]);
  return product(reduced);
}

// 0, 1, ..., n-1 laid along `dim` of a rank-`rank` tensor (sizes 1 elsewhere), for one-hot masks.
Tensor positionsAlong(const SymValue& n, int64_t dim, size_t rank) {
  SymValues shape(rank, SymValue(1));
  shape[static_cast<size_t>(dim)] = n;
  return view(arange(0, n, DType::Int64), shape);
}


// amax / amin (scale_grad_by_count): the gradient is split evenly among the elements equal to
// the extremum.
void extremumGrad(GradContext& c) {
  if (!c.needs(0)) return;
  const Tensor& x = c.tensor(0);
  const SymValues sizes = c.sizes(0);
  const IntList dims = reducedDims(c, 1, sizes.size());
  const bool keepdim = c.flag(2);
  Tensor mask = to(callOp1("aten.eq.Tensor", {x, expandBack(c.output(), sizes, dims, keepdim)}), x.dtype());
  Tensor count = sum(mask, dims, true);
  c.set(0, mul(div(expandBack(c.grad(), sizes, dims, keepdim), count), mask));
}

// linalg_vector_norm_backward (FunctionsManual.cpp's norm_backward, ord read as a double): the
// gradient and the norm unsqueezed back over the reduced dims (unless keepdim), then each ord's
// formula as PyTorch writes it; ord 0 has no gradient, a zero norm gives zeros, and inf / -inf
// split the gradient among the elements whose |x| is the norm (or NaN).
void vectorNormGrad(GradContext& c) {
  const double p = c.number(1);
  if (!c.needs(0) || p == 0) return;
  const Tensor& x = c.tensor(0);
  const IntList dims = reducedDims(c, 2, x.sizes().size());
  Tensor g = c.grad(), norm = c.output();
  if (!c.flag(3))
    for (int64_t d : dims) g = unsqueeze(g, d), norm = unsqueeze(norm, d);
  const Tensor sgn = callOp1("aten.sign.default", {x}), absX = callOp1("aten.abs.default", {x});
  const auto zeroWhereNormIsZero = [&](const Tensor& t) { return maskedFill(t, callOp1("aten.eq.Scalar", {norm, 0.0}), 0.0); };
  Tensor r;
  if (p == 1) {
    r = mul(sgn, g);
  } else if (p == 2) {
    r = mul(g, zeroWhereNormIsZero(div(x, norm)));
  } else if (std::isinf(p)) {
    const Tensor mask = callOp1("aten.logical_or.default", {callOp1("aten.eq.Tensor", {absX, norm}),
                                                            callOp1("aten.isnan.default", {absX})});
    r = mul(sgn, mul(div(g, sum(mask, dims, true)), mask));
  } else if (p < 1) {
    const Tensor scaled = mul(sgn, maskedFill(pow(absX, p - 1), callOp1("aten.eq.Scalar", {x, 0.0}), 0.0));
    r = mul(mul(scaled, g), pow(norm, 1 - p));
  } else {
    const Tensor scaled = p < 2 ? mul(sgn, pow(absX, p - 1)) : mul(x, pow(absX, p - 2));
    r = mul(scaled, zeroWhereNormIsZero(div(g, pow(norm, p - 1))));
  }
  c.set(0, castLike(r, x));
}

// max.dim / min.dim (value_selecting_reduction_backward): the gradient goes to the element
// `indices` selected.
void selectedGrad(GradContext& c) {
  if (!c.needs(0) || !c.grad(0).defined()) return;
  const SymValues sizes = c.sizes(0);
  if (sizes.empty()) return c.set(0, c.grad(0));
  const int64_t dim = reducedDims(c, 1, sizes.size()).front();
  Tensor g = c.grad(0), indices = c.output(1);
  if (!c.flag(2)) g = unsqueeze(g, dim), indices = unsqueeze(indices, dim);
  Tensor chosen = callOp1("aten.eq.Tensor", {indices, positionsAlong(sizes[static_cast<size_t>(dim)], dim, sizes.size())});
  c.set(0, where(chosen, g, zerosLike(g)));
}

// var_backward: 2 / (N - correction) * grad * (x - mean(x)); `keepdimPos` is keepdim's position.
void varGrad(GradContext& c, int64_t correction, size_t keepdimPos) {
  if (!c.needs(0)) return;
  const Tensor& x = c.tensor(0);
  const SymValues sizes = c.sizes(0);
  const IntList dims = reducedDims(c, 1, sizes.size());
  Tensor centered = sub(x, mean(x, dims, true));
  Tensor g = mul(mul(expandBack(c.grad(), sizes, dims, c.flag(keepdimPos)), centered), 2.0);
  c.set(0, divByCount(g, reducedCount(sizes, dims) - SymValue(correction)));
}

// prod_backward without data-dependent shapes: with no zero in a group, grad * prod / x; with
// one, the zero gets grad * (the product of the others) and the rest 0; with more, all 0.
Tensor prodGrad(const Tensor& grad, const Tensor& x, const IntList& dims, bool keepdim) {
  const SymValues sizes = x.sizes();
  if (sizes.empty()) return grad;
  Tensor isZero = callOp1("aten.eq.Scalar", {x, 0.0});
  Tensor nonzero = where(isZero, callOp1("aten.ones_like.default", {x}), x);
  Tensor othersProduct = callOp1("aten.prod.dim_int", {nonzero, dims[0], true});
  for (size_t i = 1; i < dims.size(); ++i) othersProduct = callOp1("aten.prod.dim_int", {othersProduct, dims[i], true});
  Tensor zeros = sum(isZero, dims, true);
  Tensor noZero = callOp1("aten.eq.Scalar", {zeros, 0}), oneZero = callOp1("aten.eq.Scalar", {zeros, 1});
  Tensor g = expandBack(grad, sizes, dims, keepdim);
  Tensor atZero = where(callOp1("aten.logical_and.default", {oneZero, isZero}), othersProduct, zerosLike(x));
  return mul(g, where(noZero, div(othersProduct, nonzero), atZero));
}
// sort and topk (value_selecting_reduction_backward, keepdim): the values' gradient scattered to
// the places the indices name; `dimPos` is the dim argument's position.
void sortedGrad(GradContext& c, size_t dimPos) {
  if (!c.needs(0) || !c.grad(0).defined()) return;
  const int64_t rank = static_cast<int64_t>(c.sizes(0).size());
  const int64_t dim = rank == 0 ? 0 : (c.integer(dimPos) + rank) % rank;
  Tensor zeros = callOp1("aten.new_zeros.default", {c.grad(0), c.sizes(0)});
  c.set(0, callOp1("aten.scatter.src", {zeros, dim, c.output(1), c.grad(0)}));
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
  registerDerivative("aten.mean.default", [](GradContext& c) {
    if (!c.needs(0)) return;
    const SymValues sizes = c.sizes(0);
    IntList all(sizes.size());
    for (size_t d = 0; d < all.size(); ++d) all[d] = static_cast<int64_t>(d);
    c.set(0, divByCount(expand(c.grad(), sizes), reducedCount(sizes, all)));
  });
  registerDerivative("aten.mean.dim", [](GradContext& c) {
    if (!c.needs(0)) return;
    const SymValues sizes = c.sizes(0);
    const IntList dims = reducedDims(c, 1, sizes.size());
    c.set(0, divByCount(expandBack(c.grad(), sizes, dims, c.flag(2)), reducedCount(sizes, dims)));
  });
  registerDerivative("aten.linalg_vector_norm.default", vectorNormGrad);
  registerDerivative("aten.amax.default", extremumGrad);
  registerDerivative("aten.amin.default", extremumGrad);
  registerDerivative("aten.max.dim", selectedGrad);
  registerDerivative("aten.min.dim", selectedGrad);
  registerDerivative("aten.sort.default", [](GradContext& c) { sortedGrad(c, 1); });
  registerDerivative("aten.topk.default", [](GradContext& c) { sortedGrad(c, 2); });
  registerDerivative("aten.var.correction", [](GradContext& c) { varGrad(c, c.isNone(2) ? 1 : c.integer(2), 3); });
  registerDerivative("aten.var.dim", [](GradContext& c) { varGrad(c, c.flag(2) ? 1 : 0, 3); });
  registerDerivative("aten.prod.default", [](GradContext& c) {
    if (!c.needs(0)) return;
    const Tensor x = castLike(c.tensor(0), c.grad());
    IntList all;
    for (size_t d = 0; d < x.sizes().size(); ++d) all.push_back(static_cast<int64_t>(d));
    c.set(0, castLike(prodGrad(c.grad(), x, all, false), c.tensor(0)));
  });
  registerDerivative("aten.prod.dim_int", [](GradContext& c) {
    if (!c.needs(0)) return;
    const Tensor x = castLike(c.tensor(0), c.grad());
    const int64_t rank = static_cast<int64_t>(x.sizes().size());
    const int64_t dim = c.integer(1) < 0 ? c.integer(1) + rank : c.integer(1);
    c.set(0, castLike(prodGrad(c.grad(), x, IntList{rank == 0 ? 0 : dim}, c.flag(2)), c.tensor(0)));
  });
  // cumsum_backward: each input feeds every later output, so its gradient is the reversed cumsum.
  registerDerivative("aten.cumsum.default", [](GradContext& c) {
    if (!c.needs(0)) return;
    Tensor g = castLike(c.grad(), c.tensor(0));
    if (g.dim() == 0) return c.set(0, g);
    const IntList dim{c.integer(1)};
    Tensor flipped = callOp1("aten.flip.default", {g, dim});
    c.set(0, callOp1("aten.flip.default", {callOp1("aten.cumsum.default", {flipped, dim[0]}), dim}));
  });
  registerDerivative("aten._softmax.default", [](GradContext& c) {
    if (c.needs(0))
      c.set(0, callOp1("aten._softmax_backward_data.default", {c.grad(), c.output(), c.integer(1), c.tensor(0).dtype()}));
  });
  // _safe_softmax: softmax's gradient, in self's dtype (its masked rows are 0 and stay 0).
  registerDerivative("aten._safe_softmax.default", [](GradContext& c) {
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
