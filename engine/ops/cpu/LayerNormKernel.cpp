// Layer norm row kernels (see LayerNormKernel.h).
#include "engine/ops/cpu/LayerNormKernel.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
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

int64_t rowGrain(int64_t n) { return std::max<int64_t>(1, kGrain / std::max<int64_t>(n, 1)); }

struct Moments {
  double mean = 0, rstd = 0;
};

// rstd = 1 / sqrt(var + eps) in the compute type C, eps included: ATen passes eps to the kernel
// already converted to it, and for float32 the rounding of rstd shows in the results.
template <class C>
Moments finish(C mean, C squares, int64_t n, double eps) {
  if (n == 0) return {0, std::numeric_limits<double>::quiet_NaN()};
  const C var = squares / static_cast<C>(n);
  return {static_cast<double>(mean), static_cast<double>(C(1) / std::sqrt(var + static_cast<C>(eps)))};
}

// a * b + c rounded once, as the FMA PyTorch's kernels compile `a * b + c` to.
template <class C>
C fused(C a, C b, C c) {
  if constexpr (std::is_same_v<C, float>) return vec::fusedMulAdd(a, b, c);
  else return a * b + c;
}

// One float32 row: two vectorized passes over the (cached) row for the moments, one for y.
// y = fma(fma(x, scale, shift), gamma, beta) with shift = -scale * mean rounded to float, as
// ATen computes it: the fused rounding shows when the variance is (nearly) 0 and rstd is large.
Moments layerNormRowFloat(const float* x, const float* g, const float* b, float* y, int64_t n, double eps) {
  Float4 sv{};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) sv += vec::load(x + i);
  float sum = vec::sumLanes(sv);
  for (; i < n; ++i) sum += x[i];
  const float mean = n ? sum / static_cast<float>(n) : 0.0f;
  const Float4 mb = vec::splat(mean);
  Float4 qv{};
  for (i = 0; i + kLanes <= n; i += kLanes) {
    const Float4 d = vec::load(x + i) - mb;
    qv += d * d;
  }
  float squares = vec::sumLanes(qv);
  for (; i < n; ++i) squares += (x[i] - mean) * (x[i] - mean);
  const Moments mo = finish<float>(mean, squares, n, eps);
  const float scale = static_cast<float>(mo.rstd), shift = -scale * mean;
  const Float4 sb = vec::splat(scale), hb = vec::splat(shift);
  for (i = 0; i + kLanes <= n; i += kLanes) {
    Float4 v = vec::fusedMulAdd(vec::load(x + i), sb, hb);
    if (g && b) {
      v = vec::fusedMulAdd(v, vec::load(g + i), vec::load(b + i));
    } else {
      if (g) v *= vec::load(g + i);
      if (b) v += vec::load(b + i);
    }
    vec::store(y + i, v);
  }
  for (; i < n; ++i) y[i] = fused(fused(x[i], scale, shift), g ? g[i] : 1.0f, b ? b[i] : 0.0f);
  return mo;
}

// One row in OpMath precision, moments accumulated in double. (1.13 computes bfloat16 rows in
// bfloat16 throughout; this is more exact, and the fixtures allow for the difference.)
template <class T>
Moments layerNormRow(const T* x, const T* g, const T* b, T* y, int64_t n, double eps) {
  using C = OpMath<T>;
  double sum = 0, squares = 0;
  for (int64_t i = 0; i < n; ++i) sum += static_cast<C>(x[i]);
  const double mean = n ? sum / static_cast<double>(n) : 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = static_cast<C>(x[i]) - mean;
    squares += d * d;
  }
  const Moments mo = finish<C>(static_cast<C>(mean), static_cast<C>(squares), n, eps);
  const C scale = static_cast<C>(mo.rstd), shift = -scale * static_cast<C>(mo.mean);
  for (int64_t i = 0; i < n; ++i)
    y[i] = T(fused<C>(fused<C>(static_cast<C>(x[i]), scale, shift), g ? static_cast<C>(g[i]) : C(1),
                      b ? static_cast<C>(b[i]) : C(0)));
  return mo;
}

