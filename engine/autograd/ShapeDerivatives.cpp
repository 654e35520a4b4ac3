// Views, reshapes, joins and copies: the gradient is the inverse view, zeros with the gradient
// written into the viewed region (slice_backward / select_backward / diagonal_backward), the
// repeats summed back (repeat), or src's share of it (copy). as_strided's has its own file,
// AsStridedDerivative.cpp.
#include <algorithm>
#include <limits>

#include "engine/autograd/Derivatives.h"
#include "engine/frontend/Functional.h"

namespace fathom::autograd {
namespace {

using namespace frontend;

int64_t wrapDim(int64_t d, size_t rank) { return d < 0 ? d + static_cast<int64_t>(rank) : d; }

// A SymInt? argument with its default when None.
Arg sizeOr(const GradContext& c, size_t pos, int64_t fallback) {
  if (c.isNone(pos)) return Arg(fallback);
  return Arg(c.symInt(pos));
}

void setReshaped(GradContext& c) {
  if (c.needs(0)) c.set(0, reshape(c.grad(), c.sizes(0)));
}

// repeat_backward: the leading repeat dims summed away, then each repeated dim viewed as
// [repeat, size] and summed over the repeats (all zeros when some repeat is 0).
Tensor repeatBackward(const Tensor& grad, const IntList& repeats, const SymValues& sizes) {
  if (std::find(repeats.begin(), repeats.end(), 0) != repeats.end()) return callOp1("aten.new_zeros.default", {grad, sizes});
  const size_t lead = repeats.size() - sizes.size();
  Tensor g = grad;
  for (size_t i = 0; i < lead; ++i) g = sum(g, {0});
  SymValues shape;
  IntList dims;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (repeats[d + lead] != 1) {
      shape.push_back(SymValue(repeats[d + lead]));
      dims.push_back(static_cast<int64_t>(shape.size()) - 1);
    }
    shape.push_back(sizes[d]);
  }
  return dims.empty() ? g : sum(reshape(g, shape), dims);
}

// diagonal, repeat and copy.
void registerCopyingDerivatives() {
  registerDerivative("aten.diagonal.default", [](GradContext& c) {
    if (c.needs(0))
      c.set(0, callOp1("aten.diagonal_backward.default", {c.grad(), c.sizes(0), c.integer(1), c.integer(2), c.integer(3)}));
  });
  registerDerivative("aten.repeat.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, repeatBackward(c.grad(), c.intList(1), c.sizes(0)));
  });
  // copy(self, src): the result does not depend on self's values; src gets the gradient summed
  // over the dims it was broadcast along.
  registerDerivative("aten.copy.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, zerosLike(c.grad()));
    setBroadcast(c, 1, c.grad());
  });
}

// split, split_with_sizes and unbind: ops with a list of views as their result.
void registerSplitDerivatives() {
  // split / split_with_sizes: the pieces' gradients side by side (zeros for unused pieces).
  const auto splitBackward = [](GradContext& c) {
    if (!c.needs(0)) return;
    std::vector<Tensor> parts;
    for (size_t i = 0; i < c.numOutputs(); ++i) parts.push_back(c.grad(i).defined() ? c.grad(i) : zerosLike(c.output(i)));
    c.set(0, cat(parts, c.integer(2)));
  };
  registerDerivative("aten.split.Tensor", splitBackward);
  registerDerivative("aten.split_with_sizes.default", splitBackward);
  // unbind: the pieces' gradients stacked along dim (zeros for unused pieces), as unbind_backward.
  registerDerivative("aten.unbind.int", [](GradContext& c) {
    if (!c.needs(0)) return;
    const int64_t dim = wrapDim(c.integer(1), static_cast<size_t>(c.tensor(0).dim()));
    std::vector<Tensor> parts;
    for (size_t i = 0; i < c.numOutputs(); ++i)
      parts.push_back(unsqueeze(c.grad(i).defined() ? c.grad(i) : zerosLike(c.output(i)), dim));
    c.set(0, parts.empty() ? zerosLike(c.tensor(0)) : cat(parts, dim));
  });
}

}  // namespace

