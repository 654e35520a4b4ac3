// ATen 1.13's distance loops (see DistanceKernel.h). Each norm is a struct of ATen's four steps
// (Dist<scalar_t>'s zdist_calc, odist_calc, tdist_calc, idist_calc, pdist_calc): map a
// coordinate difference, reduce, finish, and the backward term.
#include "engine/ops/cpu/DistanceKernel.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/core/Error.h"
#include "engine/core/Parallel.h"
#include "engine/ops/OpArgs.h"

namespace fathom {
namespace {

template <class T> T nanOr(T a, T b, T v) { return std::isnan(a) || std::isnan(b) ? std::numeric_limits<T>::quiet_NaN() : v; }
// Vectorized<T>'s maximum and minimum propagate NaN (std::max and std::min keep their first argument).
template <class T> T vecMax(T a, T b) { return nanOr(a, b, std::max(a, b)); }
template <class T> T vecMin(T a, T b) { return nanOr(a, b, std::min(a, b)); }
// Dist::sign: 1, -1 or 0 (NaN stays NaN).
template <class T> T sign(T v) { return std::isnan(v) ? v : v > 0 ? T(1) : v < 0 ? T(-1) : T(0); }

// The scalar steps (cdist's loop) and the vector ones (pdist's lanes, where ATen's AVX2 build
// fuses p = 2's multiply-add) differ only where noted.
template <class T> struct Zero {
  static T map(T d, T) { return std::min(std::ceil(d), T(1)); }
  static T vmap(T d, T) { return vecMin(std::ceil(d), T(1)); }
  static T red(T a, T u) { return a + u; }
  static T vred(T a, T u) { return a + u; }
  static T step(T acc, T d, T p) { return acc + vmap(d, p); }
  static T finish(T a, T) { return a; }
};
template <class T> struct One {
  static T map(T d, T) { return d; }
  static T vmap(T d, T) { return d; }
  static T red(T a, T u) { return a + u; }
  static T vred(T a, T u) { return a + u; }
  static T step(T acc, T d, T) { return acc + d; }
  static T finish(T a, T) { return a; }
};
template <class T> struct Two {
  static T map(T d, T) { return d * d; }
  static T vmap(T d, T) { return d * d; }
  static T red(T a, T u) { return a + u; }
  static T vred(T a, T u) { return a + u; }
  static T step(T acc, T d, T) { return std::fma(d, d, acc); }
  static T finish(T a, T) { return std::sqrt(a); }
};
template <class T> struct Inf {
  static T map(T d, T) { return d; }
  static T vmap(T d, T) { return d; }
  static T red(T a, T u) { return std::max(a, u); }
  static T vred(T a, T u) { return vecMax(a, u); }
  static T step(T acc, T d, T) { return vecMax(acc, d); }
  static T finish(T a, T) { return a; }
};
template <class T> struct General {
  static T map(T d, T p) { return std::pow(d, p); }
  static T vmap(T d, T p) { return std::pow(d, p); }
  static T red(T a, T u) { return a + u; }
  static T vred(T a, T u) { return a + u; }
  static T step(T acc, T d, T p) { return acc + std::pow(d, p); }
  // std::pow(agg, 1.0 / p): a double power, rounded back to T.
  static T finish(T a, T p) { return static_cast<T>(std::pow(static_cast<double>(a), 1.0 / static_cast<double>(p))); }
};

// Calls f(Norm<T>{}) for the norm of p, as ATen's apply_cdist / apply_pdist choose it.
template <class T, class F>
void withNorm(double p, F&& f) {
  if (p == 0) f(Zero<T>{});
  else if (p == 1) f(One<T>{});
  else if (p == 2) f(Two<T>{});
  else if (std::isinf(p)) f(Inf<T>{});
  else f(General<T>{});
}

template <class T, class N>
void cdistTyped(const Tensor& x1, const Tensor& x2, T p, const Tensor& out) {
  const int64_t r1 = x1.size(1), r2 = x2.size(1), m = x1.size(2);
  const T *a = x1.dataAs<T>(), *b = x2.dataAs<T>();
  T* o = out.dataAs<T>();
  const int64_t pairs = r1 * r2;
  parallelFor(out.numel(), std::max<int64_t>(1, 2048 / std::max<int64_t>(m, 1)), [&](int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; ++k) {
      const int64_t l = k / pairs, i = k % pairs / r2, j = k % r2;
      const T *u = a + (l * r1 + i) * m, *v = b + (l * r2 + j) * m;
      T agg = 0;
      for (int64_t c = 0; c < m; ++c) agg = N::red(agg, N::map(std::abs(u[c] - v[c]), p));
      o[k] = N::finish(agg, p);
    }
  });
}

// map2_reduce_all over AVX2 vectors of W lanes: the first vector's mapped values, then each
// further vector (and the partial last one, in its first lanes) folded in lane by lane, then the
// lanes reduced pairwise (lane l with l + W/2, ...). Fewer than W coordinates: mapped and
// reduced in order.
template <class T, class N>
T pdistPair(const T* a, const T* b, int64_t m, T p) {
  constexpr int64_t W = 32 / sizeof(T);
  const auto diff = [&](int64_t c) { return std::abs(a[c] - b[c]); };
  if (m < W) {
    T s = N::vmap(diff(0), p);
    for (int64_t c = 1; c < m; ++c) s = N::vred(s, N::vmap(diff(c), p));
    return N::finish(s, p);
  }
  T acc[W];
  for (int64_t l = 0; l < W; ++l) acc[l] = N::vmap(diff(l), p);
  int64_t c = W;
  for (; c + W <= m; c += W)
    for (int64_t l = 0; l < W; ++l) acc[l] = N::step(acc[l], diff(c + l), p);
  for (int64_t l = 0; c + l < m; ++l) acc[l] = N::step(acc[l], diff(c + l), p);
  for (int64_t half = W / 2; half >= 1; half /= 2)
    for (int64_t l = 0; l < half; ++l) acc[l] = N::vred(acc[l], acc[l + half]);
  return N::finish(acc[0], p);
}

template <class T, class N>
void pdistTyped(const Tensor& x, T p, const Tensor& out) {
  const int64_t n = x.size(0), m = x.size(1);
  const T* base = x.dataAs<T>();
  T* o = out.dataAs<T>();
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j) o[k++] = pdistPair<T, N>(base + i * m, base + j * m, m, p);
}

