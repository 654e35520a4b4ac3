#include "engine/autograd/Derivatives.h"

#include "engine/frontend/Functional.h"

namespace fathom::autograd {

void registerBuiltinDerivatives() {
  registerPointwiseDerivatives();
  registerMathDerivatives();
  registerShapeDerivatives();
  registerMatmulDerivatives();
  registerNnDerivatives();
  registerReductionDerivatives();
  registerIndexingDerivatives();
  registerBackwardDerivatives();
  registerActivationDerivatives();
  registerScatterDerivatives();
  registerAsStridedDerivative();
  registerDistanceDerivatives();
  // Outputs that do not depend on the values of their tensor arguments, or are not floating
  // point: PyTorch has no derivative for these (factories never record: no tensor arguments,
  // but they are listed so every registered op is either here or has a formula).
  for (const char* op : {"aten.zeros_like.default", "aten.ones_like.default", "aten.empty_like.default",
                         "aten.full_like.default", "aten.new_zeros.default", "aten.new_ones.default",
                         "aten.new_empty.default", "aten.new_full.default", "aten.empty_strided.default",
                         "aten.new_empty_strided.default",
                         "aten.empty.memory_format", "aten.full.default", "aten.zeros.default", "aten.ones.default",
                         "aten.arange.default", "aten.arange.start", "aten.arange.start_step",
                         "aten.argmax.default", "aten.argmin.default", "aten.any.default", "aten.any.dim", "aten.logical_not.default", "aten.sym_size.default",
                         "aten.eq.Tensor", "aten.eq.Scalar", "aten.ne.Tensor", "aten.ne.Scalar", "aten.lt.Tensor",
                         "aten.lt.Scalar", "aten.le.Tensor", "aten.le.Scalar", "aten.gt.Tensor", "aten.gt.Scalar",
                         "aten.ge.Tensor", "aten.ge.Scalar", "aten.detach.default", "aten.bernoulli_.float", "aten.scalar_tensor.default", "aten.rand.default", "aten.randn.default", "aten.randperm.default",
                         "aten.rand_like.default", "aten.randn_like.default"})
    registerNonDifferentiable(op);
}

void setBroadcast(GradContext& c, size_t pos, const Tensor& grad) {
  if (c.needs(pos)) c.set(pos, castLike(sumToSize(grad, c.sizes(pos)), c.tensor(pos)));
}

Tensor zerosLike(const Tensor& t) { return frontend::callOp1("aten.zeros_like.default", {t}); }

bool sameSizes(const SymValues& a, const SymValues& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!a[i].sym().identical(b[i].sym())) return false;
  return true;
}

Tensor sumToSize(const Tensor& grad, const SymValues& sizes) {
  const SymValues gs = grad.sizes();
  if (sameSizes(gs, sizes)) return grad;
  const size_t lead = gs.size() - sizes.size();
  IntList dims;
  for (size_t i = 0; i < lead; ++i) dims.push_back(static_cast<int64_t>(i));
  for (size_t i = 0; i < sizes.size(); ++i) {
    const auto& want = sizes[i].sym();
    const auto& have = gs[i + lead].sym();
    if (!want.isSymbolic() && want.hint() == 1 && !(have.maybeConcrete() == std::optional<int64_t>(1)))
      dims.push_back(static_cast<int64_t>(i + lead));
  }
  Tensor r = dims.empty() ? grad : frontend::sum(grad, dims, true);
  return lead > 0 ? frontend::view(r, sizes) : r;
}

Tensor castLike(const Tensor& grad, const Tensor& like) {
  if (!grad.defined() || grad.dtype() == like.dtype()) return grad;
  return frontend::to(grad, like.dtype());
}

}  // namespace fathom::autograd