void registerShapeDerivatives() {
  for (const char* op : {"aten.view.default", "aten._unsafe_view.default", "aten._reshape_alias.default",
                         "aten.reshape.default", "aten.squeeze.default"})
    registerDerivative(op, setReshaped);
  registerDerivative("aten.permute.default", [](GradContext& c) {
    if (!c.needs(0)) return;
    const IntList dims = c.intList(1);
    IntList inverse(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) inverse[static_cast<size_t>(wrapDim(dims[i], dims.size()))] = static_cast<int64_t>(i);
    c.set(0, permute(c.grad(), inverse));
  });
  registerDerivative("aten.transpose.int", [](GradContext& c) {
    if (c.needs(0)) c.set(0, transpose(c.grad(), c.integer(1), c.integer(2)));
  });
  registerDerivative("aten.t.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, t(c.grad()));
  });
  registerDerivative("aten.expand.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, sumToSize(c.grad(), c.sizes(0)));
  });
  registerDerivative("aten.unsqueeze.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, callOp1("aten.squeeze.dim", {c.grad(), c.integer(1)}));
  });
  registerDerivative("aten.squeeze.dim", [](GradContext& c) {
    if (!c.needs(0)) return;
    const SymValues sizes = c.sizes(0);
    if (sizes.empty()) return c.set(0, c.grad());
    const int64_t d = wrapDim(c.integer(1), sizes.size());
    const bool squeezed = sizes[static_cast<size_t>(d)].sym().maybeConcrete() == std::optional<int64_t>(1);
    c.set(0, squeezed ? unsqueeze(c.grad(), d) : c.grad());
  });
  registerDerivative("aten.slice.Tensor", [](GradContext& c) {
    if (!c.needs(0)) return;
    c.set(0, callOp1("aten.slice_backward.default",
                     {c.grad(), c.sizes(0), c.integer(1), sizeOr(c, 2, 0),
                      sizeOr(c, 3, std::numeric_limits<int64_t>::max()), c.symInt(4)}));
  });
  registerDerivative("aten.select.int", [](GradContext& c) {
    if (c.needs(0))
      c.set(0, callOp1("aten.select_backward.default", {c.grad(), c.sizes(0), c.integer(1), c.integer(2)}));
  });
  registerSplitDerivatives();
  registerDerivative("aten.cat.default", [](GradContext& c) {
    const TensorList& inputs = c.tensors(0);
    if (inputs.empty()) return;
    const int64_t dim = wrapDim(c.integer(1), static_cast<size_t>(c.grad().dim()));
    SymValue offset(0);
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Tensor& in = inputs[i];
      // Legacy empty inputs (1-d, size 0) are skipped by cat and get no gradient.
      if (in.dim() == 1 && in.size(0).sym().maybeConcrete() == std::optional<int64_t>(0) && c.grad().dim() != 1) continue;
      const SymValue len = in.size(dim);
      const SymValue end = offset + len;
      if (c.needsElement(0, i)) c.setElement(0, i, slice(c.grad(), dim, offset, end));
      offset = end;
    }
  });
  registerDerivative("aten.stack.default", [](GradContext& c) {
    const TensorList& inputs = c.tensors(0);
    const int64_t dim = wrapDim(c.integer(1), static_cast<size_t>(c.grad().dim()));
    for (size_t i = 0; i < inputs.size(); ++i)
      if (c.needsElement(0, i)) c.setElement(0, i, select(c.grad(), dim, static_cast<int64_t>(i)));
  });
  registerDerivative("aten.flip.default", [](GradContext& c) {
    if (c.needs(0)) c.set(0, callOp1("aten.flip.default", {c.grad(), c.intList(1)}));
  });
  registerCopyingDerivatives();
}

}  // namespace fathom::autograd
