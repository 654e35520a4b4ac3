// Pairwise distances: _cdist_forward, _cdist_backward, _pdist_forward, _pdist_backward, as
// PyTorch 1.13 computes them (Distance.cpp; the loops in ../cpu/DistanceKernel.h).
//
// _cdist_forward(x1 [..., r1, c], x2 [..., r2, c], p, compute_mode) -> [batch..., r1, r2], the
// batch dims broadcast; a fresh contiguous tensor of x1's dtype. Empty when r1, r2 or the batch
// is 0, zeros when c is 0. For p = 2 with compute_mode 1, or with the default mode (None or 0)
// when r1 or r2 exceeds 25, 1.13 switches to the matmul form (../cpu/EuclideanDist.h), which
// rounds differently (a distance of 0 may come out as a small positive number). Only that form
// runs for bfloat16; float16 has neither.
// _cdist_backward(grad, x1, x2, p, cdist) -> x1's gradient [batch..., r1, c] (contiguous;
// zeros_like(x1) when anything is empty); the broadcast batch is left for autograd to sum.
// _pdist_forward(self [n, m], p) -> [n (n - 1) / 2] (empty for n <= 1, zeros for m = 0); self
// must be contiguous. _pdist_backward(grad, self, p, pdist) -> [n, m].
// 1.13 reads out of bounds when the backward ops get a grad, cdist or pdist of the wrong size or
// x2 of other columns, and crashes on _pdist_backward of 0 rows: Fathom checks the sizes and
// returns zeros for 0 rows.
#include <cmath>
#include <optional>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/DistanceKernel.h"
#include "engine/ops/cpu/EuclideanDist.h"
#include "engine/ops/families/NnFamilies.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/layout/ContiguousOutput.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

SymIntList batchOf(const TensorMeta& t) { return SymIntList(t.sizes.begin(), t.sizes.end() - 2); }
SymIntList withLast2(SymIntList batch, const SymInt& a, const SymInt& b) {
  batch.push_back(a);
  batch.push_back(b);
  return batch;
}

// size(-2) of a tensor of fewer than 2 dims, as PyTorch refuses it.
void checkMatrix(const TensorMeta& t) {
  FATHOM_CHECK(t.dim() > 0, "Dimension specified as -1 but tensor has no dimensions");
  FATHOM_CHECK(t.dim() >= 2, "Dimension out of range (expected to be in range of [-1, 0], but got -2)");
}

int64_t computeMode(const ValueList& args) { return args.at(3).isNone() ? 0 : intArg(args, 3); }

TensorMeta cdistLayout(const ValueList& margs) {
  const TensorMeta &x1 = metaArg(margs, 0), &x2 = metaArg(margs, 1);
  FATHOM_CHECK(x1.dim() >= 2, "cdist only supports at least 2D tensors, X1 got: ", x1.dim(), "D");
  FATHOM_CHECK(x2.dim() >= 2, "cdist only supports at least 2D tensors, X2 got: ", x2.dim(), "D");
  FATHOM_CHECK(symEq(x1.sizes.back(), x2.sizes.back(), "cdist: same columns"),
               "X1 and X2 must have the same number of columns. X1: ", x1.sizes.back().str(),
               " X2: ", x2.sizes.back().str());
  FATHOM_CHECK(isFloating(x1.dtype), "cdist only supports floating-point dtypes, X1 got: ", scalarTypeName(x1.dtype));
  FATHOM_CHECK(isFloating(x2.dtype), "cdist only supports floating-point dtypes, X2 got: ", scalarTypeName(x2.dtype));
  FATHOM_CHECK(margs.at(2).toDouble() >= 0, "cdist only supports non-negative p values");  // NaN too
  const int64_t mode = computeMode(margs);
  FATHOM_CHECK(mode >= 0 && mode <= 2, "possible modes: 0, 1, 2, but was: ", mode);
  const SymIntList batch = broadcastShapes(batchOf(x1), batchOf(x2));
  return contiguousOutput(x1, withLast2(batch, x1.sizes[x1.dim() - 2], x2.sizes[x2.dim() - 2]));
}

// x expanded to `batch` + its last two dims and made contiguous, viewed as [B, rows, cols]
// (ATen's x.expand(...).contiguous().view({B, rows, cols})).
Tensor expandedContiguous(const Tensor& x, const IntList& batch) {
  IntList sizes = batch;
  const int64_t rows = x.size(x.dim() - 2), cols = x.size(x.dim() - 1);
  int64_t count = 1;
  for (int64_t s : batch) count *= s;
  sizes.insert(sizes.end(), {rows, cols});
  Tensor dst = allocateTensor(contiguousOutput(x.meta(), SymIntList(sizes.begin(), sizes.end())));
  copyInto(dst, x);
  return *dst.asStrided({count, rows, cols}, {rows * cols, cols, 1}, 0);
}

// x's last two dims as a [1, rows, cols] view (the matmul form's inputs when nothing broadcasts).
Tensor asOneBatch(const Tensor& x) {
  const int64_t d = x.dim();
  return *x.asStrided({1, x.size(d - 2), x.size(d - 1)}, {0, x.stride(d - 2), x.stride(d - 1)}, x.storageOffset());
}