// The backward terms (Dist's *::backward), in Vectorized<T> arithmetic order.
template <class T>
T backwardTerm(double p64, T diff, T grad, T dist) {
  const T p = static_cast<T>(p64);
  if (p64 == 0) return 0;
  if (p64 == 1) return grad * sign(diff);
  if (p64 < 2) {  // lttdist_calc
    if (dist == 0 || (diff == 0 && p < 1)) return 0;
    return sign(diff) * std::pow(std::abs(diff), p - T(1)) * grad / std::pow(dist, p - T(1));
  }
  if (p64 == 2) return dist == 0 ? T(0) : grad * diff / dist;
  if (std::isinf(p64))
    return grad * sign(diff) * (T(1) - vecMin(T(1), std::ceil(std::abs(std::abs(diff) - dist))));
  if (dist == 0) return 0;
  return diff * std::pow(std::abs(diff), p - T(2)) * grad / std::pow(dist, p - T(1));
}

template <class T>
void cdistBackwardTyped(const Tensor& grad, const Tensor& x1, const Tensor& x2, double p, const Tensor& dist,
                        const Tensor& out) {
  const int64_t batch = x1.size(0), r1 = x1.size(1), r2 = x2.size(1), m = x1.size(2);
  const T *g = grad.dataAs<T>(), *d = dist.dataAs<T>(), *a = x1.dataAs<T>(), *b = x2.dataAs<T>();
  T* o = out.dataAs<T>();
  parallelFor(batch * r1, std::max<int64_t>(1, 2048 / std::max<int64_t>(r2 * m, 1)), [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const int64_t l = row / r1;
      for (int64_t c = 0; c < m; ++c) {
        T acc = 0;
        for (int64_t j = 0; j < r2; ++j)
          acc = acc + backwardTerm<T>(p, a[row * m + c] - b[(l * r2 + j) * m + c], g[row * r2 + j], d[row * r2 + j]);
        o[row * m + c] = acc;
      }
    }
  });
}

template <class T>
void pdistBackwardTyped(const Tensor& grad, const Tensor& x, double p, const Tensor& dist, const Tensor& out) {
  const int64_t n = x.size(0), m = x.size(1), gs = grad.dim() > 0 ? grad.stride(0) : 1;
  const T *g = grad.dataAs<T>(), *d = dist.dataAs<T>(), *a = x.dataAs<T>();
  T* o = out.dataAs<T>();
  std::fill(o, o + n * m, T(0));
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = i + 1; j < n; ++j, ++k) {
      for (int64_t c = 0; c < m; ++c) {
        const T term = backwardTerm<T>(p, a[i * m + c] - a[j * m + c], g[k * gs], d[k]);
        o[i * m + c] = o[i * m + c] + term;
        o[j * m + c] = o[j * m + c] - term;
      }
    }
  }
}

// Runs f(T{}) for float32 or float64; ATen's dispatch error otherwise.
template <class F>
void floating(DType dtype, const char* kernel, F&& f) {
  if (dtype == DType::Float32) return f(float{});
  if (dtype == DType::Float64) return f(double{});
  FATHOM_CHECK(false, "\"", kernel, "\" not implemented for '", scalarTypeName(dtype), "'");
}

}  // namespace

void cdistDirect(const Tensor& x1, const Tensor& x2, double p, const Tensor& out) {
  floating(out.dtype(), "cdist", [&](auto zero) {
    using T = decltype(zero);
    withNorm<T>(p, [&](auto norm) { cdistTyped<T, decltype(norm)>(x1, x2, static_cast<T>(p), out); });
  });
}

void pdistDirect(const Tensor& x, double p, const Tensor& out) {
  floating(x.dtype(), "pdist", [&](auto zero) {
    using T = decltype(zero);
    withNorm<T>(p, [&](auto norm) { pdistTyped<T, decltype(norm)>(x, static_cast<T>(p), out); });
  });
}

void cdistBackward(const Tensor& grad, const Tensor& x1, const Tensor& x2, double p, const Tensor& dist,
                   const Tensor& out) {
  floating(out.dtype(), "cdist_backward",
           [&](auto zero) { cdistBackwardTyped<decltype(zero)>(grad, x1, x2, p, dist, out); });
}

void pdistBackward(const Tensor& grad, const Tensor& x, double p, const Tensor& dist, const Tensor& out) {
  floating(x.dtype(), "pdist_backward", [&](auto zero) { pdistBackwardTyped<decltype(zero)>(grad, x, p, dist, out); });
}

}  // namespace fathom
