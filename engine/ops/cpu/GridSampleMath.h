// The per-point arithmetic of grid_sampler_2d and its backward, as PyTorch 1.13's vectorized CPU
// kernel (aten/src/ATen/native/cpu/GridSamplerKernel.cpp) computes each lane: where a grid value
// lands in the input (un-normalization, then border clipping or reflection) and the bicubic
// coefficients, in the element type (float or double).
//
// 1.13's kernel differs from the scalar formula PyTorch documents in two ways this file keeps:
//   - its own expressions: (g + 1) * (size / 2) - 0.5 rather than ((g + 1) * size - 1) / 2;
//   - fused multiply-adds: PyTorch's AVX2 kernels are built by GCC with -mfma and GCC's default
//     -ffp-contract=fast, which turns a product feeding an addition into one fma (the product
//     evaluated first: in `p + q` of two products, q, as GCC evaluates operands right to left).
//     std::fma stands wherever GCC fused; a product by an exact constant (5 * A) fused into an
//     addition gives the same bits either way and is written plainly.
// Matching them makes float32 results bit for bit 1.13's on an AVX2 CPU.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

namespace fathom {

enum class GridInterp : int64_t { Bilinear = 0, Nearest = 1, Bicubic = 2 };
enum class GridPadding : int64_t { Zeros = 0, Border = 1, Reflection = 2 };

// AVX's minimum / maximum as ATen's Vectorized wraps them: NaN in either operand gives NaN.
template <class T> T vecMinimum(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
  return a < b ? a : b;
}
template <class T> T vecMaximum(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
  return a > b ? a : b;
}

// convert_to_int_of_same_size: truncation to int32 (float) or int64 (double); NaN and values out
// of range give the lowest integer, as cvttps2dq / cvttsd2si do.
template <class T>
using GridInt = std::conditional_t<std::is_same_v<T, float>, int32_t, int64_t>;
template <class T> GridInt<T> toGridInt(T v) {
  using I = GridInt<T>;
  constexpr T lo = static_cast<T>(std::numeric_limits<I>::min());  // -2^31 or -2^63, exact
  if (!(v >= lo && v < -lo)) return std::numeric_limits<I>::min();
  return static_cast<I>(v);
}

// One spatial dim of `size` input pixels: ComputeLocation<T, padding, align_corners>.
template <class T>
struct GridAxis {
  T maxVal, scale, low, twiceSpan;
  bool empty, align;
  GridPadding padding;

  GridAxis(int64_t size, bool alignCorners, GridPadding pad)
      : maxVal(static_cast<T>(size - 1)),
        scale(alignCorners ? static_cast<T>(size - 1) / T(2) : static_cast<T>(size) / T(2)),
        low(alignCorners ? T(0) : T(-0.5)),
        twiceSpan(alignCorners ? static_cast<T>(size - 1) * T(2) : static_cast<T>(size) * T(2)),
        empty(alignCorners ? size <= 1 : size <= 0),
        align(alignCorners),
        padding(pad) {}

  T unnormalize(T in) const { return align ? (in + T(1)) * scale : std::fma(in + T(1), scale, T(-0.5)); }

  // clamp_max(max, clamp_min(0, in)): NaN becomes 0.
  T clip(T in) const {
    const T lo = in > T(0) ? in : T(0);
    return lo < maxVal ? lo : maxVal;
  }

  // The coordinate reflected into [low, low + span]; `flipped` says whether the reflection
  // reverses direction (the gradient's sign).
  T reflect(T in, bool* flipped = nullptr) const {
    if (align && empty) {
      if (flipped) *flipped = false;
      return T(0);
    }
    const T shifted = in - low;
    const T absIn = std::fabs(shifted);
    const T doubleFlips = std::trunc(absIn / twiceSpan);
    const T extra = std::fma(-doubleFlips, twiceSpan, absIn);
    const T reflected = twiceSpan - extra;
    if (flipped) *flipped = (extra > reflected) != (shifted < T(0));
    return vecMinimum(extra, reflected) + low;
  }

  // compute_coordinates: the padding alone (bicubic applies it to each tap).
  T pad(T in) const {
    switch (padding) {
      case GridPadding::Zeros: return in;
      case GridPadding::Border: return clip(in);
      case GridPadding::Reflection: return clip(reflect(in));
    }
    return in;
  }

  // apply: un-normalize, then pad.
  T apply(T grid) const { return pad(unnormalize(grid)); }

  // apply_get_grad: the coordinate and d coordinate / d grid. Clipping passes no gradient where
  // it bites, nor exactly at the borders (0 and max count as out of bounds). A NaN coordinate
  // (a NaN grid value, or an infinite one reflected) becomes the forward's, 0, with no gradient:
  // 1.13 keeps the NaN there and reads outside the input (it crashes).
  std::pair<T, T> applyGetGrad(T grid) const {
    T x = unnormalize(grid);
    if (padding == GridPadding::Zeros) return {x, scale};
    T mult = scale;
    if (padding == GridPadding::Reflection) {
      if (align && empty) return {T(0), T(0)};
      bool flipped = false;
      x = reflect(x, &flipped);
      mult = (flipped ? T(-1) : T(1)) * scale;
    }
    const T boundedLo = vecMaximum(x, T(0));
    const T res = vecMinimum(boundedLo, maxVal);
    if (std::isnan(res)) return {T(0), T(0)};
    const bool inside = !sameBits(boundedLo, T(0)) && !sameBits(res, maxVal);
    return {res, inside ? mult : T(0)};
  }

  static bool sameBits(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }
};

// Bicubic convolution coefficients (A = -0.75) of the four taps around a point at fraction t
// past its floor, and their derivatives in t.
template <class T>
void cubicCoefficients(T (&c)[4], T t) {
  const T A = T(-0.75);
  // ((A * x - 5A) * x + 8A) * x - 4A: only the exact constant products fuse.
  const auto outer = [A](T x) { return ((A * x - T(5) * A) * x + T(8) * A) * x - T(4) * A; };
  // ((A + 2) * x - (A + 3)) * x * x + 1: both of its products feeding a sum fuse.
  const auto inner = [A](T x) { return std::fma(std::fma(A + T(2), x, -(A + T(3))) * x, x, T(1)); };
  c[0] = outer(t + T(1));
  c[1] = inner(t);
  c[2] = inner(T(1) - t);
  c[3] = outer(T(2) - t);
}

template <class T>
void cubicCoefficientsGrad(T (&c)[4], T t) {
  const T A = T(-0.75);
  T x = T(-1) - t;
  c[0] = (T(-3) * A * x - T(10) * A) * x - T(8) * A;
  x = T(0) - t;
  c[1] = (T(-3) * (A + T(2)) * x - T(2) * (A + T(3))) * x;
  x = T(1) - t;
  c[2] = (T(3) * (A + T(2)) * x - T(2) * (A + T(3))) * x;
  x = T(2) - t;
  c[3] = (T(3) * A * x - T(10) * A) * x + T(8) * A;
}

}  // namespace fathom
