// Convolution backward kernel (see ConvolutionKernel.h): grad_bias sums grad_output per channel;
// grad_weight[group] = sum_n grad_output[n, group] @ im2col(input[n, group])^T; grad_input[n]
// is col2im(weight[group]^T @ grad_output[n, group]). Depthwise convolutions use direct loops.
#include "engine/core/Error.h"
#include "engine/ops/cpu/ConvolutionDense.h"
#include "engine/ops/cpu/ConvolutionIm2col.h"
#include "engine/ops/cpu/ConvolutionKernel.h"
#include "engine/ops/cpu/Gemm.h"
#include "engine/ops/OpArgs.h"

namespace fathom {
namespace {

template <class C>
MatrixView matrix(const C* data, int64_t rows, int64_t cols, int64_t rowStride, int64_t colStride) {
  return MatrixView{const_cast<C*>(data), rows, cols, rowStride, colStride};
}

// Per channel, the sum of a dense [n, channels, plane] array (the bias gradient).
template <class C>
std::vector<C> channelSums(const C* data, int64_t n, int64_t channels, int64_t plane) {
  std::vector<C> sums(static_cast<size_t>(channels));
  parallelFor(channels, 1, [&](int64_t b, int64_t e) {
    for (int64_t ch = b; ch < e; ++ch) {
      double sum = 0;
      for (int64_t i = 0; i < n; ++i)
        for (const C* p = data + (i * channels + ch) * plane, *end = p + plane; p < end; ++p) sum += static_cast<double>(*p);
      sums[ch] = static_cast<C>(sum);
    }
  });
  return sums;
}

template <class C>
std::vector<C> biasGrad(const C* gy, const ConvGeometry& g) {
  return channelSums(gy, g.n, g.o, g.p());
}

template <class C>
void depthwiseWeightGrad(const C* x, const C* gy, const ConvGeometry& g, C* gw) {
  parallelFor(g.o, 1, [&](int64_t b, int64_t e) {
    for (int64_t oc = b; oc < e; ++oc) {
      for (int64_t ky = 0; ky < g.kh; ++ky) {
        for (int64_t kx = 0; kx < g.kw; ++kx) {
          C sum = 0;
          for (int64_t n = 0; n < g.n; ++n) {
            const C* xp = x + (n * g.c + oc / g.og) * g.h * g.w;
            const C* gp = gy + (n * g.o + oc) * g.p();
            for (int64_t oy = 0; oy < g.oh; ++oy) {
              const int64_t iy = oy * g.sh - g.ph + ky * g.dh;
              if (iy < 0 || iy >= g.h) continue;
              for (int64_t ox = 0; ox < g.ow; ++ox) {
                const int64_t ix = ox * g.sw - g.pw + kx * g.dw;
                if (ix >= 0 && ix < g.w) sum += gp[oy * g.ow + ox] * xp[iy * g.w + ix];
              }
            }
          }
          gw[(oc * g.kh + ky) * g.kw + kx] = sum;
        }
      }
    }
  });
}

template <class C>
void depthwiseInputGrad(const C* w, const C* gy, const ConvGeometry& g, C* gx) {
  parallelFor(g.n * g.c, 1, [&](int64_t b, int64_t e) {
    for (int64_t idx = b; idx < e; ++idx) {
      const int64_t n = idx / g.c, ci = idx % g.c;
      C* xp = gx + idx * g.h * g.w;
      for (int64_t oc = ci * g.og; oc < (ci + 1) * g.og; ++oc) {
        const C* gp = gy + (n * g.o + oc) * g.p();
        const C* wp = w + oc * g.kh * g.kw;
        for (int64_t oy = 0; oy < g.oh; ++oy) {
          for (int64_t ky = 0; ky < g.kh; ++ky) {
            const int64_t iy = oy * g.sh - g.ph + ky * g.dh;
            if (iy < 0 || iy >= g.h) continue;
            for (int64_t ox = 0; ox < g.ow; ++ox) {
              const C go = gp[oy * g.ow + ox];
              for (int64_t kx = 0; kx < g.kw; ++kx) {
                const int64_t ix = ox * g.sw - g.pw + kx * g.dw;
                if (ix >= 0 && ix < g.w) xp[iy * g.w + ix] += go * wp[ky * g.kw + kx];
              }
            }
          }
        }
      }
    }
  });
}

// grad_weight[group] (og x K) = sum over samples of grad_output[n, group] (og x P) @ cols^T.
template <class C>
void gemmWeightGrad(const C* x, const C* gy, const ConvGeometry& g, C* gw) {
  const int64_t K = g.k(), P = g.p();
  const auto group = [&](int64_t grp, std::vector<C>& cols, bool parallelIm2col) {
    for (int64_t n = 0; n < g.n; ++n) {
      const C* xg = x + (n * g.c + grp * g.cg) * g.inPlane();
      if (!g.pointwise()) im2col(xg, g, cols.data(), parallelIm2col);
      const C* colsData = g.pointwise() ? xg : cols.data();
      gemm(computeDType<C>(), matrix(gy + (n * g.o + grp * g.og) * P, g.og, P, P, 1), matrix(colsData, P, K, 1, P),
           matrix(gw + grp * g.og * K, g.og, K, K, 1), 1.0, n == 0 ? 0.0 : 1.0);
    }
  };
  const size_t colsSize = g.pointwise() ? 0 : static_cast<size_t>(K * P);
  if (g.groups == 1) {
    std::vector<C> cols(colsSize);
    group(0, cols, true);
    return;
  }
  parallelFor(g.groups, 1, [&](int64_t b, int64_t e) {
    std::vector<C> cols(colsSize);
    for (int64_t grp = b; grp < e; ++grp) group(grp, cols, false);
  });
}

// grad_input[n, group] = col2im(weight[group]^T (K x og) @ grad_output[n, group] (og x P)).
template <class C>
void gemmInputGrad(const C* w, const C* gy, const ConvGeometry& g, C* gx) {
  const int64_t K = g.k(), P = g.p();
  const auto sample = [&](int64_t n, std::vector<C>& cols) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      C* xg = gx + (n * g.c + grp * g.cg) * g.inPlane();
      C* target = g.pointwise() ? xg : cols.data();  // 1x1: cols is the input gradient itself
      gemm(computeDType<C>(), matrix(w + grp * g.og * K, K, g.og, 1, K), matrix(gy + (n * g.o + grp * g.og) * P, g.og, P, P, 1),
           matrix(target, K, P, P, 1), 1.0, 0.0);
      if (!g.pointwise()) col2imAdd(cols.data(), g, xg);
    }
  };
  const size_t colsSize = g.pointwise() ? 0 : static_cast<size_t>(K * P);
  parallelFor(g.n, 1, [&](int64_t b, int64_t e) {
    std::vector<C> cols(colsSize);
    for (int64_t n = b; n < e; ++n) sample(n, cols);
  });
}

