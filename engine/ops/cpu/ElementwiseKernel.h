// The CPU driver for elementwise ops: given the layout computed by computeElementwiseLayout,
// promotes inputs to the common dtype, allocates the output and runs a functor over every
// element, in OpMath precision (16-bit floats compute in float32).
//
// The functor's signature says how operands are stored: a `bool` parameter reads a bool operand
// (where's condition, a mask) and a `bool` result writes a bool output (comparisons); every
// other parameter reads the common dtype T as OpMath<T>, and any other result is stored as T.
//
// Speed: runs whose operands are all contiguous (or stride 0, like a Python number) take a loop
// over plain pointers in blocks of 8, which GCC vectorizes at -O2, or a functor's own
// eight-element form (see Block8Functor). Big tensors are split over threads
// (parallelForEachRun) at block boundaries, so values do not depend on the thread count.
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <tuple>
#include <type_traits>
#include <utility>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/layout/ElementwiseLayout.h"
#include "engine/ops/cpu/Loops.h"
#include "engine/tensor/DTypeDispatch.h"

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

// A float32 functor may also offer `void block8(float* out, const float* in...) const`, which
// computes eight elements at once, for what GCC cannot vectorize itself (erf, exp: see
// VecMath.h); contiguous runs then go through it eight at a time and the scalar operator()
// takes the tail, as ATen's cpu_kernel_vec does.
template <class F, class Out, class... In>
concept Block8Functor = std::is_same_v<Out, float> && (std::is_same_v<In, float> && ...) &&
                        requires(const F& f, float* out, const In*... in) { f.block8(out, in...); };

// A functor may also offer `vector(x...)`, the formula ATen's vector loop applies, and
// `vectorBlock`, the elements one iteration of that loop takes (2 * Vectorized<T>::size() under
// AVX2: 16 floats, 8 doubles, 32 bfloat16s): where ATen's scalar and vector formulas disagree
// (hardswish_backward at exactly 3), each element of a contiguous run gets the one ATen gives it,
// the vector formula in whole blocks and the scalar one in the run's tail.
template <class F, class... In>
concept VectorFormFunctor = requires(const F& f, In... in) {
  f.vector(in...);
  { f.vectorBlock } -> std::convertible_to<int64_t>;
};

// A loop over contiguous operands. The fixed inner trip count of 8 is what GCC's -O2
// ("very cheap") cost model needs to vectorize; __restrict rules out aliasing (the output is
// always a fresh tensor).
template <class Out, class F, class... In>
void contiguousLoop(Out* __restrict out, int64_t n, const F& fn, const In* __restrict... in) {
  const F f = fn;  // a local copy: its captured values provably do not alias the output
  int64_t i = 0;
  if constexpr (Block8Functor<F, Out, In...>) {
    for (; i + 8 <= n; i += 8) f.block8(out + i, (in + i)...);
  } else if constexpr (VectorFormFunctor<F, OpMath<In>...>) {
    for (const int64_t end = n - n % f.vectorBlock; i < end; ++i) out[i] = Out(f.vector(OpMath<In>(in[i])...));
  } else {
    for (; i + 8 <= n; i += 8)
      for (int64_t j = i; j < i + 8; ++j) out[j] = Out(f(in[j]...));
  }
  for (; i < n; ++i) out[i] = Out(f(in[i]...));
}

// Room for one operand's value repeated; left uninitialized (only the part used is filled).
template <class E>
struct BroadcastBuffer {
  E data[kBroadcastBlock];
  BroadcastBuffer() {}  // NOLINT: no zero-fill
};

template <class T, class F, size_t... K>
void runFunctor(const LoopPlan& plan, const std::array<std::byte*, sizeof...(K) + 1>& base, const F& f,
                std::index_sequence<K...>) {
  using Args = typename Signature<F>::Args;
  using Out = StorageOf<T, typename Signature<F>::Result>;
  using Ins = std::tuple<StorageOf<T, std::tuple_element_t<K, Args>>...>;
  auto body = [&f](auto& p, auto& s, int64_t n) {
    const std::tuple<const std::tuple_element_t<K, Ins>*...> in{
        reinterpret_cast<const std::tuple_element_t<K, Ins>*>(p[K + 1])...};
    Out* out = reinterpret_cast<Out*>(p[0]);
    const bool dense = s[0] == static_cast<int64_t>(sizeof(Out)) &&
                       ((s[K + 1] == static_cast<int64_t>(sizeof(std::tuple_element_t<K, Ins>)) || s[K + 1] == 0) && ...);
    const bool broadcast = ((s[K + 1] == 0) || ...);
    if (dense && !broadcast) {
      contiguousLoop(out, n, f, std::get<K>(in)...);
    } else if (dense) {
      // Stride-0 operands (Python numbers, broadcast rows) read from a buffer of their one value.
      std::tuple<BroadcastBuffer<std::tuple_element_t<K, Ins>>...> buffers;
      const int64_t m = std::min(n, kBroadcastBlock);
      ((s[K + 1] == 0 ? (void)std::fill_n(std::get<K>(buffers).data, m, *std::get<K>(in)) : (void)0), ...);
      for (int64_t off = 0; off < n; off += kBroadcastBlock)
        contiguousLoop(out + off, std::min(n - off, kBroadcastBlock), f,
                       (s[K + 1] == 0 ? +std::get<K>(buffers).data : std::get<K>(in) + off)...);
    } else {
      for (int64_t i = 0; i < n; ++i)
        elementAt<Out>(p[0], s[0], i) = Out(f(elementAt<std::tuple_element_t<K, Ins>>(p[K + 1], s[K + 1], i)...));
    }
  };
  parallelForEachRun<sizeof...(K) + 1>(plan, base, kElementwiseGrain, body, /*align=*/8);
}

// The dtype the functor reads operand `k` in (or writes the output in, for the result).
template <class V> DType storageDtype(DType common) { return std::is_same_v<V, bool> ? DType::Bool : common; }

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
    [&]<size_t... K>(std::index_sequence<K...> seq) {
      // The layout's dtypes must be the ones the functor's signature reads and writes.
      const bool typesMatch =
          out.dtype() == detail::storageDtype<typename Sig::Result>(layout.commonDtype) &&
          ((converted[K].dtype() == detail::storageDtype<std::tuple_element_t<K, typename Sig::Args>>(layout.commonDtype)) && ...);
      if (!typesMatch) throw OpError("elementwise kernel: operand dtypes do not match the functor", ErrorCode::Internal);
      detail::runFunctor<T>(plan, base, f, seq);
    }(std::make_index_sequence<N>{});
  });
  return out;
}

}  // namespace fathom
