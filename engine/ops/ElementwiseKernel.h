// The CPU driver for elementwise ops: given the layout computed by computeElementwiseLayout,
// promotes inputs to the common dtype, allocates the output and runs a functor over every
// element, in OpMath precision (16-bit floats compute in float32).
//
// The functor's signature says how operands are stored: a `bool` parameter reads a bool operand
// (where's condition, a mask) and a `bool` result writes a bool output (comparisons); every
// other parameter reads the common dtype T as OpMath<T>, and any other result is stored as T.
//
// Speed: runs whose operands are all contiguous (or stride 0, like a Python number) take a loop
// over plain pointers in blocks of 8, which GCC vectorizes at -O2; big tensors are split over
// threads (parallelForEachRun), each element being independent.
#pragma once

#include <algorithm>
#include <array>
#include <tuple>
#include <type_traits>
#include <utility>

#include "engine/ops/Copy.h"
#include "engine/ops/ElementwiseLayout.h"
#include "engine/ops/Loops.h"
#include "engine/tensor/Dispatch.h"

namespace fathom {

// A zero-dim tensor holding a Python number in its wrapped dtype (bool, int64, float64).
Tensor wrappedNumberTensor(const ScalarArg& s);

namespace detail {

// Elements per thread chunk: below ~2 chunks waking threads costs more than the work.
inline constexpr int64_t kElementwiseGrain = 32768;
// Stride-0 operands are replicated into a buffer of this many elements so the contiguous loop
// can read them like any other operand.
inline constexpr int64_t kBroadcastBlock = 256;

template <class F> struct Signature : Signature<decltype(&F::operator())> {};
template <class R, class L, class... A>
struct Signature<R (L::*)(A...) const> {
  using Result = R;
  using Args = std::tuple<A...>;
};

template <class T, class V> using StorageOf = std::conditional_t<std::is_same_v<V, bool>, bool, T>;

// A loop over contiguous operands. The fixed inner trip count of 8 is what GCC's -O2
// ("very cheap") cost model needs to vectorize; __restrict rules out aliasing (the output is
// always a fresh tensor).
template <class Out, class F, class... In>
void contiguousLoop(Out* __restrict out, int64_t n, const F& f, const In* __restrict... in) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int64_t j = i; j < i + 8; ++j) out[j] = Out(f(in[j]...));
  for (; i < n; ++i) out[i] = Out(f(in[i]...));
}

template <class T, class F, size_t... K>
void runFunctor(const LoopPlan& plan, const std::array<std::byte*, sizeof...(K) + 1>& base, const F& f,
                std::index_sequence<K...>) {
  using Args = typename Signature<F>::Args;
  using Out = StorageOf<T, typename Signature<F>::Result>;
  using Ins = std::tuple<StorageOf<T, std::tuple_element_t<K, Args>>...>;
  auto body = [&f](auto& p, auto& s, int64_t n) {
    const bool dense = s[0] == static_cast<int64_t>(sizeof(Out)) &&
                       ((s[K + 1] == static_cast<int64_t>(sizeof(std::tuple_element_t<K, Ins>)) || s[K + 1] == 0) && ...);
    const bool broadcast = ((s[K + 1] == 0) || ...);
    if (dense && !broadcast) {
      contiguousLoop(reinterpret_cast<Out*>(p[0]), n, f,
                     reinterpret_cast<const std::tuple_element_t<K, Ins>*>(p[K + 1])...);
    } else if (dense && n >= 32) {
      // Stride-0 operands read from a buffer filled with their one value.
      std::tuple<std::array<std::tuple_element_t<K, Ins>, kBroadcastBlock>...> buffers;
      const int64_t m = std::min(n, kBroadcastBlock);
      ((s[K + 1] == 0 ? std::fill_n(std::get<K>(buffers).begin(), m,
                                    *reinterpret_cast<const std::tuple_element_t<K, Ins>*>(p[K + 1]))
                      : std::get<K>(buffers).begin()),
       ...);
      for (int64_t off = 0; off < n; off += kBroadcastBlock) {
        contiguousLoop(reinterpret_cast<Out*>(p[0]) + off, std::min(n - off, kBroadcastBlock), f,
                       (s[K + 1] == 0 ? std::get<K>(buffers).data()
                                      : reinterpret_cast<const std::tuple_element_t<K, Ins>*>(p[K + 1]) + off)...);
      }
    } else {
      for (int64_t i = 0; i < n; ++i)
        elementAt<Out>(p[0], s[0], i) = Out(f(elementAt<std::tuple_element_t<K, Ins>>(p[K + 1], s[K + 1], i)...));
    }
  };
  parallelForEachRun<sizeof...(K) + 1>(plan, base, kElementwiseGrain, body);
}

}  // namespace detail

// out[i] = f(inputs[0][i], ...) with f made per dtype: makeFn(TypeTag<T>) returns a callable
// over OpMath<T> values (see the storage rule above). `inputs[k]` is the real tensor of operand
// k of `layout`; it is converted to that operand's dtype and layout first if they differ.
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
    auto f = makeFn(tag);
    using Sig = detail::Signature<decltype(f)>;
    static_assert(std::tuple_size_v<typename Sig::Args> == N, "the functor takes one value per operand");
    detail::runFunctor<T>(plan, base, f, std::make_index_sequence<N>{});
  });
  return out;
}

}  // namespace fathom
