// im2col / col2im for the convolution kernels, and the geometry they work on.
//
// im2col turns one sample's group of input channels [cg, d, h, w] into the matrix
// cols[cg * kd * kh * kw, od * oh * ow] whose column p holds the input patch output pixel p sees
// (zeros for padding; a 2-d convolution has d = od = kd = 1; for 3-d this is ATen's vol2col),
// so a convolution becomes weight[og, k()] @ cols; col2im adds such a matrix back into the input
// positions it was read from. im2col / col2im (FoldOps.cpp) run them per sample.
#pragma once

#include <algorithm>
#include <array>
#include <utility>

#include "engine/core/Parallel.h"
#include "engine/ops/layout/ConvolutionLayout.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {

struct ConvGeometry {
  // A 2-d convolution has depth 1 everywhere (d, od, kd = 1, sd = dd = 1, pd = 0): 2-d callers
  // (FoldOps.cpp) fill in the 2-d fields only.
  int64_t n = 0, c = 0, d = 1, h = 0, w = 0;  // input
  int64_t o = 0, od = 1, oh = 0, ow = 0;      // output
  int64_t kd = 1, kh = 0, kw = 0;
  int64_t sd = 1, sh = 1, sw = 1, pd = 0, ph = 0, pw = 0, dd = 1, dh = 1, dw = 1;
  int64_t groups = 1, cg = 0, og = 0;  // channels per group
  int64_t k() const { return cg * kd * kh * kw; }  // rows of cols
  int64_t p() const { return od * oh * ow; }        // output pixels
  int64_t inPlane() const { return d * h * w; }     // input pixels per channel
  // No depth to speak of: the direct depthwise loops, written for 2-d, apply.
  bool flat() const { return d == 1 && kd == 1 && pd == 0; }
  bool depthwise() const { return cg == 1 && groups > 1 && flat(); }
  // 1x1(x1), unit stride, no padding: cols is the input itself.
  bool pointwise() const {
    return kd == 1 && kh == 1 && kw == 1 && sd == 1 && sh == 1 && sw == 1 && pd == 0 && ph == 0 && pw == 0;
  }

  static ConvGeometry of(const Tensor& input, const Tensor& weight, const ConvParams& p) {
    ConvGeometry g;
    g.n = input.size(0), g.c = input.size(1), g.o = weight.size(0);
    g.setSpatial(input, weight, p);
    g.od = (g.d + 2 * g.pd - g.dd * (g.kd - 1) - 1) / g.sd + 1;
    g.oh = (g.h + 2 * g.ph - g.dh * (g.kh - 1) - 1) / g.sh + 1;
    g.ow = (g.w + 2 * g.pw - g.dw * (g.kw - 1) - 1) / g.sw + 1;
    return g;
  }

  // A transposed convolution as the input gradient of its mirror: the convolution whose input has
  // the transposed one's output shape and whose output has its input shape, with the same weight
  // ([in, out / groups, k...] reads as [o, c / groups, k...]).
  static ConvGeometry mirror(const Tensor& input, const Tensor& weight, const Tensor& output, const ConvParams& p) {
    ConvGeometry g;
    g.n = input.size(0), g.c = output.size(1), g.o = weight.size(0);
    g.setSpatial(output, weight, p);
    const auto [od, oh, ow] = spatialSizes(input);
    g.od = od, g.oh = oh, g.ow = ow;
    return g;
  }

