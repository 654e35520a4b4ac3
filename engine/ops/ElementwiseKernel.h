// The CPU driver for elementwise ops: given the layout computed by computeElementwiseLayout,
// promotes inputs to the common dtype, allocates the output and runs a functor over every
// element, in OpMath precision (16-bit floats compute in float32). A contiguous fast path
// (all unit strides) keeps the innermost loop vectorizable.
#pragma once

#include <array>

#include "engine/ops/Copy.h"
#include "engine/ops/ElementwiseLayout.h"
#include "engine/ops/Loops.h"
#include "engine/tensor/Dispatch.h"

namespace fathom {

// A zero-dim tensor holding a Python number in its wrapped dtype (bool, int64, float64).
Tensor wrappedNumberTensor(const ScalarArg& s);

namespace detail {
template <class T, size_t N, class F>
void runTyped(const LoopPlan& plan, const std::array<std::byte*, N + 1>& base, const F& f) {
  using C = OpMath<T>;
  forEachRun<N + 1>(plan, base, [&](auto& p, auto& s, int64_t n) {
    bool unit = true;
    for (size_t k = 0; k <= N; ++k) unit = unit && s[k] == static_cast<int64_t>(sizeof(T));
    T* out = reinterpret_cast<T*>(p[0]);
    if constexpr (N == 1) {
      if (unit) {
        const T* a = reinterpret_cast<const T*>(p[1]);
        for (int64_t i = 0; i < n; ++i) out[i] = T(f(C(a[i])));
        return;
      }
      for (int64_t i = 0; i < n; ++i)
        elementAt<T>(p[0], s[0], i) = T(f(C(elementAt<T>(p[1], s[1], i))));
    } else {
      static_assert(N == 2, "elementwise kernels take one or two tensor operands");
      if (unit) {
        const T* a = reinterpret_cast<const T*>(p[1]);
        const T* b = reinterpret_cast<const T*>(p[2]);
        for (int64_t i = 0; i < n; ++i) out[i] = T(f(C(a[i]), C(b[i])));
        return;
      }
      for (int64_t i = 0; i < n; ++i)
        elementAt<T>(p[0], s[0], i) =
            T(f(C(elementAt<T>(p[1], s[1], i)), C(elementAt<T>(p[2], s[2], i))));
    }
  });
}
}  // namespace detail

// out[i] = f(inputs[0][i], ...) with f made per dtype: makeFn(TypeTag<T>) returns a callable
// over OpMath<T> values. `inputs[k]` is the real tensor of operand k of `layout`.
template <size_t N, class MakeFn>
Tensor runElementwise(const ElementwiseLayout& layout, const std::array<Tensor, N>& inputs, MakeFn&& makeFn) {
  Tensor out = allocateTensor(layout.output);
  std::array<Tensor, N> converted;
  std::vector<IntList> strides;
  IntList outStrides;
  for (int64_t s : out.strides()) outStrides.push_back(s * static_cast<int64_t>(elementSize(out.dtype())));
  strides.push_back(outStrides);
  std::array<std::byte*, N + 1> base{bytePtr(out)};
  for (size_t k = 0; k < N; ++k) {
    converted[k] = convertedTo(inputs[k], layout.operands[k]);
    strides.push_back(broadcastByteStrides(converted[k], out.sizes()));
    base[k + 1] = bytePtr(converted[k]);
  }
  const LoopPlan plan = planLoop(out.sizes(), std::move(strides), 0);
  dispatchDType(layout.commonDtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    detail::runTyped<T, N>(plan, base, makeFn(tag));
  });
  return out;
}

}  // namespace fathom
