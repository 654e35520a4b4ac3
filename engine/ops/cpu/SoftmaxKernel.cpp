// Softmax row kernels (see SoftmaxKernel.h).
#include "engine/ops/cpu/SoftmaxKernel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "engine/core/Parallel.h"
#include "engine/ops/cpu/VecMath.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

using vec::Float4;
using vec::kLanes;

constexpr int64_t kGrain = 32768;  // elements per parallel chunk

// One contiguous float32 row, vectorized: max, exp and sum in one sweep, then scale. The max may
// skip NaNs: a NaN element makes its x - max, and so the sum and every result, NaN anyway.
void softmaxRowFloat(const float* x, float* y, int64_t n, bool log) {
  Float4 mv = vec::splat(-std::numeric_limits<float>::infinity());
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) mv = vec::max(mv, vec::load(x + i));
  float m = vec::maxLanes(mv);
  for (; i < n; ++i) m = x[i] > m ? x[i] : m;
  const Float4 mb = vec::splat(m);
  Float4 sv{};
  float tail[kLanes] = {};
  for (i = 0; i + kLanes <= n; i += kLanes) {
    const Float4 e = vec::expVec(vec::load(x + i) - mb);
    if (!log) vec::store(y + i, e);
    sv += e;
  }
  const int64_t rest = n - i;
  if (rest > 0) {  // the tail through a padded lane buffer (padding exp(-inf) = 0)
    Float4 t = vec::splat(-std::numeric_limits<float>::infinity());
    for (int64_t k = 0; k < rest; ++k) t[k] = x[i + k] - m;
    const Float4 e = vec::expVec(t);
    sv += e;
    vec::store(tail, e);
    if (!log)
      for (int64_t k = 0; k < rest; ++k) y[i + k] = tail[k];
  }
  const float sum = vec::sumLanes(sv);
  if (log) {
    const float shift = m + std::log(sum);
    const Float4 sb = vec::splat(shift);
    for (i = 0; i + kLanes <= n; i += kLanes) vec::store(y + i, vec::load(x + i) - sb);
    for (; i < n; ++i) y[i] = x[i] - shift;
  } else {
    const float scale = 1.0f / sum;
    const Float4 sb = vec::splat(scale);
    for (i = 0; i + kLanes <= n; i += kLanes) vec::store(y + i, vec::load(y + i) * sb);
    for (; i < n; ++i) y[i] *= scale;
  }
}

// One [size, inner] block in OpMath precision (sums in double); `buf` holds 2 * inner values.
// As in the float path, NaNs need no care in the max: they turn the whole row NaN anyway.
template <class T>
void softmaxBlock(const T* x, T* y, int64_t size, int64_t inner, bool log, std::vector<double>& buf) {
  using C = OpMath<T>;
  double* mx = buf.data();
  double* sum = mx + inner;
  for (int64_t j = 0; j < inner; ++j) {
    mx[j] = static_cast<C>(x[j]);
    sum[j] = 0;
  }
  for (int64_t i = 1; i < size; ++i)
    for (int64_t j = 0; j < inner; ++j) mx[j] = std::max<double>(mx[j], static_cast<C>(x[i * inner + j]));
  for (int64_t i = 0; i < size; ++i)
    for (int64_t j = 0; j < inner; ++j) sum[j] += std::exp(static_cast<C>(x[i * inner + j]) - mx[j]);
  for (int64_t i = 0; i < size; ++i) {
    for (int64_t j = 0; j < inner; ++j) {
      const double v = static_cast<C>(x[i * inner + j]);
      y[i * inner + j] = T(static_cast<C>(log ? v - mx[j] - std::log(sum[j]) : std::exp(v - mx[j]) / sum[j]));
    }
  }
}

// The float32 last-dim backward, vectorized (one row).
void softmaxBackwardRowFloat(const float* dy, const float* y, float* dx, int64_t n, bool log) {
  Float4 sv{};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) sv += log ? vec::load(dy + i) : vec::load(dy + i) * vec::load(y + i);
  float s = vec::sumLanes(sv);
  for (; i < n; ++i) s += log ? dy[i] : dy[i] * y[i];
  const Float4 sb = vec::splat(s);
  for (i = 0; i + kLanes <= n; i += kLanes) {
    const Float4 g = vec::load(dy + i), o = vec::load(y + i);
    vec::store(dx + i, log ? g - vec::expVec(o) * sb : o * (g - sb));
  }
  for (; i < n; ++i) dx[i] = log ? dy[i] - std::exp(y[i]) * s : y[i] * (dy[i] - s);
}

