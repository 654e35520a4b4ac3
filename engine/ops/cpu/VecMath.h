// Four-float SSE vectors for the float32 fast paths of softmax and layer_norm, written with the
// GCC/Clang vector extensions. The default build (-O2, baseline x86-64) neither vectorizes loops
// whose trip count is unknown nor calls a vector expf, so the row kernels use these explicitly.
// Four lanes, not eight: without AVX, GCC lowers 32-byte vector comparisons to scalar code.
//
// expVec is the Cephes expf polynomial (about 1 ulp, like the Sleef expf PyTorch uses), with the
// range handling trimmed to what softmax needs.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>

namespace fathom::vec {

using Float4 = float __attribute__((vector_size(16)));
using Int4 = int32_t __attribute__((vector_size(16)));
using Double2 = double __attribute__((vector_size(16)));
using Double4 = double __attribute__((vector_size(32)));  // only inside functions: no SSE register holds it
inline constexpr int64_t kLanes = 4;

inline Float4 load(const float* p) {
  Float4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(float* p, Float4 v) { std::memcpy(p, &v, sizeof v); }
inline Float4 splat(float x) { return Float4{} + x; }
inline Double2 load(const double* p) {
  Double2 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(double* p, Double2 v) { std::memcpy(p, &v, sizeof v); }
inline Double2 lowToDouble(Float4 v) { return __builtin_convertvector(__builtin_shufflevector(v, v, 0, 1), Double2); }
inline Double2 highToDouble(Float4 v) { return __builtin_convertvector(__builtin_shufflevector(v, v, 2, 3), Double2); }

// a * b + c rounded once to float, as the FMA instructions PyTorch's AVX2 kernels are compiled
// to give: the product of two floats is exact in double. (Baseline x86-64 has no FMA, and a
// software fmaf per element would be far slower.)
inline Float4 fusedMulAdd(Float4 a, Float4 b, Float4 c) {
  const Double4 r = __builtin_convertvector(a, Double4) * __builtin_convertvector(b, Double4) +
                    __builtin_convertvector(c, Double4);
  return __builtin_convertvector(r, Float4);
}
inline float fusedMulAdd(float a, float b, float c) {
  return static_cast<float>(static_cast<double>(a) * static_cast<double>(b) + static_cast<double>(c));
}

inline float sumLanes(Float4 v) {
  float s = 0;
  for (int i = 0; i < kLanes; ++i) s += v[i];
  return s;
}

// mask ? a : b per lane, with a comparison's all-ones / all-zeros lanes as the mask. Written
// with bit operations: GCC turns vector ?: into per-lane scalar code here.
inline Float4 select(Int4 mask, Float4 a, Float4 b) { return (Float4)(((Int4)a & mask) | ((Int4)b & ~mask)); }

// The larger of a and b per lane; a NaN in b is skipped (callers that must see NaN check apart).
inline Float4 max(Float4 a, Float4 b) { return select(b > a, b, a); }
inline float maxLanes(Float4 v) {
  float m = v[0];
  for (int i = 1; i < kLanes; ++i) m = v[i] > m ? v[i] : m;
  return m;
}

// e^x per lane. Results that would be subnormal (x < -87.34) flush to 0, as does -inf; NaN
// stays NaN; x > 88.37 gives inf (slightly early: exp(88.72) is the largest float). Softmax only
// passes x - max <= 0, where this is within 2 ulp and 0 below e^-87 (PyTorch: a subnormal).
inline Float4 expVec(Float4 x) {
  const Float4 lo = splat(-87.3365447f), hi = splat(88.3762626f);
  const Int4 under = x < lo, over = x > hi;
  x = select(under, lo, x);
  x = select(over, hi, x);
  // x = n*ln2 + r with n = round(x / ln2) (the 1.5 * 2^23 trick), |r| <= ln2/2; ln2 is split in
  // two so n*ln2 is exact.
  const Float4 magic = splat(12582912.0f);
  const Float4 t = x * 1.44269504088896341f + magic;
  const Float4 n = t - magic;
  const Int4 ni = (Int4)t - (Int4)magic;
  Float4 r = x - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  const Float4 z = r * r;
  Float4 y = splat(1.9875691500e-4f);
  y = y * r + 1.3981999507e-3f;
  y = y * r + 8.3334519073e-3f;
  y = y * r + 4.1665795894e-2f;
  y = y * r + 1.6666665459e-1f;
  y = y * r + 5.0000001201e-1f;
  y = y * z + r + 1.0f;
  y = y * (Float4)((ni + 127) << 23);  // n >= -126: 2^n is a normal float
  y = select(over, splat(std::numeric_limits<float>::infinity()), y);
  return select(under, splat(0.0f), y);
}

}  // namespace fathom::vec
