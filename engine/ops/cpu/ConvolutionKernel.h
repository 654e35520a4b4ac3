// CPU kernels of 2-d convolution (not transposed): the forward pass and the gradients of input,
// weight and bias. Tensors arrive as 4-d views with any strides; they are copied into dense
// NCHW buffers of the compute type (float for float32/bfloat16, double for float64, int64 with
// wrap-around for integers) and results are stored, rounded once, into outputs of any layout.
//
// Grouped convolutions run im2col + GEMM (engine/ops/cpu/Gemm.h, OpenBLAS for float/double) per
// sample and group, with parallelFor over the batch; 1x1 unstrided convolutions skip im2col.
// Depthwise ones (one input channel per group, as in MobileNetV2) run a direct loop
// parallel over (sample, channel).
#pragma once

#include "engine/ops/layout/ConvolutionLayout.h"
#include "engine/tensor/Tensor.h"

namespace fathom {

// out = conv(input, weight) + bias; `out` is allocated with the output sizes, any strides.
void convolutionForward(const Tensor& input, const Tensor& weight, const Tensor* bias, const ConvParams& params,
                        const Tensor& out);

// Writes the wanted gradients (null: not wanted) of a convolution; float types only.
struct ConvGradOutputs {
  const Tensor* input = nullptr;
  const Tensor* weight = nullptr;
  const Tensor* bias = nullptr;
};
void convolutionBackward(const Tensor& gradOutput, const Tensor& input, const Tensor& weight,
                         const ConvParams& params, const ConvGradOutputs& grads);

}  // namespace fathom
