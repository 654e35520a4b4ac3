// The loops of max, average and adaptive average pooling and their backwards, as PyTorch 1.13's
// CPU kernels compute them, over the last two or three dims of a tensor: its leading dims are
// numbered through as planes, each plane a [depth, height, width] volume (depth 1 for 2-d
// pooling, which is how one loop serves PoolingOps.cpp, Pooling3dOps.cpp and
// AdaptivePoolingOps.cpp). Operands are read and written through their strides; results are
// allocated (zero-filled for the backwards) by the caller in the layout its meta function gives.
//
// Where 2-d and 3-d differ in 1.13 the caller says so: the 3-d max backward reads `indices` by
// its raw pointer (memory order, whatever its strides), and 1.13's 3-d adaptive forward sums in
// the element type (float16 rounds at every addition) where the 2-d one sums in float.
#pragma once

#include <optional>

#include "engine/ops/layout/PoolingLayout.h"
#include "engine/tensor/Tensor.h"

namespace fathom {

// Max pooling: the first maximum of each window (NaN wins) and its flat index in the plane,
// (z * H + y) * W + x; `indices` is laid out like `out`.
void maxPoolForward(const Tensor& input, const PoolWindow& w, const Tensor& out, const Tensor& indices);

// grad_input[plane][indices[o]] += grad_output[o], over grad_input's planes (grad_output and
// indices may hold more planes: 1.13 reads the first ones). Index -1 is skipped, as 1.13 skips
// it; any other index outside the plane is an error naming `op`. indicesInMemoryOrder: read
// indices by position in memory (the caller checks they are dense).
void maxPoolBackward(const Tensor& gradOut, const Tensor& indices, int spatial, bool indicesInMemoryOrder,
                     const char* op, const Tensor& gradInput);

// What average pooling divides by: divisor_override, else the window clipped to the padded
// input (count_include_pad) or to the input. Integers divide with truncation.
struct AvgDivisor {
  bool includePad = true;
  std::optional<int64_t> override;
};

// Each window summed (in float for 16-bit floats) and divided; a window wholly in the padding
// gives 0.
void avgPoolForward(const Tensor& input, const PoolWindow& w, const AvgDivisor& d, const Tensor& out);

// Each grad_output divided by its window's divisor (rounded to the element type, as ATen does)
// and added over the window.
void avgPoolBackward(const Tensor& gradOut, const PoolWindow& w, const AvgDivisor& d, const Tensor& gradInput);

// Adaptive average pooling to out's sizes: window [floor(o * in / out), ceil((o + 1) * in / out))
// per dim (in float, as ATen's start_index / end_index), summed in row-major order and divided by
// the window's depth, then height, then width. sumInElementType: round the sum and each
// quotient to the element type (1.13's 3-d kernel), else keep them in float until the store.
void adaptiveAvgPoolForward(const Tensor& input, int spatial, bool sumInElementType, const Tensor& out);

// grad_output / depth / height / width (each quotient in the element type) added over every
// input of the window, in the element type; grad_output's sizes are the pooled sizes, and it may
// hold more planes than grad_input (1.13 reads the first ones).
void adaptiveAvgPoolBackward(const Tensor& gradOut, int spatial, const Tensor& gradInput);

}  // namespace fathom