template <class T>
const T* dataOrNull(const Tensor& t) {
  return t.defined() ? t.dataAs<T>() : nullptr;
}

template <class T>
void forwardTyped(const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps, LayerNormRows rows,
                  const Tensor& y, const Tensor& mean, const Tensor& rstd) {
  const T *xs = x.dataAs<T>(), *g = dataOrNull<T>(gamma), *b = dataOrNull<T>(beta);
  T *ys = y.dataAs<T>(), *ms = mean.dataAs<T>(), *rs = rstd.dataAs<T>();
  const int64_t n = rows.n;
  parallelFor(rows.m, rowGrain(n), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      Moments mo;
      if constexpr (std::is_same_v<T, float>) mo = layerNormRowFloat(xs + r * n, g, b, ys + r * n, n, eps);
      else mo = layerNormRow<T>(xs + r * n, g, b, ys + r * n, n, eps);
      ms[r] = T(static_cast<OpMath<T>>(mo.mean));
      rs[r] = T(static_cast<OpMath<T>>(mo.rstd));
    }
  });
}

// dx for one row. The coefficients are ATen's, in its compute type and fused where its compiler
// fuses: they cancel badly when rstd is large, and only the same roundings give the same result.
template <class T>
void backwardRow(const T* dy, const T* x, const T* g, OpMath<T> a, OpMath<T> mu, int64_t n, T* dx) {
  using C = OpMath<T>;
  double ds = 0, db = 0;
  for (int64_t j = 0; j < n; ++j) {
    const double gy = static_cast<double>(static_cast<C>(dy[j])) * (g ? static_cast<C>(g[j]) : C(1));
    ds += gy * static_cast<C>(x[j]);
    db += gy;
  }
  const C inverseN = C(1) / static_cast<C>(n), dsC = C(ds), dbC = C(db);
  const C bq = fused<C>(dbC, mu, -dsC) * a * a * a * inverseN;
  const C c = fused<C>(-bq, mu, -(dbC * a * inverseN));
  for (int64_t j = 0; j < n; ++j) {
    const C gy = a * static_cast<C>(dy[j]) * (g ? static_cast<C>(g[j]) : C(1));
    dx[j] = T(fused<C>(bq, static_cast<C>(x[j]), gy) + c);
  }
}

// The same for float32, vectorized (ds and db in float lanes, as ATen sums them).
void backwardRowFloat(const float* dy, const float* x, const float* g, float a, float mu, int64_t n, float* dx) {
  Float4 dsv{}, dbv{};
  int64_t j = 0;
  for (; j + kLanes <= n; j += kLanes) {
    const Float4 gy = g ? vec::load(dy + j) * vec::load(g + j) : vec::load(dy + j);
    dsv += gy * vec::load(x + j);
    dbv += gy;
  }
  float ds = vec::sumLanes(dsv), db = vec::sumLanes(dbv);
  for (; j < n; ++j) {
    const float gy = dy[j] * (g ? g[j] : 1.0f);
    ds += gy * x[j];
    db += gy;
  }
  const float inverseN = 1.0f / static_cast<float>(n);
  const float bq = fused(db, mu, -ds) * a * a * a * inverseN;
  const float c = fused(-bq, mu, -(db * a * inverseN));
  const Float4 av = vec::splat(a), bv = vec::splat(bq), cv = vec::splat(c);
  for (j = 0; j + kLanes <= n; j += kLanes) {
    const Float4 gy = g ? av * vec::load(dy + j) * vec::load(g + j) : av * vec::load(dy + j);
    vec::store(dx + j, vec::fusedMulAdd(bv, vec::load(x + j), gy) + cv);
  }
  for (; j < n; ++j) dx[j] = fused(bq, x[j], a * dy[j] * (g ? g[j] : 1.0f)) + c;
}

