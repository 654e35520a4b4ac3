// Reflection and replication padding of the last 1, 2 or 3 dims, and their backward ops:
//   reflection_pad{1,2,3}d, replication_pad{1,2,3}d (self, padding) and X_backward(grad, self, padding).
//
// padding lists (left, right) for the last dim, then (top, bottom), then (front, back); negative
// pads crop. Output element j of a padded dim of size n reads input element i = j - left,
// reflected into [0, n) (i < 0: -i; i >= n: 2(n - 1) - i) or clamped to it (replication), as
// ATen's loops compute it. Inputs are unbatched (1 + d dims) or batched (2 + d); results are fresh
// contiguous tensors, whatever the input's layout (1.13). The backward ops add each gradient
// element into the input element it was read from, in the output's row-major order (ATen's
// order, so float sums round alike), into zeros of self's sizes and dtype.
#include <string>
#include <vector>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/Loops.h"
#include "engine/ops/families/NnFamilies.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/layout/ContiguousOutput.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

struct PadOp {
  int dims;      // padded trailing dims: 1, 2 or 3
  bool reflect;  // else replicate
};

std::string rankMessage(const PadOp& op, const TensorMeta& self) {
  const std::string lo = std::to_string(op.dims + 1), hi = std::to_string(op.dims + 2);
  if (op.reflect)  // 1.13 says "3D or 4D" for reflection_pad3d too
    return (op.dims == 1 ? "2D or 3D" : "3D or 4D") + std::string(" (batch mode) tensor expected for input, but got: ") +
           sizesStr(self.sizes);
  return "Expected " + lo + "D or " + hi + "D (batch mode) tensor with possibly 0 batch size and other non-zero "
         "dimensions for input, but got: " + sizesStr(self.sizes);
}

// Checks self and padding; the padded output's sizes.
SymIntList paddedSizes(const PadOp& op, const TensorMeta& self, const IntList& pad) {
  const int64_t rank = self.dim();
  FATHOM_CHECK(static_cast<int>(pad.size()) == 2 * op.dims, "padding size is expected to be ", 2 * op.dims);
  bool valid = rank == op.dims + 1 || rank == op.dims + 2;
  for (int64_t d = 1; valid && d < rank; ++d) valid = !symEq(self.sizes[d], 0, "pad: empty dim");
  // Unbatched replication also needs a non-empty first dim.
  if (valid && !op.reflect && rank == op.dims + 1) valid = !symEq(self.sizes[0], 0, "pad: empty dim");
  FATHOM_CHECK(valid, rankMessage(op, self));
  SymIntList sizes = self.sizes;
  bool anyPositive = false;
  for (int k = 0; k < op.dims; ++k) {  // k = 0: the last dim (W), then H, then D
    const int64_t dim = rank - 1 - k, l = pad[2 * k], r = pad[2 * k + 1];
    const SymInt n = self.sizes[dim];
    FATHOM_CHECK(!op.reflect || (symLt(SymInt(l), n, "reflection pad fits") && symLt(SymInt(r), n, "reflection pad fits")),
                 "Argument #", 4 + 2 * k, ": Padding size should be less than the corresponding input dimension, but got: "
                 "padding (", l, ", ", r, ") at dimension ", dim, " of input ", sizesStr(self.sizes));
    sizes[dim] = n + SymInt(l + r);
    anyPositive = anyPositive || symLt(SymInt(0), sizes[dim], "pad: output not empty");
  }
  FATHOM_CHECK(anyPositive, "input is too small. Calculated output sizes: ", sizesStr(sizes));
  for (const auto& s : sizes)
    FATHOM_CHECK(!symLt(s, 0, "pad: negative size"), "Trying to create tensor with negative dimension ", s.str(), ": ",
                 sizesStr(sizes));
  return sizes;
}

// For each output index along a padded dim, the input index it reads.
std::vector<int64_t> sourceIndices(const PadOp& op, int64_t n, int64_t left, int64_t outSize) {
  std::vector<int64_t> src(static_cast<size_t>(std::max<int64_t>(outSize, 0)));
  for (int64_t j = 0; j < outSize; ++j) {
    int64_t i = j - left;
    if (op.reflect) i = i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i);
    else i = i < 0 ? 0 : (i >= n ? n - 1 : i);
    src[static_cast<size_t>(j)] = i;
  }
  return src;
}

