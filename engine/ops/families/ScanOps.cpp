// Scans: cumsum.default.
//
// Layout: a fresh contiguous tensor of the input's shape (1.13's meta_func_cum_ops passes no
// strides). Dtype: the dtype argument, else int64 for integer and bool inputs, else the input's.
// Values (ATen's impl_func_cum_ops + cpu_cum_base_kernel): a zero-dim input is copied, an empty
// one gives an empty result, and otherwise the input is converted to the output dtype first and
// each line along `dim` is summed in acc_type (double for float and double, float for bfloat16,
// int64 for integers), rounding every partial sum to the output dtype. float16 and bool outputs
// have no CPU kernel in 1.13.
#include <type_traits>

#include "engine/core/Error.h"
#include "engine/core/Parallel.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/families/ReductionFamilies.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

template <class T>
using CumAcc = std::conditional_t<std::is_same_v<T, BFloat16>, float,
                                  std::conditional_t<std::is_floating_point_v<T>, double, int64_t>>;

// cumsum(self, dim, *, dtype)
TensorMeta cumsumLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  (void)wrapDim(intArg(margs, 1), self.dim());
  TensorMeta out;
  out.dtype = optionalDTypeArg(margs, 2).value_or(isIntegral(self.dtype, /*includeBool=*/true) ? DType::Int64
                                                                                                  : self.dtype);
  out.device = self.device;
  out.sizes = self.sizes;
  out.strides = contiguousStrides(self.sizes);
  return out;
}

// Lines along `dim` of `in` (any strides) summed into the contiguous `out` of the same dtype.
template <class T>
void cumsumTyped(const Tensor& in, const Tensor& out, int64_t dim) {
  const int64_t n = in.size(dim), inStride = in.stride(dim);
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < in.dim(); ++d) inner *= in.size(d);
  const int64_t lines = in.numel() / n;
  const T* src = in.dataAs<T>();
  T* dst = out.dataAs<T>();
  parallelFor(lines, std::max<int64_t>(1, 32768 / n), [&](int64_t begin, int64_t end) {
    for (int64_t line = begin; line < end; ++line) {
      // The line's first input element: decompose the line index over the other dims.
      int64_t rest = line, offset = 0;
      for (int64_t d = in.dim() - 1; d >= 0; --d) {
        if (d == dim) continue;
        offset += (rest % in.size(d)) * in.stride(d);
        rest /= in.size(d);
      }
      T* o = dst + (line / inner) * n * inner + line % inner;
      CumAcc<T> acc = 0;
      for (int64_t i = 0; i < n; ++i) {
        const CumAcc<T> v = static_cast<CumAcc<T>>(static_cast<OpMath<T>>(src[offset + i * inStride]));
        if constexpr (std::is_integral_v<CumAcc<T>>)  // wraps like ATen's int64 accumulator
          acc = static_cast<int64_t>(static_cast<uint64_t>(acc) + static_cast<uint64_t>(v));
        else acc += v;
        o[i * inner] = convertValue<T>(acc);
      }
    }
  });
}

Tensor cumsumKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  const TensorMeta layout = cumsumLayout(metaArgs(args));
  Tensor out = allocateTensor(layout);
  if (self.dim() == 0) {
    copyInto(out, self);
    return out;
  }
  if (self.numel() == 0) return out;  // storage starts zeroed
  FATHOM_CHECK(layout.dtype != DType::Float16 && layout.dtype != DType::Bool,
               "\"cumsum_out_cpu\" not implemented for '", scalarTypeName(layout.dtype), "'");
  TensorMeta converted = self.meta();
  converted.dtype = layout.dtype;
  converted.strides = contiguousStrides(converted.sizes);
  converted.storageOffset = 0;
  const Tensor in = convertedTo(self, converted);
  const int64_t dim = wrapDim(intArg(args, 1), self.dim());
  dispatchDType(layout.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, Half> && !std::is_same_v<T, bool>) cumsumTyped<T>(in, out, dim);
  });
  return out;
}

}  // namespace

void registerScanOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
      [](const ValueList& args) { return ValueList{cumsumLayout(args)}; },
      [](const ValueList& args) { return ValueList{cumsumKernel(args)}; });
}

}  // namespace fathom
