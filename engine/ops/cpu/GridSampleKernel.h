// grid_sampler_2d and grid_sampler_2d_backward on real tensors (F.grid_sample of 4-d inputs):
// bilinear, nearest and bicubic sampling with zeros, border or reflection padding, as PyTorch
// 1.13's vectorized CPU kernel computes them (the per-point arithmetic is GridSampleMath.h).
//
// Output pixel (h, w) of sample n reads the input where grid[n, h, w] = (x, y) points, x and y
// in [-1, 1] across the input's width and height. The backward adds each output gradient into
// the input pixels it read from, in the order 1.13's kernel does: a vector of 8 (float) or 4
// (double) output pixels at a time, channel by channel, corner by corner - its vectors run along
// the flattened output plane, or along each row when the grid's plane is not laid out flat -
// so float32 sums round as 1.13's do.
#pragma once

#include "engine/ops/cpu/GridSampleMath.h"
#include "engine/tensor/Tensor.h"

namespace fathom {

struct GridSampleMode {
  GridInterp interp = GridInterp::Bilinear;
  GridPadding padding = GridPadding::Zeros;
  bool alignCorners = false;
};

// out[N, C, H_out, W_out] (contiguous, float32 or float64) from input[N, C, H, W] and
// grid[N, H_out, W_out, 2] of the same dtype, any strides.
void gridSample2d(const Tensor& input, const Tensor& grid, const GridSampleMode& mode, const Tensor& out);

// The gradients of gridSample2d for gradOut[N, C, H_out, W_out]: gradGrid (contiguous, like grid)
// and, when gradInput is not null, gradInput (contiguous, zero-filled, like input).
void gridSample2dBackward(const Tensor& gradOut, const Tensor& input, const Tensor& grid, const GridSampleMode& mode,
                          const Tensor* gradInput, const Tensor& gradGrid);

}  // namespace fathom
