// Matrix products: mm, addmm (beta * self + alpha * mat1 @ mat2), bmm, baddbmm (the batched
// addmm).
//
// Layout: a fresh contiguous output, as ATen's meta functions allocate it. Dtype: mm and addmm
// take mat1's, bmm and baddbmm batch2's; the two matrix operands must agree (PyTorch 1.13's
// messages). addmm's self must have mat2's dtype; baddbmm's self may have any dtype: it is
// converted when copied into the output, as ATen's result.copy_(self) does. Both broadcast self
// to the output shape with expand's rules, and beta == 0 ignores self's values (NaN included).
// The work goes through gemm() (OpenBLAS for f32/f64, operands passed with transpose flags);
// batches run one gemm each, like ATen's CPU bmm, split over threads when there are enough.
#include "engine/core/Error.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/layout/ContiguousOutput.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/Gemm.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

// The dtype check ATen's CPU kernels make when reading `found` as `expected`'s element type.
void checkScalarType(const TensorMeta& expected, const TensorMeta& found) {
  FATHOM_CHECK(expected.dtype == found.dtype, "expected scalar type ", scalarTypeName(expected.dtype),
               " but found ", scalarTypeName(found.dtype));
}

void checkInnerSizes(const TensorMeta& m1, const TensorMeta& m2) {
  FATHOM_CHECK(symEq(m1.sizes[1], m2.sizes[0], "mm: inner dimensions match"),
               "mat1 and mat2 shapes cannot be multiplied (", m1.sizes[0].str(), "x", m1.sizes[1].str(), " and ",
               m2.sizes[0].str(), "x", m2.sizes[1].str(), ")");
}

TensorMeta mmLayout(const ValueList& margs) {
  const TensorMeta &a = metaArg(margs, 0), &b = metaArg(margs, 1);
  FATHOM_CHECK(a.dim() == 2, "self must be a matrix");
  FATHOM_CHECK(b.dim() == 2, "mat2 must be a matrix");
  checkInnerSizes(a, b);
  checkScalarType(a, b);
  return contiguousOutput(a, {a.sizes[0], b.sizes[1]});
}

// ATen's ADDMM_META, then addmm_out_cpu's expand_size of self and its mat1/mat2 dtype check.
TensorMeta addmmLayout(const ValueList& margs) {
  const TensorMeta &self = metaArg(margs, 0), &a = metaArg(margs, 1), &b = metaArg(margs, 2);
  FATHOM_CHECK(self.dtype == b.dtype, "self and mat2 must have the same dtype");
  FATHOM_CHECK(a.dim() == 2, "mat1 must be a matrix, got ", a.dim(), "-D tensor");
  FATHOM_CHECK(b.dim() == 2, "mat2 must be a matrix, got ", b.dim(), "-D tensor");
  checkInnerSizes(a, b);
  SymIntList sizes{a.sizes[0], b.sizes[1]};
  (void)expandGeometry(self, sizes);
  FATHOM_CHECK(a.dtype == b.dtype, "mat1 and mat2 must have the same dtype");
  return contiguousOutput(a, std::move(sizes));
}

// ATen's common_checks_baddbmm_bmm: [b, n, m] @ [b, m, p] -> [b, n, p], batch2's dtype.
TensorMeta bmmLayout(const TensorMeta& a, const TensorMeta& b) {
  FATHOM_CHECK(a.dim() == 3, "batch1 must be a 3D tensor");
  FATHOM_CHECK(b.dim() == 3, "batch2 must be a 3D tensor");
  FATHOM_CHECK(symEq(b.sizes[0], a.sizes[0], "bmm: batch sizes match") &&
                   symEq(b.sizes[1], a.sizes[2], "bmm: inner dimensions match"),
               "Expected size for first two dimensions of batch2 tensor to be: [", a.sizes[0].str(), ", ",
               a.sizes[2].str(), "] but got: [", b.sizes[0].str(), ", ", b.sizes[1].str(), "].");
  checkScalarType(a, b);
  return contiguousOutput(b, {a.sizes[0], a.sizes[1], b.sizes[2]});
}

// ATen's size(d) on a meta tensor: wrapDim's error for a bad dim, PyTorch's for a 0-dim tensor.
SymInt sizeAt(const TensorMeta& t, int64_t d) {
  FATHOM_CHECK(t.dim() > 0, "Dimension specified as ", d, " but tensor has no dimensions");
  return t.sizes[wrapDim(d, t.dim())];
}