template <class T>
void softmaxBackwardBlock(const T* dy, const T* y, T* dx, int64_t size, int64_t inner, bool log,
                          std::vector<double>& buf) {
  using C = OpMath<T>;
  double* s = buf.data();
  for (int64_t j = 0; j < inner; ++j) s[j] = 0;
  for (int64_t i = 0; i < size; ++i) {
    for (int64_t j = 0; j < inner; ++j) {
      const double g = static_cast<C>(dy[i * inner + j]);
      s[j] += log ? g : g * static_cast<C>(y[i * inner + j]);
    }
  }
  for (int64_t i = 0; i < size; ++i) {
    for (int64_t j = 0; j < inner; ++j) {
      const double g = static_cast<C>(dy[i * inner + j]), o = static_cast<C>(y[i * inner + j]);
      dx[i * inner + j] = T(static_cast<C>(log ? g - std::exp(o) * s[j] : o * (g - s[j])));
    }
  }
}

// Runs block(o, buf) for every outer index in parallel chunks of about kGrain elements.
template <class Block>
void forEachBlock(const SoftmaxShape& s, Block&& block) {
  const int64_t perBlock = std::max<int64_t>(s.size * s.inner, 1);
  parallelFor(s.outer, std::max<int64_t>(1, kGrain / perBlock), [&](int64_t begin, int64_t end) {
    std::vector<double> buf(static_cast<size_t>(2 * s.inner));
    for (int64_t o = begin; o < end; ++o) block(o, buf);
  });
}

}  // namespace

SoftmaxShape softmaxShape(const IntList& sizes, int64_t dim) {
  SoftmaxShape s;
  const int64_t nd = static_cast<int64_t>(sizes.size());
  for (int64_t d = 0; d < nd; ++d) {
    if (d < dim) s.outer *= sizes[d];
    else if (d == dim) s.size = sizes[d];
    else s.inner *= sizes[d];
  }
  return s;
}

void softmaxForward(const Tensor& in, const Tensor& out, const SoftmaxShape& s, bool log) {
  if (in.numel() == 0) return;
  const int64_t block = s.size * s.inner;
  if (in.dtype() == DType::Float32 && s.inner == 1) {
    const float* x = in.dataAs<float>();
    float* y = out.dataAs<float>();
    forEachBlock(s, [&](int64_t o, std::vector<double>&) {
      softmaxRowFloat(x + o * block, y + o * block, s.size, log);
    });
    return;
  }
  dispatchDType(in.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>>) {
      const T* x = in.dataAs<T>();
      T* y = out.dataAs<T>();
      forEachBlock(s, [&](int64_t o, std::vector<double>& buf) {
        softmaxBlock<T>(x + o * block, y + o * block, s.size, s.inner, log, buf);
      });
    }
  });
}

void softmaxBackward(const Tensor& grad, const Tensor& output, const Tensor& gradInput, const SoftmaxShape& s,
                     bool log) {
  if (grad.numel() == 0) return;
  const int64_t block = s.size * s.inner;
  if (grad.dtype() == DType::Float32 && s.inner == 1) {
    const float *dy = grad.dataAs<float>(), *y = output.dataAs<float>();
    float* dx = gradInput.dataAs<float>();
    forEachBlock(s, [&](int64_t o, std::vector<double>&) {
      softmaxBackwardRowFloat(dy + o * block, y + o * block, dx + o * block, s.size, log);
    });
    return;
  }
  dispatchDType(grad.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>>) {
      const T *dy = grad.dataAs<T>(), *y = output.dataAs<T>();
      T* dx = gradInput.dataAs<T>();
      forEachBlock(s, [&](int64_t o, std::vector<double>& buf) {
        softmaxBackwardBlock<T>(dy + o * block, y + o * block, dx + o * block, s.size, s.inner, log, buf);
      });
    }
  });
}

}  // namespace fathom
