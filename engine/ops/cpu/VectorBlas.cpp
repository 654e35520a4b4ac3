// ATen 1.13's axpy and dot (see VectorBlas.h).
#include "engine/ops/cpu/VectorBlas.h"

#include <cblas.h>

#include <cmath>

#include "engine/core/Error.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

// ATen passes unit strides for a single element (BLAS rejects some strides there).
void unitForOne(int64_t n, int64_t& incx, int64_t& incy) {
  if (n == 1) incx = incy = 1;
}

}  // namespace

void axpy(DType dtype, int64_t n, double alpha, const void* x, int64_t incx, void* y, int64_t incy) {
  if (n <= 0) return;
  unitForOne(n, incx, incy);
  if (dtype == DType::Float32)
    return cblas_saxpy(static_cast<int>(n), static_cast<float>(alpha), static_cast<const float*>(x),
                       static_cast<int>(incx), static_cast<float*>(y), static_cast<int>(incy));
  if (dtype == DType::Float64)
    return cblas_daxpy(static_cast<int>(n), alpha, static_cast<const double*>(x), static_cast<int>(incx),
                       static_cast<double*>(y), static_cast<int>(incy));
  dispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsReducedFloat<T>) {
      // cpublas_axpy_impl: y += a * x in float (its AVX2 build fuses the two), a rounded to T first.
      const float a = static_cast<float>(T(static_cast<float>(alpha)));
      const T* xs = static_cast<const T*>(x);
      T* ys = static_cast<T*>(y);
      for (int64_t i = 0; i < n; ++i)
        ys[i * incy] = T(std::fma(a, static_cast<float>(xs[i * incx]), static_cast<float>(ys[i * incy])));
    } else {
      FATHOM_CHECK(false, "axpy: unsupported dtype ", dtypeName(dtype));
    }
  });
}

double dot(DType dtype, int64_t n, const void* x, int64_t incx, const void* y, int64_t incy) {
  if (n <= 0) return 0;
  unitForOne(n, incx, incy);
  if (dtype == DType::Float32)
    return cblas_sdot(static_cast<int>(n), static_cast<const float*>(x), static_cast<int>(incx),
                      static_cast<const float*>(y), static_cast<int>(incy));
  if (dtype == DType::Float64)
    return cblas_ddot(static_cast<int>(n), static_cast<const double*>(x), static_cast<int>(incx),
                      static_cast<const double*>(y), static_cast<int>(incy));
  return dispatchDType(dtype, [&](auto tag) -> double {
    using T = typename decltype(tag)::type;
    if constexpr (kIsReducedFloat<T>) {
      // dot_naive in T's own arithmetic: each product and each partial sum rounded to T.
      const T* xs = static_cast<const T*>(x);
      const T* ys = static_cast<const T*>(y);
      T sum = T(0.0f);
      for (int64_t i = 0; i < n; ++i) {
        const T product = T(static_cast<float>(xs[i * incx]) * static_cast<float>(ys[i * incy]));
        sum = T(static_cast<float>(sum) + static_cast<float>(product));
      }
      return static_cast<float>(sum);
    } else {
      FATHOM_CHECK(false, "dot: unsupported dtype ", dtypeName(dtype));
      return 0;
    }
  });
}

}  // namespace fathom
