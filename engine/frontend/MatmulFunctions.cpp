// Matrix-product frontend ops, decomposed as PyTorch 1.13's at::matmul and at::linear do (GCC
// evaluates call arguments right to left, so weight.t() is recorded before the input's view).
#include "engine/frontend/OpCall.h"
#include "engine/frontend/Functional.h"

namespace fathom::frontend {
namespace {

// Broadcast batch sizes (infer_size): the first operand's size unless it is 1.
SymValues broadcastBatch(const SymValues& a, const SymValues& b, const Loc& loc) {
  const size_t n = std::max(a.size(), b.size());
  SymValues out(n);
  for (size_t i = 0; i < n; ++i) {
    const bool hasA = i + a.size() >= n, hasB = i + b.size() >= n;
    const SymValue* sa = hasA ? &a[i + a.size() - n] : nullptr;
    const SymValue* sb = hasB ? &b[i + b.size() - n] : nullptr;
    if (!sa || (!sa->isSymbolic() && sa->hint() == 1)) {
      out[i] = sb ? *sb : *sa;
    } else {
      const bool bIsOne = sb && !sb->isSymbolic() && sb->hint() == 1;
      if (sb && !bIsOne && !symEq(sa->sym(), sb->sym(), "matmul: broadcast of batch dims"))
        fail("matmul: batch sizes " + sa->sym().str() + " and " + sb->sym().str() + " do not broadcast", loc);
      out[i] = *sa;
    }
  }
  return out;
}

SymValues concat(SymValues a, const SymValues& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}


// n-d @ 2-d: fold the batch into the rows of one mm.
Tensor foldedMatmul(const Tensor& a, const Tensor& b, const Loc& loc) {
  const SymValues sizesA = a.sizes(loc);
  SymValues outputShape(sizesA.begin(), sizesA.end() - 1);
  const SymValue folded = product(outputShape);
  outputShape.push_back(b.size(1, loc));
  const Tensor aFolded = reshape(a, {folded, sizesA.back()}, loc);
  return unsafeView(mm(aFolded, b, loc), outputShape, loc);
}

// n-d @ n-d: expand both to the broadcast batch, flatten it, bmm, and view the result back.
Tensor batchedMatmul(const Tensor& a, const Tensor& b, const Loc& loc) {
  const SymValues sizesA = a.sizes(loc), sizesB = b.sizes(loc);
  const SymValue n = sizesA[sizesA.size() - 2], m1 = sizesA.back();
  const SymValue m2 = sizesB[sizesB.size() - 2], p = sizesB.back();
  const SymValues batchA(sizesA.begin(), sizesA.end() - 2), batchB(sizesB.begin(), sizesB.end() - 2);
  const SymValues batch = broadcastBatch(batchA, batchB, loc);
  // In at::matmul's order, so symbolic size nodes appear where make_fx puts them.
  const Tensor aExpanded = expand(a, concat(batch, {n, m1}), loc);
  const SymValue batchProduct = product(batch);
  const Tensor a3 = reshape(aExpanded, {batchProduct, n, m1}, loc);
  const Tensor b3 = reshape(expand(b, concat(batch, {m2, p}), loc), {batchProduct, m2, p}, loc);
  return unsafeView(bmm(a3, b3, loc), concat(batch, {n, p}), loc);
}

}  // namespace

Tensor mm(const Tensor& a, const Tensor& b, Loc loc) { return callOp1("aten.mm.default", {a, b}, {}, loc); }
Tensor bmm(const Tensor& a, const Tensor& b, Loc loc) { return callOp1("aten.bmm.default", {a, b}, {}, loc); }
Tensor addmm(const Tensor& bias, const Tensor& a, const Tensor& b, Loc loc) {
  return callOp1("aten.addmm.default", {bias, a, b}, {}, loc);
}

Tensor matmul(const Tensor& a, const Tensor& b, Loc loc) {
  const int64_t da = a.dim(), db = b.dim();
  if (da == 2 && db == 2) return mm(a, b, loc);
  if (da >= 3 && db == 2) return foldedMatmul(a, b, loc);
  if (da >= 2 && db >= 2) return batchedMatmul(a, b, loc);
  fail("matmul of a " + std::to_string(da) + "-d and a " + std::to_string(db) +
           "-d tensor is not supported by the frontend (only 2-d and batched n-d operands)",
       loc);
}

Tensor linear(const Tensor& x, const Tensor& weight, const Tensor& bias, Loc loc) {
  if (x.dim() == 2 && bias.defined()) {
    const Tensor wt = t(weight, loc);
    return addmm(bias, x, wt, loc);
  }
  if (x.dim() == 3 && bias.defined() && x.isContiguous()) {
    // at::linear's fused path for contiguous 3-d input: one addmm over [batch * seq, in].
    const Tensor wt = t(weight, loc);
    const SymValue s0 = x.size(0, loc), s1 = x.size(1, loc);
    const SymValue rows = s0 * s1;
    const Tensor y = addmm(bias, view(x, {rows, x.size(2, loc)}, loc), wt, loc);
    return view(y, {s0, s1, y.size(1, loc)}, loc);
  }
  const Tensor out = matmul(x, t(weight, loc), loc);
  return bias.defined() ? add(out, bias, loc) : out;
}

}  // namespace fathom::frontend
