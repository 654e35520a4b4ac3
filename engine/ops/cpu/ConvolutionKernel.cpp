// Convolution forward kernel (see ConvolutionKernel.h).
#include "engine/ops/cpu/ConvolutionKernel.h"

#include "engine/ops/cpu/ConvolutionDense.h"
#include "engine/ops/cpu/ConvolutionIm2col.h"
#include "engine/ops/cpu/Gemm.h"

namespace fathom {
namespace {

// Depthwise: output channel oc reads input channel oc / og only; a direct loop beats a GEMM
// with one input channel per group. Tap ranges are clipped per output row and column up front,
// so the inner loops run without bounds checks.
template <class C>
void depthwiseForward(const C* x, const C* w, const C* bias, const ConvGeometry& g, C* y) {
  const int64_t P = g.p();
  std::vector<std::pair<int64_t, int64_t>> colTaps(static_cast<size_t>(g.ow));
  for (int64_t ox = 0; ox < g.ow; ++ox) colTaps[ox] = tapRange(ox * g.sw - g.pw, g.dw, g.kw, g.w);
  parallelFor(g.n * g.o, std::max<int64_t>(1, 4096 / std::max<int64_t>(P * g.kh * g.kw, 1)), [&](int64_t b, int64_t e) {
    for (int64_t idx = b; idx < e; ++idx) {
      const int64_t n = idx / g.o, oc = idx % g.o;
      const C* xp = x + (n * g.c + oc / g.og) * g.h * g.w;
      const C* wp = w + oc * g.kh * g.kw;
      C* yp = y + idx * P;
      for (int64_t oy = 0; oy < g.oh; ++oy) {
        const int64_t y0 = oy * g.sh - g.ph;
        const auto [ky0, ky1] = tapRange(y0, g.dh, g.kh, g.h);
        for (int64_t ox = 0; ox < g.ow; ++ox) {
          const int64_t x0 = ox * g.sw - g.pw;
          const auto [kx0, kx1] = colTaps[ox];
          C sum = 0;
          for (int64_t ky = ky0; ky < ky1; ++ky) {
            const C* row = xp + (y0 + ky * g.dh) * g.w;
            const C* taps = wp + ky * g.kw;
            for (int64_t kx = kx0; kx < kx1; ++kx) sum = mulAdd(sum, row[x0 + kx * g.dw], taps[kx]);
          }
          yp[oy * g.ow + ox] = bias ? mulAdd(bias[oc], sum, C(1)) : sum;
        }
      }
    }
  });
}

// y[n, group] = weight[group] @ im2col(x[n, group]) (+ bias), per sample and group.
template <class C>
void gemmForward(const C* x, const C* w, const C* bias, const ConvGeometry& g, C* y) {
  const int64_t K = g.k(), P = g.p();
  const auto sample = [&](int64_t n, std::vector<C>& cols, bool parallelIm2col) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const C* xg = x + (n * g.c + grp * g.cg) * g.inPlane();
      if (!g.pointwise()) im2col(xg, g, cols.data(), parallelIm2col);
      const C* colsData = g.pointwise() ? xg : cols.data();
      C* yg = y + (n * g.o + grp * g.og) * P;
      if (bias)
        for (int64_t r = 0; r < g.og; ++r) std::fill(yg + r * P, yg + (r + 1) * P, bias[grp * g.og + r]);
      gemm(computeDType<C>(), MatrixView{const_cast<C*>(w + grp * g.og * K), g.og, K, K, 1},
           MatrixView{const_cast<C*>(colsData), K, P, P, 1}, MatrixView{yg, g.og, P, P, 1}, 1.0, bias ? 1.0 : 0.0);
    }
  };
  const size_t colsSize = g.pointwise() ? 0 : static_cast<size_t>(K * P);
  if (g.n == 1) {  // one sample: im2col rows in parallel, the GEMM threads itself
    std::vector<C> cols(colsSize);
    sample(0, cols, true);
    return;
  }
  parallelFor(g.n, 1, [&](int64_t b, int64_t e) {
    std::vector<C> cols(colsSize);
    for (int64_t n = b; n < e; ++n) sample(n, cols, false);
  });
}

template <class C>
void forwardTyped(const Tensor& input, const Tensor& weight, const Tensor* bias, const ConvGeometry& g,
                  const Tensor& out) {
  const DenseInput<C> x(input), w(weight);
  const std::vector<C> b = bias ? loadDense<C>(*bias) : std::vector<C>{};
  DenseOutput<C> y(out, false);
  const C* bp = bias ? b.data() : nullptr;
  if (g.depthwise()) depthwiseForward(x.data, w.data, bp, g, y.data);
  else gemmForward(x.data, w.data, bp, g, y.data);
  y.finish();
}

}  // namespace

void convolutionForward(const Tensor& input, const Tensor& weight, const Tensor* bias, const ConvParams& params,
                        const Tensor& out) {
  convolutionForwardWith(ConvGeometry::of(input, weight, params), input, weight, bias, out);
}

void convolutionForwardWith(const ConvGeometry& g, const Tensor& input, const Tensor& weight, const Tensor* bias,
                            const Tensor& out) {
  if (out.numel() == 0) return;
  dispatchDType(input.dtype(), [&](auto tag) {
    forwardTyped<ConvCompute<typename decltype(tag)::type>>(input, weight, bias, g, out);
  });
}

}  // namespace fathom