// A contiguous tensor viewed as [B, rows, cols].
Tensor as3d(const Tensor& t, int64_t batch, int64_t rows, int64_t cols) {
  return *t.asStrided({batch, rows, cols}, {rows * cols, cols, 1}, t.storageOffset());
}

void checkSameDtype(DType expected, const Tensor& t) {
  FATHOM_CHECK(t.dtype() == expected, "expected scalar type ", scalarTypeName(expected), " but found ",
               scalarTypeName(t.dtype()));
}

ValueList cdistKernel(const ValueList& args) {
  Tensor out = allocateTensor(cdistLayout(metaArgs(args)));
  const Tensor &x1 = tensorArg(args, 0), &x2 = tensorArg(args, 1);
  const double p = args.at(2).toDouble();
  const int64_t r1 = x1.size(x1.dim() - 2), r2 = x2.size(x2.dim() - 2), c = x1.size(x1.dim() - 1);
  if (out.numel() == 0 || c == 0) return {out};  // empty, or zeros (the allocation is zeroed)
  const IntList batch(out.sizes().begin(), out.sizes().end() - 2);
  const int64_t count = out.numel() / (r1 * r2);
  const Tensor out3 = as3d(out, count, r1, r2);
  const int64_t mode = computeMode(args);
  if (p == 2 && (mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25)))) {
    // _euclidean_dist on the inputs themselves when nothing broadcasts, else on expanded copies;
    // matmul folds a 2-d x2 into one mm, other shapes go through bmm.
    const bool mm = count == 1 && x2.dim() == 2;
    FATHOM_CHECK(x1.dtype() != DType::Float16, "\"", mm || (r1 * r2 * (c + 2) >= 400) ? "addmm_impl_cpu_" : "bmm",
                 "\" not implemented for 'Half'");
    checkSameDtype(x1.dtype(), x2);
    if (count == 1) euclideanDist(asOneBatch(x1), asOneBatch(x2), mm, out3);
    else euclideanDist(expandedContiguous(x1, batch), expandedContiguous(x2, batch), false, out3);
    return {out};
  }
  FATHOM_CHECK(x1.dtype() == DType::Float32 || x1.dtype() == DType::Float64, "\"cdist\" not implemented for '",
               scalarTypeName(x1.dtype()), "'");
  checkSameDtype(x1.dtype(), x2);
  cdistDirect(expandedContiguous(x1, batch), expandedContiguous(x2, batch), p, out3);
  return {out};
}

// _cdist_backward's result: zeros_like(x1) when anything is empty, else x1's gradient with the
// broadcast batch. grad and cdist must be [batch, r1, r2], x2 of x1's columns (1.13 does not
// check, and reads out of bounds).
TensorMeta cdistBackwardLayout(const ValueList& margs) {
  const TensorMeta &grad = metaArg(margs, 0), &x1 = metaArg(margs, 1), &x2 = metaArg(margs, 2),
                   &dist = metaArg(margs, 4);
  checkMatrix(x1);
  checkMatrix(x2);
  const SymInt r1 = x1.sizes[x1.dim() - 2], c1 = x1.sizes.back(), r2 = x2.sizes[x2.dim() - 2];
  const SymIntList batch = broadcastShapes(batchOf(x1), batchOf(x2));
  SymInt count = 1;
  for (const SymInt& s : batch) count *= s;
  if (symEq(r1, 0, "cdist_backward: empty") || symEq(r2, 0, "cdist_backward: empty") ||
      symEq(c1, 0, "cdist_backward: empty") || symEq(count, 0, "cdist_backward: empty"))
    return freshLike(x1, x1.dtype, likeStrides(x1, std::nullopt));
  FATHOM_CHECK(symEq(x2.sizes.back(), c1, "cdist_backward: same columns"),
               "_cdist_backward: X1 and X2 must have the same number of columns. X1: ", c1.str(),
               " X2: ", x2.sizes.back().str());
  const SymIntList pairs = withLast2(batch, r1, r2);
  for (const TensorMeta* t : {&grad, &dist})
    FATHOM_CHECK(symEq(t->numel(), count * r1 * r2, "cdist_backward: one value per pair"),
                 "_cdist_backward: ", t == &grad ? "grad" : "cdist", " must have the result's shape ",
                 sizesStr(pairs), ", got ", sizesStr(t->sizes));
  return contiguousOutput(x1, withLast2(batch, r1, c1));
}

