// CPU kernels of 2-d and 3-d convolution, plain and transposed: the forward pass and the gradients
// of input, weight and bias. Tensors arrive as 4-d (2-d convolution; 1-d ones are viewed as 2-d)
// or 5-d views with any strides; they are copied into dense NC(D)HW buffers of the compute type
// (float for float32/bfloat16, double for float64, int64 with wrap-around for integers) and
// results are stored, rounded once, into outputs of any layout.
//
// Grouped convolutions run im2col + GEMM (engine/ops/cpu/Gemm.h, OpenBLAS for float/double) per
// sample and group, with parallelFor over the batch (for 3-d, im2col is ATen's vol2col); 1x1
// unstrided convolutions skip im2col. Depthwise 2-d ones (one input channel per group, as in
// MobileNetV2) run a direct loop parallel over (sample, channel). A transposed convolution is the
// input gradient of its mirror (ConvGeometry::mirror): its forward pass runs the input-gradient
// kernel (col2im of W^T x, then the bias), its input gradient the mirror's forward, its weight
// gradient the mirror's with the roles of input and gradient swapped.
#pragma once

#include "engine/ops/cpu/ConvolutionIm2col.h"
#include "engine/ops/layout/ConvolutionLayout.h"
#include "engine/tensor/Tensor.h"

namespace fathom {

// out = conv(input, weight) + bias; `out` is allocated with the output sizes, any strides.
void convolutionForward(const Tensor& input, const Tensor& weight, const Tensor* bias, const ConvParams& params,
                        const Tensor& out);
// The same on a given geometry (`input` and `out` shaped as it says).
void convolutionForwardWith(const ConvGeometry& g, const Tensor& input, const Tensor& weight, const Tensor* bias,
                            const Tensor& out);

// Writes the wanted gradients (null: not wanted) of a convolution; float types only.
struct ConvGradOutputs {
  const Tensor* input = nullptr;
  const Tensor* weight = nullptr;
  const Tensor* bias = nullptr;
};
void convolutionBackward(const Tensor& gradOutput, const Tensor& input, const Tensor& weight,
                         const ConvParams& params, const ConvGradOutputs& grads);

// Transposed convolution (params.transposed; weight [in, out / groups, k...]): the forward
// pass (float and int64) and the gradients (float types only).
void convolutionTransposeForward(const Tensor& input, const Tensor& weight, const Tensor* bias, const ConvParams& params,
                                 const Tensor& out);
void convolutionTransposeBackward(const Tensor& gradOutput, const Tensor& input, const Tensor& weight,
                                  const ConvParams& params, const ConvGradOutputs& grads);

}  // namespace fathom
