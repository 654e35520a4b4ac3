// im2col / col2im for the convolution kernels, and the geometry they work on.
//
// im2col turns one sample's group of input channels [cg, h, w] into the matrix
// cols[cg * kh * kw, oh * ow] whose column p holds the input patch output pixel p sees (zeros
// for padding), so a convolution becomes weight[og, cg*kh*kw] @ cols; col2im adds such a matrix
// back into the input positions it was read from. im2col / col2im (FoldOps.cpp) run them per sample.
#pragma once

#include <algorithm>
#include <utility>

#include "engine/core/Parallel.h"
#include "engine/ops/layout/ConvolutionLayout.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {

struct ConvGeometry {
  int64_t n = 0, c = 0, h = 0, w = 0;  // input
  int64_t o = 0, oh = 0, ow = 0;       // output
  int64_t kh = 0, kw = 0;
  int64_t sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
  int64_t groups = 1, cg = 0, og = 0;  // channels per group
  int64_t k() const { return cg * kh * kw; }  // rows of cols
  int64_t p() const { return oh * ow; }       // output pixels
  bool depthwise() const { return cg == 1 && groups > 1; }
  // 1x1, unit stride, no padding: cols is the input itself.
  bool pointwise() const { return kh == 1 && kw == 1 && sh == 1 && sw == 1 && ph == 0 && pw == 0; }

  static ConvGeometry of(const Tensor& input, const Tensor& weight, const ConvParams& p) {
    ConvGeometry g;
    g.n = input.size(0), g.c = input.size(1), g.h = input.size(2), g.w = input.size(3);
    g.o = weight.size(0), g.kh = weight.size(2), g.kw = weight.size(3);
    g.sh = p.stride[0], g.sw = p.stride[1], g.ph = p.padding[0], g.pw = p.padding[1];
    g.dh = p.dilation[0], g.dw = p.dilation[1];
    g.oh = (g.h + 2 * g.ph - g.dh * (g.kh - 1) - 1) / g.sh + 1;
    g.ow = (g.w + 2 * g.pw - g.dw * (g.kw - 1) - 1) / g.sw + 1;
    g.groups = p.groups, g.cg = g.c / p.groups, g.og = g.o / p.groups;
    return g;
  }

  // A transposed convolution as the input gradient of its mirror: the convolution whose input has
  // the transposed one's output shape and whose output has its input shape, with the same weight
  // ([in, out / groups, kh, kw] reads as [o, c / groups, kh, kw]).
  static ConvGeometry mirror(const Tensor& input, const Tensor& weight, const Tensor& output, const ConvParams& p) {
    ConvGeometry g;
    g.n = input.size(0), g.c = output.size(1), g.h = output.size(2), g.w = output.size(3);
    g.o = weight.size(0), g.oh = input.size(2), g.ow = input.size(3), g.kh = weight.size(2), g.kw = weight.size(3);
    g.sh = p.stride[0], g.sw = p.stride[1], g.ph = p.padding[0], g.pw = p.padding[1];
    g.dh = p.dilation[0], g.dw = p.dilation[1];
    g.groups = p.groups, g.cg = g.c / p.groups, g.og = g.o / p.groups;
    return g;
  }
};

// First and one-past-last output column whose input column ox * s + off lies in [0, size).
inline std::pair<int64_t, int64_t> validRange(int64_t off, int64_t s, int64_t size, int64_t outSize) {
  const int64_t first = off >= 0 ? 0 : (-off + s - 1) / s;
  const int64_t last = off > size - 1 ? 0 : (size - 1 - off) / s + 1;
  return {std::min(first, outSize), std::clamp(last, std::min(first, outSize), outSize)};
}

// The kernel taps [first, last) whose input coordinate start + tap * dilation lies in [0, size).
inline std::pair<int64_t, int64_t> tapRange(int64_t start, int64_t dilation, int64_t taps, int64_t size) {
  const int64_t first = start >= 0 ? 0 : (-start + dilation - 1) / dilation;
  const int64_t last = start >= size ? 0 : (size - start + dilation - 1) / dilation;
  return {std::min(first, taps), std::clamp(last, std::min(first, taps), taps)};
}

// Rows [rowBegin, rowEnd) of cols for one group of one sample (`x` points at its first channel).
template <class C>
void im2colRows(const C* x, const ConvGeometry& g, C* cols, int64_t rowBegin, int64_t rowEnd) {
  const int64_t P = g.p();
  for (int64_t row = rowBegin; row < rowEnd; ++row) {
    const int64_t kx = row % g.kw, ky = (row / g.kw) % g.kh, ci = row / (g.kw * g.kh);
    const int64_t offX = kx * g.dw - g.pw;
    const auto [x0, x1] = validRange(offX, g.sw, g.w, g.ow);
    C* dst = cols + row * P;
    for (int64_t oy = 0; oy < g.oh; ++oy, dst += g.ow) {
      const int64_t iy = oy * g.sh - g.ph + ky * g.dh;
      if (iy < 0 || iy >= g.h) {
        std::fill(dst, dst + g.ow, C(0));
        continue;
      }
      const C* src = x + (ci * g.h + iy) * g.w;  // input row; column ox reads src[ox * sw + offX]
      std::fill(dst, dst + x0, C(0));
      if (g.sw == 1 && x0 < x1) std::copy(src + (x0 + offX), src + (x1 + offX), dst + x0);
      else for (int64_t ox = x0; ox < x1; ++ox) dst[ox] = src[ox * g.sw + offX];
      std::fill(dst + x1, dst + g.ow, C(0));
    }
  }
}

// Whole cols for one group of one sample; rows run in parallel when `parallel`.
template <class C>
void im2col(const C* x, const ConvGeometry& g, C* cols, bool parallel) {
  if (!parallel) return im2colRows(x, g, cols, 0, g.k());
  parallelFor(g.k(), std::max<int64_t>(1, 16384 / std::max<int64_t>(g.p(), 1)),
              [&](int64_t b, int64_t e) { im2colRows(x, g, cols, b, e); });
}

// x += col2im(cols): each cols entry adds into the input element it was read from, row by row as
// ATen's col2im adds them (a 16-bit float C rounds after every addition, as c10::Half's do).
template <class C>
void col2imAdd(const C* cols, const ConvGeometry& g, C* x) {
  const int64_t P = g.p();
  for (int64_t row = 0; row < g.k(); ++row) {
    const int64_t kx = row % g.kw, ky = (row / g.kw) % g.kh, ci = row / (g.kw * g.kh);
    const int64_t offX = kx * g.dw - g.pw;
    const auto [x0, x1] = validRange(offX, g.sw, g.w, g.ow);
    const C* src = cols + row * P;
    for (int64_t oy = 0; oy < g.oh; ++oy, src += g.ow) {
      const int64_t iy = oy * g.sh - g.ph + ky * g.dh;
      if (iy < 0 || iy >= g.h) continue;
      C* dst = x + (ci * g.h + iy) * g.w;
      for (int64_t ox = x0; ox < x1; ++ox) {
        C& d = dst[ox * g.sw + offX];
        d = static_cast<C>(static_cast<OpMath<C>>(d) + static_cast<OpMath<C>>(src[ox]));
      }
    }
  }
}

}  // namespace fathom