template <class C>
void backwardTyped(const Tensor& gradOutput, const Tensor& input, const Tensor& weight, const ConvGeometry& g,
                   const ConvGradOutputs& grads) {
  const DenseInput<C> gy(gradOutput);
  if (grads.bias) storeDense(biasGrad(gy.data, g).data(), *grads.bias);
  if (grads.weight) {
    const DenseInput<C> x(input);
    DenseOutput<C> gw(*grads.weight, false);
    if (g.depthwise()) depthwiseWeightGrad(x.data, gy.data, g, gw.data);
    else gemmWeightGrad(x.data, gy.data, g, gw.data);
    gw.finish();
  }
  if (grads.input) {
    const DenseInput<C> w(weight);
    DenseOutput<C> gx(*grads.input, true);  // col2im accumulates
    if (g.depthwise()) depthwiseInputGrad(w.data, gy.data, g, gx.data);
    else gemmInputGrad(w.data, gy.data, g, gx.data);
    gx.finish();
  }
}

// ---- transposed convolution (the input gradient of its mirror, see ConvolutionKernel.h) ----

template <class C>
void transposeForwardTyped(const Tensor& input, const Tensor& weight, const Tensor* bias, const ConvGeometry& g,
                           const Tensor& out) {
  const DenseInput<C> x(input), w(weight);
  DenseOutput<C> y(out, true);  // col2im accumulates
  if (g.depthwise()) depthwiseInputGrad(w.data, x.data, g, y.data);
  else gemmInputGrad(w.data, x.data, g, y.data);
  if (bias) {
    const std::vector<C> b = loadDense<C>(*bias);
    const int64_t plane = g.inPlane();
    parallelFor(g.n * g.c, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i)
        for (C *p = y.data + i * plane, *stop = p + plane; p < stop; ++p) *p = mulAdd(b[i % g.c], *p, C(1));
    });
  }
  y.finish();
}