// Calls fn(outOffset, inOffset) (in elements) for every output element in row-major order:
// unpadded dims read their own coordinate, padded ones their source index.
template <class Fn>
void forEachPadded(const PadOp& op, const IntList& inSizes, const IntList& inStrides, const IntList& pad, Fn&& fn) {
  const size_t rank = inSizes.size();
  IntList outSizes = inSizes;
  std::vector<std::vector<int64_t>> src(rank);
  for (int k = 0; k < op.dims; ++k) {
    const size_t d = rank - 1 - static_cast<size_t>(k);
    outSizes[d] = inSizes[d] + pad[2 * k] + pad[2 * k + 1];
    src[d] = sourceIndices(op, inSizes[d], pad[2 * k], outSizes[d]);
  }
  int64_t total = 1;
  for (int64_t s : outSizes) total *= s;
  IntList index(rank, 0);
  for (int64_t o = 0; o < total; ++o) {
    int64_t in = 0;
    for (size_t d = 0; d < rank; ++d) in += (src[d].empty() ? index[d] : src[d][static_cast<size_t>(index[d])]) * inStrides[d];
    fn(o, in);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < outSizes[d]) break;
      index[d] = 0;
    }
  }
}

ValueList padKernel(const PadOp& op, const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  const IntList pad = toIntList(args.at(1));
  Tensor out = allocateTensor(contiguousOutput(self.meta(), paddedSizes(op, self.meta(), pad)));
  dispatchDType(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = reinterpret_cast<const T*>(bytePtr(self));
    T* o = out.dataAs<T>();
    forEachPadded(op, self.sizes(), self.strides(), pad, [&](int64_t k, int64_t i) { o[k] = in[i]; });
  });
  return {out};
}

// X_backward(grad_output, self, padding): the gradient must have the padded sizes.
TensorMeta padBackwardLayout(const PadOp& op, const ValueList& margs) {
  const TensorMeta &grad = metaArg(margs, 0), &self = metaArg(margs, 1);
  const SymIntList sizes = paddedSizes(op, self, toIntList(margs.at(2)));
  static constexpr const char* kNames[] = {"width", "height", "depth"};
  for (int k = 0; k < op.dims; ++k) {
    const int64_t dim = self.dim() - 1 - k;
    FATHOM_CHECK(grad.dim() == self.dim() && symEq(grad.sizes[dim], sizes[dim], "pad backward: gradient size"),
                 "grad_output ", kNames[k], " unexpected. Expected: ", sizes[dim].str(), ", Got: ",
                 grad.dim() == self.dim() ? grad.sizes[dim].str() : sizesStr(grad.sizes));
  }
  for (int64_t d = 0; d + op.dims < self.dim(); ++d)
    FATHOM_CHECK(symEq(grad.sizes[d], self.sizes[d], "pad backward: gradient size"), "grad_output sizes ",
                 sizesStr(grad.sizes), " do not match the padded input ", sizesStr(sizes));
  return contiguousOutput(self, self.sizes);
}

ValueList padBackwardKernel(const PadOp& op, const ValueList& args) {
  const Tensor &grad = tensorArg(args, 0), &self = tensorArg(args, 1);
  Tensor out = allocateTensor(padBackwardLayout(op, metaArgs(args)));
  Tensor contiguous = allocateTensor(contiguousOutput(self.meta(), grad.meta().sizes));  // row-major reads
  copyInto(contiguous, grad);
  dispatchDType(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* go = contiguous.dataAs<T>();
    T* gi = out.dataAs<T>();
    forEachPadded(op, self.sizes(), out.strides(), toIntList(args.at(2)),
                  [&](int64_t k, int64_t i) { gi[i] = T(OpMath<T>(gi[i]) + OpMath<T>(go[k])); });
  });
  return {out};
}

void addPad(OpRegistry& r, const std::string& name, const PadOp& op) {
  const std::string n = std::to_string(2 * op.dims);
  (void)r.add(("aten::" + name + "(Tensor self, int[" + n + "] padding) -> Tensor").c_str(),
              [op](const ValueList& a) {
                return ValueList{contiguousOutput(metaArg(a, 0), paddedSizes(op, metaArg(a, 0), toIntList(a.at(1))))};
              },
              [op](const ValueList& a) { return padKernel(op, a); });
  (void)r.add(("aten::" + name + "_backward(Tensor grad_output, Tensor self, int[" + n + "] padding) -> Tensor").c_str(),
              [op](const ValueList& a) { return ValueList{padBackwardLayout(op, a)}; },
              [op](const ValueList& a) { return padBackwardKernel(op, a); });
}

}  // namespace

void registerPaddingOps(OpRegistry& registry) {
  for (int dims : {1, 2, 3}) {
    addPad(registry, "reflection_pad" + std::to_string(dims) + "d", {dims, true});
    addPad(registry, "replication_pad" + std::to_string(dims) + "d", {dims, false});
  }
}

}  // namespace fathom
