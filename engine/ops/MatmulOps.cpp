// Matrix products: mm, addmm (beta * self + alpha * mat1 @ mat2), bmm.
//
// Layout: a fresh contiguous output, as ATen's meta functions allocate it; dtype: mm and bmm
// keep the operands' dtype (which must agree), addmm takes self's. addmm broadcasts self to the
// output shape with expand's rules. The work goes through gemm() (OpenBLAS for f32/f64).
#include "engine/core/Error.h"
#include "engine/ops/Broadcast.h"
#include "engine/ops/Copy.h"
#include "engine/ops/Gemm.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

TensorMeta contiguousOutput(const TensorMeta& like, DType dtype, SymIntList sizes) {
  TensorMeta out;
  out.dtype = dtype;
  out.device = like.device;
  out.strides = contiguousStrides(sizes);
  out.sizes = std::move(sizes);
  return out;
}

void checkSameDtype(const TensorMeta& a, const TensorMeta& b) {
  FATHOM_CHECK(a.dtype == b.dtype, "expected mat1 and mat2 to have the same dtype, but got: ", dtypeName(a.dtype),
               " != ", dtypeName(b.dtype));
}

// ATen's mm/addmm shape rule: (n x m) @ (m x p) -> (n x p).
SymIntList mmSizes(const TensorMeta& m1, const TensorMeta& m2, const char* n1, const char* n2) {
  FATHOM_CHECK(m1.dim() == 2, n1, " must be a matrix, got ", m1.dim(), "-D tensor");
  FATHOM_CHECK(m2.dim() == 2, n2, " must be a matrix, got ", m2.dim(), "-D tensor");
  FATHOM_CHECK(symEq(m1.sizes[1], m2.sizes[0], "mm: inner dimensions match"),
               "mat1 and mat2 shapes cannot be multiplied (", m1.sizes[0].str(), "x", m1.sizes[1].str(), " and ",
               m2.sizes[0].str(), "x", m2.sizes[1].str(), ")");
  checkSameDtype(m1, m2);
  return {m1.sizes[0], m2.sizes[1]};
}

TensorMeta mmLayout(const ValueList& margs) {
  const TensorMeta &a = metaArg(margs, 0), &b = metaArg(margs, 1);
  return contiguousOutput(a, a.dtype, mmSizes(a, b, "self", "mat2"));
}

TensorMeta addmmLayout(const ValueList& margs) {
  const TensorMeta &self = metaArg(margs, 0), &a = metaArg(margs, 1), &b = metaArg(margs, 2);
  SymIntList sizes = mmSizes(a, b, "mat1", "mat2");
  FATHOM_CHECK(self.dtype == a.dtype, "expected self and mat1 to have the same dtype, but got: ",
               dtypeName(self.dtype), " != ", dtypeName(a.dtype));
  (void)expandGeometry(self, sizes);  // self must broadcast to the output (ATen's expand_size)
  return contiguousOutput(self, self.dtype, std::move(sizes));
}

// ATen's bmm checks: [b, n, m] @ [b, m, p] -> [b, n, p].
TensorMeta bmmLayout(const ValueList& margs) {
  const TensorMeta &a = metaArg(margs, 0), &b = metaArg(margs, 1);
  FATHOM_CHECK(a.dim() == 3, "batch1 must be a 3D tensor");
  FATHOM_CHECK(b.dim() == 3, "batch2 must be a 3D tensor");
  FATHOM_CHECK(symEq(b.sizes[0], a.sizes[0], "bmm: batch sizes match") &&
                   symEq(b.sizes[1], a.sizes[2], "bmm: inner dimensions match"),
               "Expected size for first two dimensions of batch2 tensor to be: [", a.sizes[0].str(), ", ",
               a.sizes[2].str(), "] but got: [", b.sizes[0].str(), ", ", b.sizes[1].str(), "].");
  checkSameDtype(a, b);
  return contiguousOutput(b, b.dtype, {a.sizes[0], a.sizes[1], b.sizes[2]});
}

// The 2-d matrix at batch index `batch` (dims 1 and 2 of a 3-d tensor, or the tensor itself).
MatrixView matrixOf(const Tensor& t, int64_t batch = 0) {
  const int64_t d = t.dim() - 2;
  auto* base = static_cast<std::byte*>(t.data()) +
               (d > 0 ? batch * t.stride(0) * static_cast<int64_t>(elementSize(t.dtype())) : 0);
  return MatrixView{base, t.size(d), t.size(d + 1), t.stride(d), t.stride(d + 1)};
}

ValueList mmKernel(const ValueList& args) {
  Tensor out = allocateTensor(mmLayout(metaArgs(args)));
  const Tensor &a = tensorArg(args, 0), &b = tensorArg(args, 1);
  gemm(out.dtype(), matrixOf(a), matrixOf(b), matrixOf(out), 1.0, 0.0);
  return {out};
}

ValueList addmmKernel(const ValueList& args) {
  const ValueList margs = metaArgs(args);
  Tensor out = allocateTensor(addmmLayout(margs));
  const Tensor &self = tensorArg(args, 0), &a = tensorArg(args, 1), &b = tensorArg(args, 2);
  const double beta = scalarArg(args.at(3)).real, alpha = scalarArg(args.at(4)).real;
  // beta == 0 ignores self entirely (NaN in it does not propagate), as ATen documents.
  if (beta != 0) copyInto(out, self);
  gemm(out.dtype(), matrixOf(a), matrixOf(b), matrixOf(out), alpha, beta);
  return {out};
}

ValueList bmmKernel(const ValueList& args) {
  Tensor out = allocateTensor(bmmLayout(metaArgs(args)));
  const Tensor &a = tensorArg(args, 0), &b = tensorArg(args, 1);
  for (int64_t i = 0; i < out.size(0); ++i)
    gemm(out.dtype(), matrixOf(a, i), matrixOf(b, i), matrixOf(out, i), 1.0, 0.0);
  return {out};
}

}  // namespace

void registerMatmulOps(OpRegistry& registry) {
  (void)registry.add("aten::mm(Tensor self, Tensor mat2) -> Tensor",
                     [](const ValueList& args) { return ValueList{mmLayout(args)}; }, mmKernel);
  (void)registry.add(
      "aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
      [](const ValueList& args) { return ValueList{addmmLayout(args)}; }, addmmKernel);
  (void)registry.add("aten::bmm(Tensor self, Tensor mat2) -> Tensor",
                     [](const ValueList& args) { return ValueList{bmmLayout(args)}; }, bmmKernel);
}

}  // namespace fathom