// The mirror's gradient is the transposed convolution's input: its forward gives grad_input, its
// weight gradient (input and gradient swapped) grad_weight.
template <class C>
void transposeBackwardTyped(const Tensor& gradOutput, const Tensor& input, const Tensor& weight, const ConvGeometry& g,
                            const ConvGradOutputs& grads) {
  const DenseInput<C> gy(gradOutput);
  if (grads.bias) storeDense(channelSums(gy.data, g.n, g.c, g.inPlane()).data(), *grads.bias);
  if (grads.weight) {
    const DenseInput<C> x(input);
    DenseOutput<C> gw(*grads.weight, false);
    if (g.depthwise()) depthwiseWeightGrad(gy.data, x.data, g, gw.data);
    else gemmWeightGrad(gy.data, x.data, g, gw.data);
    gw.finish();
  }
  if (grads.input) convolutionForwardWith(g, gradOutput, weight, nullptr, *grads.input);
}

}  // namespace

void convolutionTransposeForward(const Tensor& input, const Tensor& weight, const Tensor* bias, const ConvParams& params,
                                 const Tensor& out) {
  if (out.numel() == 0) return;
  const ConvGeometry g = ConvGeometry::mirror(input, weight, out, params);
  dispatchDType(input.dtype(), [&](auto tag) {
    transposeForwardTyped<ConvCompute<typename decltype(tag)::type>>(input, weight, bias, g, out);
  });
}

void convolutionTransposeBackward(const Tensor& gradOutput, const Tensor& input, const Tensor& weight,
                                  const ConvParams& params, const ConvGradOutputs& grads) {
  const ConvGeometry g = ConvGeometry::mirror(input, weight, gradOutput, params);
  dispatchDType(input.dtype(), [&](auto tag) {
    using C = ConvCompute<typename decltype(tag)::type>;
    if constexpr (std::is_floating_point_v<C>) transposeBackwardTyped<C>(gradOutput, input, weight, g, grads);
    else throwOpError("\"slow_conv_transpose2d_backward_out_cpu\" not implemented for '" + std::string(scalarTypeName(input.dtype())) + "'");
  });
}

void convolutionBackward(const Tensor& gradOutput, const Tensor& input, const Tensor& weight,
                         const ConvParams& params, const ConvGradOutputs& grads) {
  const ConvGeometry g = ConvGeometry::of(input, weight, params);
  dispatchDType(input.dtype(), [&](auto tag) {
    using C = ConvCompute<typename decltype(tag)::type>;
    if constexpr (std::is_floating_point_v<C>) backwardTyped<C>(gradOutput, input, weight, g, grads);
    else throwOpError("\"slow_conv2d_cpu_grad_input\" not implemented for '" + std::string(scalarTypeName(input.dtype())) + "'");
  });
}

}  // namespace fathom
