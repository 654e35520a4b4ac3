// Ops that write a value where a condition holds: fill.Scalar, masked_fill (.Scalar, .Tensor),
// tril, triu.
// None of them is a TensorIterator op in ATen, so their layouts are their own:
//   fill        = empty_like(self).fill_(value)             -> preserve_format strides
//   masked_fill = expand both, clone(contiguous), fill_     -> contiguous, broadcast shape
//   tril / triu = structured ops allocating a fresh output  -> contiguous
// Values are converted as Scalar::to<T>() does, overflow being an error (ScalarConvert.h).
#include <algorithm>

#include "engine/core/Error.h"
#include "engine/core/Parallel.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/MaskBytes.h"
#include "engine/ops/families/ElementwiseFamilies.h"
#include "engine/ops/families/ElementwiseOp.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/cpu/ScalarConvert.h"

namespace fathom {
namespace {

// ---- fill(Tensor self, Scalar value) ---------------------------------------------------------

TensorMeta fillLayout(const ValueList& args) {
  const TensorMeta& self = metaArg(args, 0);
  checkScalarFits(scalarArg(args.at(1)), self.dtype);
  return freshLike(self, self.dtype, likeStrides(self, std::nullopt));
}

// ---- masked_fill(Tensor self, Tensor mask, Scalar value), masked_fill.Tensor (a 0-dim value) --

// Operands in expand_outplace(mask, self) order, so a broadcast error names the mask "tensor a".
// The mask is read as bool whatever its dtype (see maskBytes).
ElementwiseOperands maskedFillOperands(const ValueList& margs) {
  const TensorMeta& mask = metaArg(margs, 1);
  ElementwiseOperand m{mask};
  if (mask.dtype != DType::Bool) m.meta = freshLike(mask, DType::Bool, likeStrides(mask, std::nullopt));
  m.fixedDtype = true;
  return {m, {metaArg(margs, 0)}};
}

// The value must fit self's dtype; masked_fill.Tensor's value is known to kernels only.
void checkMaskedFill(const ElementwiseOperands& ops, const ValueList& args) {
  const Value& value = args.at(2);
  if (value.is<TensorMeta>()) {
    const TensorMeta& v = value.as<TensorMeta>();
    FATHOM_CHECK(v.dim() == 0, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ", v.dim(),
                 " dimension(s).");
    return;
  }
  checkScalarFits(scalarArg(value), ops[1].meta.dtype);
}

auto makeMaskedFill() {
  return [](auto tag, const ValueList& args) {
    using T = typename decltype(tag)::type;
    using C = OpMath<T>;
    const C value = C(checkedScalarTo<T>(scalarArg(args.at(2))));
    return [value](bool mask, C x) -> C { return mask ? value : x; };
  };
}

// The value as a Python number (masked_fill.Tensor: value.item()).
Value numberValue(const ScalarArg& s) {
  if (s.isBool()) return Value(s.integer != 0);
  if (s.isFloating()) return Value(s.real);
  return Value(s.integer);
}

void addMaskedFill(OpRegistry& r, const char* schema) {
  const std::array<size_t, 2> positions{1, 0};
  const ElementwiseRule rule{.promotion = ElementwisePromotion::SameDtype, .check = checkMaskedFill,
                             .operands = maskedFillOperands, .outputStrides = OutputStrides::Contiguous};
  OpFn meta = [=](const ValueList& args) { return ValueList{elementwiseLayoutOf(args, args, positions, rule).output}; };
  OpFn kernel = [=](const ValueList& given) {
    ValueList args = given;
    const Tensor& mask = tensorArg(given, 1);
    if (mask.dtype() != DType::Bool) args[1] = maskBytes(mask);
    if (given.at(2).is<Tensor>()) {
      (void)checkMaskedFill({}, metaArgs(given));  // a 0-dim value
      args[2] = numberValue(itemOf(tensorArg(given, 2)));
    }
    const ElementwiseLayout layout = elementwiseLayoutOf(metaArgs(args), args, positions, rule);
    return ValueList{runElementwise<2>(layout, inputsOf(args, positions), [&](auto tag) { return makeMaskedFill()(tag, args); })};
  };
  (void)r.add(schema, std::move(meta), std::move(kernel));
}

// ---- tril / triu(Tensor self, int diagonal=0) ------------------------------------------------

TensorMeta triangleLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  // A matrix or a batch of them; the errors are self.size(-2)'s.
  FATHOM_CHECK(self.dim() > 0, "Dimension specified as -2 but tensor has no dimensions");
  (void)wrapDim(-2, self.dim());
  return freshLike(self, self.dtype, contiguousStrides(self.sizes));
}

// out[..., i, j] = self[..., i, j] where (j - i <= k) for tril, (j - i >= k) for triu, else 0.
template <bool Lower>
ValueList triangleKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  const int64_t k = intArg(args, 1);
  Tensor out = allocateTensor(triangleLayout(metaArgs(args)));  // zero-filled
  const int64_t nd = self.dim(), rows = self.size(nd - 2), cols = self.size(nd - 1);
  if (out.numel() == 0) return {out};
  const int64_t rowStride = self.stride(nd - 2), colStride = self.stride(nd - 1);
  const int64_t matrices = out.numel() / (rows * cols);
  const int64_t shift = std::clamp<int64_t>(k, -rows - 1, cols + 1);  // same rows kept; i + shift cannot overflow
  dispatchDType(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* dst = out.dataAs<T>();
    const T* src = self.dataAs<T>();
    // One task per matrix row; rows of a batch are numbered through.
    parallelFor(matrices * rows, std::max<int64_t>(1, 32768 / std::max<int64_t>(cols, 1)), [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const int64_t m = r / rows, i = r % rows;
        int64_t offset = 0;  // element offset of matrix m in self
        for (int64_t d = nd - 3, rest = m; d >= 0; --d) {
          offset += (rest % self.size(d)) * self.stride(d);
          rest /= self.size(d);
        }
        const T* in = src + offset + i * rowStride;
        T* o = dst + r * cols;
        // tril keeps j <= i + k, triu keeps j >= i + k (clamped to the row).
        const int64_t first = Lower ? 0 : std::clamp<int64_t>(i + shift, 0, cols);
        const int64_t last = Lower ? std::clamp<int64_t>(i + shift + 1, 0, cols) : cols;
        for (int64_t j = first; j < last; ++j) o[j] = in[j * colStride];
      }
    });
  });
  return {out};
}

}  // namespace

void registerFillOps(OpRegistry& r) {
  (void)r.add(
      "aten::fill.Scalar(Tensor self, Scalar value) -> Tensor",
      [](const ValueList& args) { return ValueList{fillLayout(args)}; },
      [](const ValueList& args) {
        Tensor out = allocateTensor(fillLayout(metaArgs(args)));
        fillWith(out, scalarArg(args.at(1)));
        return ValueList{out};
      });
  addMaskedFill(r, "aten::masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor");
  addMaskedFill(r, "aten::masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor");
  (void)r.add(
      "aten::tril(Tensor self, int diagonal=0) -> Tensor",
      [](const ValueList& args) { return ValueList{triangleLayout(args)}; }, triangleKernel<true>);
  (void)r.add(
      "aten::triu(Tensor self, int diagonal=0) -> Tensor",
      [](const ValueList& args) { return ValueList{triangleLayout(args)}; }, triangleKernel<false>);
}

}  // namespace fathom