 private:
  // (depth, height, width) of a 4-d (depth 1) or 5-d tensor.
  static std::array<int64_t, 3> spatialSizes(const Tensor& t) {
    if (t.dim() == 5) return {t.size(2), t.size(3), t.size(4)};
    return {1, t.size(2), t.size(3)};
  }
  // Input and kernel extents, and the parameters (2 entries for 2-d, 3 for 3-d).
  void setSpatial(const Tensor& input, const Tensor& weight, const ConvParams& p) {
    const std::array<int64_t, 3> in = spatialSizes(input), k = spatialSizes(weight);
    d = in[0], h = in[1], w = in[2], kd = k[0], kh = k[1], kw = k[2];
    const size_t z = p.stride.size() == 3 ? 1 : 0;
    if (z) sd = p.stride[0], pd = p.padding[0], dd = p.dilation[0];
    sh = p.stride[z], sw = p.stride[z + 1], ph = p.padding[z], pw = p.padding[z + 1];
    dh = p.dilation[z], dw = p.dilation[z + 1];
    groups = p.groups, cg = c / p.groups, og = o / p.groups;
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
// A row is one (channel, kz, ky, kx) tap; its columns run over the output's (oz, oy, ox).
template <class C>
void im2colRows(const C* x, const ConvGeometry& g, C* cols, int64_t rowBegin, int64_t rowEnd) {
  const int64_t P = g.p(), plane = g.oh * g.ow;
  for (int64_t row = rowBegin; row < rowEnd; ++row) {
    const int64_t kx = row % g.kw, ky = (row / g.kw) % g.kh, kz = (row / (g.kw * g.kh)) % g.kd;
    const int64_t ci = row / (g.kw * g.kh * g.kd);
    const int64_t offX = kx * g.dw - g.pw;
    const auto [x0, x1] = validRange(offX, g.sw, g.w, g.ow);
    C* dst = cols + row * P;
    for (int64_t oz = 0; oz < g.od; ++oz) {
      const int64_t iz = oz * g.sd - g.pd + kz * g.dd;
      if (iz < 0 || iz >= g.d) {
        std::fill(dst, dst + plane, C(0));
        dst += plane;
        continue;
      }
      for (int64_t oy = 0; oy < g.oh; ++oy, dst += g.ow) {
        const int64_t iy = oy * g.sh - g.ph + ky * g.dh;
        if (iy < 0 || iy >= g.h) {
          std::fill(dst, dst + g.ow, C(0));
          continue;
        }
        const C* src = x + ((ci * g.d + iz) * g.h + iy) * g.w;  // column ox reads src[ox * sw + offX]
        std::fill(dst, dst + x0, C(0));
        if (g.sw == 1 && x0 < x1) std::copy(src + (x0 + offX), src + (x1 + offX), dst + x0);
        else for (int64_t ox = x0; ox < x1; ++ox) dst[ox] = src[ox * g.sw + offX];
        std::fill(dst + x1, dst + g.ow, C(0));
      }
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
// ATen's col2im / col2vol add them (a 16-bit float C rounds after every addition, as c10::Half's do).
template <class C>
void col2imAdd(const C* cols, const ConvGeometry& g, C* x) {
  const int64_t P = g.p();
  for (int64_t row = 0; row < g.k(); ++row) {
    const int64_t kx = row % g.kw, ky = (row / g.kw) % g.kh, kz = (row / (g.kw * g.kh)) % g.kd;
    const int64_t ci = row / (g.kw * g.kh * g.kd);
    const int64_t offX = kx * g.dw - g.pw;
    const auto [x0, x1] = validRange(offX, g.sw, g.w, g.ow);
    const C* src = cols + row * P;
    for (int64_t oz = 0; oz < g.od; ++oz) {
      const int64_t iz = oz * g.sd - g.pd + kz * g.dd;
      for (int64_t oy = 0; oy < g.oh; ++oy, src += g.ow) {
        const int64_t iy = oy * g.sh - g.ph + ky * g.dh;
        if (iz < 0 || iz >= g.d || iy < 0 || iy >= g.h) continue;
        C* dst = x + ((ci * g.d + iz) * g.h + iy) * g.w;
        for (int64_t ox = x0; ox < x1; ++ox) {
          C& t = dst[ox * g.sw + offX];
          t = static_cast<C>(static_cast<OpMath<C>>(t) + static_cast<OpMath<C>>(src[ox]));
        }
      }
    }
  }
}

}  // namespace fathom