ValueList cdistBackwardKernel(const ValueList& args) {
  Tensor out = allocateTensor(cdistBackwardLayout(metaArgs(args)));
  const Tensor &grad = tensorArg(args, 0), &x1 = tensorArg(args, 1), &x2 = tensorArg(args, 2),
               &dist = tensorArg(args, 4);
  const int64_t r1 = x1.size(x1.dim() - 2), r2 = x2.size(x2.dim() - 2), c = x1.size(x1.dim() - 1);
  int64_t count = 1;
  for (const SymInt& s : broadcastShapes(batchOf(x1.meta()), batchOf(x2.meta()))) count *= s.hint();
  if (r1 == 0 || r2 == 0 || c == 0 || count == 0) return {out};  // zeros_like(x1)
  const DType dtype = x1.dtype();
  FATHOM_CHECK(dtype == DType::Float32 || dtype == DType::Float64, "\"cdist_backward\" not implemented for '",
               scalarTypeName(dtype), "'");
  for (const Tensor* t : {&grad, &dist, &x2}) checkSameDtype(dtype, *t);
  const IntList batch(out.sizes().begin(), out.sizes().end() - 2);
  cdistBackward(as3d(contiguousOf(grad), count, r1, r2), expandedContiguous(x1, batch),
                expandedContiguous(x2, batch), args.at(3).toDouble(), as3d(contiguousOf(dist), count, r1, r2),
                as3d(out, count, r1, c));
  return {out};
}

TensorMeta pdistLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  FATHOM_CHECK(isContiguous(self), "_pdist_forward requires contiguous input");
  FATHOM_CHECK(self.dim() > 0, "Dimension specified as 0 but tensor has no dimensions");
  const SymInt n = self.sizes[0];
  if (symLt(n, 2, "pdist: fewer than two rows")) return contiguousOutput(self, {0});
  FATHOM_CHECK(self.dim() >= 2, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  FATHOM_CHECK(self.dim() == 2, "pdist only supports 2D tensors, got: ", self.dim(), "D");
  return contiguousOutput(self, {floorDiv(n * (n - 1), 2)});
}

ValueList pdistKernel(const ValueList& args) {
  Tensor out = allocateTensor(pdistLayout(metaArgs(args)));
  const Tensor& self = tensorArg(args, 0);
  if (out.numel() == 0 || self.size(1) == 0) return {out};  // empty, or zeros
  pdistDirect(self, args.at(1).toDouble(), out);
  return {out};
}

// _pdist_backward: empty_like(self) (contiguous, as self must be). For two rows or more, self
// must be 2-d and grad (1-d, any stride) and pdist hold one value per pair.
TensorMeta pdistBackwardLayout(const ValueList& margs) {
  const TensorMeta &grad = metaArg(margs, 0), &self = metaArg(margs, 1), &dist = metaArg(margs, 3);
  FATHOM_CHECK(isContiguous(self), "_pdist_backward requires self to be contiguous");
  FATHOM_CHECK(isContiguous(dist), "_pdist_backward requires pdist to be contiguous");
  FATHOM_CHECK(self.dim() > 0, "Dimension specified as 0 but tensor has no dimensions");
  const SymInt n = self.sizes[0];
  if (!symLt(n, 2, "pdist_backward: fewer than two rows")) {
    FATHOM_CHECK(self.dim() >= 2, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    FATHOM_CHECK(self.dim() == 2, "pdist only supports 2D tensors, got: ", self.dim(), "D");
    const SymInt pairs = floorDiv(n * (n - 1), 2);
    FATHOM_CHECK(grad.dim() == 1 && symEq(grad.sizes[0], pairs, "pdist_backward: grad per pair"),
                 "_pdist_backward: grad must be [", pairs.str(), "] (one value per pair), got ", sizesStr(grad.sizes));
    FATHOM_CHECK(symEq(dist.numel(), pairs, "pdist_backward: pdist per pair"),
                 "_pdist_backward: pdist must hold ", pairs.str(), " values (one per pair), got ", sizesStr(dist.sizes));
  }
  return contiguousOutput(self, self.sizes);
}

ValueList pdistBackwardKernel(const ValueList& args) {
  Tensor out = allocateTensor(pdistBackwardLayout(metaArgs(args)));
  const Tensor &grad = tensorArg(args, 0), &self = tensorArg(args, 1), &dist = tensorArg(args, 3);
  const DType dtype = self.dtype();
  FATHOM_CHECK(dtype == DType::Float32 || dtype == DType::Float64, "\"pdist_backward\" not implemented for '",
               scalarTypeName(dtype), "'");
  checkSameDtype(dtype, grad);
  checkSameDtype(dtype, dist);
  if (self.size(0) < 2 || self.size(1) == 0) return {out};  // zeros
  pdistBackward(grad, self, args.at(2).toDouble(), dist, out);
  return {out};
}

}  // namespace

void registerDistanceOps(OpRegistry& registry) {
  (void)registry.add("aten::_cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor",
                     [](const ValueList& args) { return ValueList{cdistLayout(args)}; }, cdistKernel);
  (void)registry.add("aten::_cdist_backward(Tensor grad, Tensor x1, Tensor x2, float p, Tensor cdist) -> Tensor",
                     [](const ValueList& args) { return ValueList{cdistBackwardLayout(args)}; }, cdistBackwardKernel);
  (void)registry.add("aten::_pdist_forward(Tensor self, float p=2) -> Tensor",
                     [](const ValueList& args) { return ValueList{pdistLayout(args)}; }, pdistKernel);
  (void)registry.add("aten::_pdist_backward(Tensor grad, Tensor self, float p, Tensor pdist) -> Tensor",
                     [](const ValueList& args) { return ValueList{pdistBackwardLayout(args)}; }, pdistBackwardKernel);
}

}  // namespace fathom
