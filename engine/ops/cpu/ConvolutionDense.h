// Dense buffers for the convolution kernels (ConvolutionKernel.cpp, ConvolutionBackward.cpp):
// the type a convolution computes in, and tensors of any strides and dtype seen as dense
// row-major arrays of it (copied and converted only when they are not one already).
#pragma once

#include <algorithm>
#include <type_traits>
#include <vector>

#include "engine/core/Parallel.h"
#include "engine/tensor/DTypeDispatch.h"
#include "engine/tensor/Tensor.h"

namespace fathom {

// The type a convolution computes in: float for float32/bfloat16/float16, double for float64,
// int64 (wrapping) for integers.
template <class T>
using ConvCompute = std::conditional_t<std::is_floating_point_v<OpMath<T>>, OpMath<T>, int64_t>;

template <class C>
constexpr DType computeDType() {
  if constexpr (std::is_same_v<C, float>) return DType::Float32;
  else if constexpr (std::is_same_v<C, double>) return DType::Float64;
  else return DType::Int64;
}

// acc + a * b; integers wrap around as PyTorch's do (no signed-overflow UB).
template <class C>
inline C mulAdd(C acc, C a, C b) {
  if constexpr (std::is_floating_point_v<C>) return acc + a * b;
  else return static_cast<C>(static_cast<uint64_t>(acc) + static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

namespace detail {
// Visits a tensor of rank <= 5 as [d0, d1, d2, d3, d4] (leading dims of size 1 added), calling
// fn(elementPointerOffset, denseIndex) per element; rows of (d0, d1) run in parallel.
template <class Fn>
void forEachDense(const Tensor& t, const Fn& fn) {
  int64_t size[5] = {1, 1, 1, 1, 1}, stride[5] = {0, 0, 0, 0, 0};
  const int64_t lead = 5 - t.dim();
  for (int64_t d = 0; d < t.dim(); ++d) size[lead + d] = t.size(d), stride[lead + d] = t.stride(d);
  const int64_t plane = size[2] * size[3] * size[4];
  parallelFor(size[0] * size[1], std::max<int64_t>(1, 32768 / std::max<int64_t>(plane, 1)), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t base = (r / size[1]) * stride[0] + (r % size[1]) * stride[1];
      int64_t i = r * plane;
      for (int64_t z = 0; z < size[2]; ++z)
        for (int64_t y = 0; y < size[3]; ++y)
          for (int64_t x = 0; x < size[4]; ++x, ++i) fn(base + z * stride[2] + y * stride[3] + x * stride[4], i);
    }
  });
}
}  // namespace detail

// A dense row-major copy of `t` (rank <= 5) converted to C.
template <class C>
std::vector<C> loadDense(const Tensor& t) {
  std::vector<C> out(static_cast<size_t>(t.numel()));
  dispatchDType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = t.dataAs<T>();
    C* dst = out.data();
    detail::forEachDense(t, [&](int64_t at, int64_t i) { dst[i] = convertValue<C>(src[at]); });
  });
  return out;
}

// A tensor's values as a dense row-major C array: the tensor's own data when it already is one
// (no copy), else a converted copy.
template <class C>
struct DenseInput {
  std::vector<C> owned;
  const C* data = nullptr;
  explicit DenseInput(const Tensor& t) {
    if (t.dtype() == computeDType<C>() && t.isContiguous()) {
      data = t.dataAs<C>();
    } else {
      owned = loadDense<C>(t);
      data = owned.data();
    }
  }
};

// Where a kernel writes a result: straight into `out` when it is a dense row-major C array, else
// into a buffer that finish() stores into `out`.
template <class C>
struct DenseOutput {
  const Tensor& out;
  std::vector<C> owned;
  C* data = nullptr;
  DenseOutput(const Tensor& t, bool zeroed) : out(t) {
    if (t.dtype() == computeDType<C>() && t.isContiguous()) {
      data = t.dataAs<C>();
      if (zeroed) std::fill(data, data + t.numel(), C(0));
    } else {
      owned.assign(static_cast<size_t>(t.numel()), C(0));
      data = owned.data();
    }
  }
  void finish();
};

// Stores a dense row-major buffer into `t` (any strides), converting to t's dtype.
template <class C>
void storeDense(const C* buf, const Tensor& t) {
  dispatchDType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* dst = t.dataAs<T>();
    detail::forEachDense(t, [&](int64_t at, int64_t i) { dst[at] = convertValue<T>(buf[i]); });
  });
}

template <class C>
void DenseOutput<C>::finish() {
  if (!owned.empty()) storeDense(owned.data(), out);
}

}  // namespace fathom