TensorMeta baddbmmLayout(const ValueList& margs) {
  const TensorMeta &self = metaArg(margs, 0), &a = metaArg(margs, 1), &b = metaArg(margs, 2);
  // ATen expands self first (expand_size), before checking the batches' ranks.
  (void)expandGeometry(self, {sizeAt(a, 0), sizeAt(a, 1), sizeAt(b, 2)});
  return bmmLayout(a, b);
}

// The 2-d matrix at batch index `batch` (dims 1 and 2 of a 3-d tensor, or the tensor itself).
MatrixView matrixOf(const Tensor& t, int64_t batch = 0) {
  const int64_t d = t.dim() - 2;
  auto* base = static_cast<std::byte*>(t.data()) +
               (d > 0 ? batch * t.stride(0) * static_cast<int64_t>(elementSize(t.dtype())) : 0);
  return MatrixView{base, t.size(d), t.size(d + 1), t.stride(d), t.stride(d + 1)};
}

void checkGemmDtype(DType dtype, const char* kernel) {
  FATHOM_CHECK(dtype != DType::Bool, "\"", kernel, "\" not implemented for 'Bool'");
}

ValueList mmKernel(const ValueList& args) {
  Tensor out = allocateTensor(mmLayout(metaArgs(args)));
  checkGemmDtype(out.dtype(), "addmm_impl_cpu_");
  const Tensor &a = tensorArg(args, 0), &b = tensorArg(args, 1);
  gemm(out.dtype(), matrixOf(a), matrixOf(b), matrixOf(out), 1.0, 0.0);
  return {out};
}

ValueList addmmKernel(const ValueList& args) {
  Tensor out = allocateTensor(addmmLayout(metaArgs(args)));
  checkGemmDtype(out.dtype(), "addmm_impl_cpu_");
  const Tensor &self = tensorArg(args, 0), &a = tensorArg(args, 1), &b = tensorArg(args, 2);
  const double beta = scalarArg(args.at(3)).real, alpha = scalarArg(args.at(4)).real;
  if (beta != 0) copyInto(out, self);
  gemm(out.dtype(), matrixOf(a), matrixOf(b), matrixOf(out), alpha, beta);
  return {out};
}

// out[i] = alpha * a[i] @ b[i] + beta * out[i] for every batch i. Like ATen, products under 400
// multiply-adds per batch sum each element in one float loop (16-bit floats round once). The
// batches may run on several threads (gemmBatched).
void batchedGemm(const Tensor& a, const Tensor& b, const Tensor& out, double alpha, double beta) {
  const bool small = out.size(1) * out.size(2) * a.size(2) < 400;
  const auto reduced = small ? ReducedAccumulation::FloatSum : ReducedAccumulation::AtenGemm;
  gemmBatched(
      out.dtype(), out.size(0), [&](int64_t i) { return GemmProblem{matrixOf(a, i), matrixOf(b, i), matrixOf(out, i)}; },
      alpha, beta, reduced);
}

ValueList bmmKernel(const ValueList& args) {
  const ValueList margs = metaArgs(args);
  Tensor out = allocateTensor(bmmLayout(metaArg(margs, 0), metaArg(margs, 1)));
  checkGemmDtype(out.dtype(), "bmm");
  batchedGemm(tensorArg(args, 0), tensorArg(args, 1), out, 1.0, 0.0);
  return {out};
}

ValueList baddbmmKernel(const ValueList& args) {
  Tensor out = allocateTensor(baddbmmLayout(metaArgs(args)));
  checkGemmDtype(out.dtype(), "baddbmm");
  const double beta = scalarArg(args.at(3)).real, alpha = scalarArg(args.at(4)).real;
  if (beta != 0) copyInto(out, tensorArg(args, 0));
  batchedGemm(tensorArg(args, 1), tensorArg(args, 2), out, alpha, beta);
  return {out};
}

}  // namespace

void registerMatmulOps(OpRegistry& registry) {
  (void)registry.add("aten::mm(Tensor self, Tensor mat2) -> Tensor",
                     [](const ValueList& args) { return ValueList{mmLayout(args)}; }, mmKernel);
  (void)registry.add(
      "aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
      [](const ValueList& args) { return ValueList{addmmLayout(args)}; }, addmmKernel);
  (void)registry.add(
      "aten::bmm(Tensor self, Tensor mat2) -> Tensor",
      [](const ValueList& args) { return ValueList{bmmLayout(metaArg(args, 0), metaArg(args, 1))}; }, bmmKernel);
  (void)registry.add(
      "aten::baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
      [](const ValueList& args) { return ValueList{baddbmmLayout(args)}; }, baddbmmKernel);
}

}  // namespace fathom