// dgamma[j] = sum over rows of dy * (a * x + b) (ATen's fused form of (x - mean) * rstd, not
// exactly 0 where x == mean) and dbeta[j] = sum of dy, in double; column blocks run in parallel.
template <class T>
void columnSums(const T* dy, const T* x, const T* mean, const T* rstd, LayerNormRows rows, T* dgamma, T* dbeta) {
  using C = OpMath<T>;
  const int64_t m = rows.m, n = rows.n;
  parallelFor(n, std::max<int64_t>(kLanes, kGrain / std::max<int64_t>(m, 1)), [&](int64_t begin, int64_t end) {
    std::vector<double> dg(static_cast<size_t>(end - begin), 0.0), db(dg.size(), 0.0);
    for (int64_t r = 0; r < m; ++r) {
      const C a = static_cast<C>(rstd[r]), b = -a * static_cast<C>(mean[r]);
      const T *dyr = dy + r * n, *xr = x + r * n;
      int64_t j = begin;
      if constexpr (std::is_same_v<T, float>) {
        const Float4 av = vec::splat(a), bv = vec::splat(b);
        for (; j + kLanes <= end; j += kLanes) {
          const Float4 v = vec::load(dyr + j), t = vec::fusedMulAdd(av, vec::load(xr + j), bv);
          double *dgj = dg.data() + (j - begin), *dbj = db.data() + (j - begin);
          vec::store(dgj, vec::load(dgj) + vec::lowToDouble(v) * vec::lowToDouble(t));
          vec::store(dgj + 2, vec::load(dgj + 2) + vec::highToDouble(v) * vec::highToDouble(t));
          vec::store(dbj, vec::load(dbj) + vec::lowToDouble(v));
          vec::store(dbj + 2, vec::load(dbj + 2) + vec::highToDouble(v));
        }
      }
      for (; j < end; ++j) {
        const double v = static_cast<C>(dyr[j]);
        dg[j - begin] += v * fused<C>(a, static_cast<C>(xr[j]), b);
        db[j - begin] += v;
      }
    }
    for (int64_t j = begin; j < end; ++j) {
      if (dgamma) dgamma[j] = T(static_cast<C>(dg[j - begin]));
      if (dbeta) dbeta[j] = T(static_cast<C>(db[j - begin]));
    }
  });
}

template <class T>
void backwardTyped(const Tensor& dyT, const Tensor& xT, const Tensor& meanT, const Tensor& rstdT,
                   const Tensor& gammaT, LayerNormRows rows, const Tensor& dxT, const Tensor& dgammaT,
                   const Tensor& dbetaT) {
  using C = OpMath<T>;
  const T *dy = dyT.dataAs<T>(), *x = xT.dataAs<T>(), *g = dataOrNull<T>(gammaT);
  const T *mean = meanT.dataAs<T>(), *rstd = rstdT.dataAs<T>();
  const int64_t n = rows.n;
  if (dxT.defined()) {
    T* dx = dxT.dataAs<T>();
    parallelFor(rows.m, rowGrain(n), [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const C a = static_cast<C>(rstd[r]), mu = static_cast<C>(mean[r]);
        if constexpr (std::is_same_v<T, float>) backwardRowFloat(dy + r * n, x + r * n, g, a, mu, n, dx + r * n);
        else backwardRow<T>(dy + r * n, x + r * n, g, a, mu, n, dx + r * n);
      }
    });
  }
  if (dgammaT.defined() || dbetaT.defined())
    columnSums<T>(dy, x, mean, rstd, rows, dgammaT.defined() ? dgammaT.dataAs<T>() : nullptr,
                  dbetaT.defined() ? dbetaT.dataAs<T>() : nullptr);
}

}  // namespace

void layerNormForward(const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps, LayerNormRows rows,
                      const Tensor& y, const Tensor& mean, const Tensor& rstd) {
  dispatchDType(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>>) forwardTyped<T>(x, gamma, beta, eps, rows, y, mean, rstd);
  });
}

void layerNormBackward(const Tensor& dy, const Tensor& x, const Tensor& mean, const Tensor& rstd, const Tensor& gamma,
                       LayerNormRows rows, const Tensor& dx, const Tensor& dgamma, const Tensor& dbeta) {
  dispatchDType(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>>)
      backwardTyped<T>(dy, x, mean, rstd, gamma, rows, dx, dgamma, dbeta);
  });
}

}  // namespace fathom
