// F.grid_sample of 4-d inputs: aten.grid_sampler_2d.default and its derivative
// aten.grid_sampler_2d_backward.default, with PyTorch 1.13's checks and result layouts; the
// sampling itself is cpu/GridSampleKernel (1.13's vectorized CPU kernel, lane by lane).
//
// Results are contiguous: the output [N, C, H_out, W_out] in the input's dtype, grad_input like
// input, grad_grid like grid (grad_grid always, grad_input when output_mask[0]). float32 and
// float64 only, as 1.13's CPU kernel (float16 and bfloat16 came later).
//
// Where 1.13 does not check, Fathom refuses rather than return what 1.13 does: an
// interpolation_mode or padding_mode outside 0..2 (1.13 returns the uninitialized output), and a
// grad_output not of the output's sizes (1.13 reads it with the output's geometry, past its end
// when it is smaller).
#include <string>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/GridSampleKernel.h"
#include "engine/ops/families/NnFamilies.h"
#include "engine/ops/layout/NnLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

// t.size(dim) with ATen's wrapping and its message for a 0-d tensor.
const SymInt& sizeAt(const TensorMeta& t, int64_t dim) {
  FATHOM_CHECK(t.dim() > 0, "dimension specified as ", dim, " but tensor has no dimensions");
  return t.sizes.at(static_cast<size_t>(wrapDim(dim, t.dim())));
}

// check_grid_sampler_common and check_grid_sampler_2d, in 1.13's order.
void checkShapes(const TensorMeta& input, const TensorMeta& grid) {
  const std::string sizes = "input with sizes " + sizesText(input.sizes) + " and grid with sizes " + sizesText(grid.sizes);
  FATHOM_CHECK(symEq(sizeAt(grid, 0), sizeAt(input, 0), "grid_sampler: batch sizes"),
               "grid_sampler(): expected grid and input to have same batch size, but got ", sizes);
  FATHOM_CHECK(symEq(sizeAt(grid, -1), input.dim() - 2, "grid_sampler: grid's last dim"),
               "grid_sampler(): expected grid to have size ", input.dim() - 2,
               " in last dimension, but got grid with sizes ", sizesText(grid.sizes));
  for (int64_t d = 2; d < input.dim(); ++d)
    FATHOM_CHECK(symLt(0, input.sizes[d], "grid_sampler: non-empty spatial dim"),
                 "grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes ",
                 sizesText(input.sizes), " with dimension ", d, " being empty");
  FATHOM_CHECK(input.dim() == 4 && grid.dim() == 4,
               "grid_sampler(): expected 4D input and grid with same number of dimensions, but got ", sizes);
}

// The kernel's dtype checks: float32 or float64, and every tensor the input's dtype (1.13's
// accessors word it "expected scalar type Float but found Double").
void checkDtype(DType input, const char* kernel) {
  FATHOM_CHECK(input == DType::Float32 || input == DType::Float64, kernel, " not implemented for ",
               scalarTypeName(input));
}
void checkSameDtype(DType input, DType other) {
  FATHOM_CHECK(other == input, "expected scalar type ", scalarTypeName(input), " but found ", scalarTypeName(other));
}

GridSampleMode modeArgs(const ValueList& a, size_t at) {
  const int64_t interp = intArg(a, at), padding = intArg(a, at + 1);
  FATHOM_CHECK(interp >= 0 && interp <= 2, "grid_sampler(): expected interpolation_mode to be 0 (bilinear), ",
               "1 (nearest) or 2 (bicubic), but got ", interp);
  FATHOM_CHECK(padding >= 0 && padding <= 2, "grid_sampler(): expected padding_mode to be 0 (zeros), 1 (border) ",
               "or 2 (reflection), but got ", padding);
  return {static_cast<GridInterp>(interp), static_cast<GridPadding>(padding), boolArg(a, at + 2)};
}

// grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners)
TensorMeta forwardLayout(const ValueList& margs) {
  const TensorMeta &input = metaArg(margs, 0), &grid = metaArg(margs, 1);
  checkShapes(input, grid);
  checkDtype(input.dtype, "grid_sampler_2d_cpu");
  (void)modeArgs(margs, 2);
  checkSameDtype(input.dtype, grid.dtype);
  return newTensorMeta(input, input.dtype, {input.sizes[0], input.sizes[1], grid.sizes[1], grid.sizes[2]},
                       SuggestedFormat::Contiguous);
}

ValueList forwardKernel(const ValueList& args) {
  Tensor out = allocateTensor(forwardLayout(metaArgs(args)));
  gridSample2d(tensorArg(args, 0), tensorArg(args, 1), modeArgs(args, 2), out);
  return {out};
}

struct BackwardLayout {
  bool inputGrad = false;
  TensorMeta gradInput, gradGrid;
};

// grid_sampler_2d_backward(Tensor grad_output, Tensor input, Tensor grid, int interpolation_mode,
// int padding_mode, bool align_corners, bool[2] output_mask)
BackwardLayout backwardLayout(const ValueList& margs) {
  const TensorMeta &gradOut = metaArg(margs, 0), &input = metaArg(margs, 1), &grid = metaArg(margs, 2);
  checkShapes(input, grid);
  checkDtype(input.dtype, "grid_sampler_2d_backward_cpu");
  (void)modeArgs(margs, 3);
  const auto* mask = margs.at(6).tryAs<ValueList>();
  FATHOM_CHECK(mask && mask->size() == 2 && (*mask)[0].is<bool>(), "output_mask must be a list of 2 bools");
  checkSameDtype(input.dtype, grid.dtype);
  checkSameDtype(input.dtype, gradOut.dtype);
  FATHOM_CHECK(gradOut.dim() == 4, "TensorAccessor expected 4 dims but tensor has ", gradOut.dim());
  const SymIntList outSizes{input.sizes[0], input.sizes[1], grid.sizes[1], grid.sizes[2]};
  bool same = true;
  for (size_t d = 0; d < 4; ++d) same = same && symEq(gradOut.sizes[d], outSizes[d], "grid_sampler_2d_backward: grad_output size");
  FATHOM_CHECK(same, "grid_sampler_2d_backward: expected grad_output of size ", sizesText(outSizes),
               " (the output's), but got ", sizesText(gradOut.sizes));
  BackwardLayout b;
  b.inputGrad = (*mask)[0].as<bool>();
  b.gradInput = newTensorMeta(input, input.dtype, input.sizes, SuggestedFormat::Contiguous);
  b.gradGrid = newTensorMeta(grid, grid.dtype, grid.sizes, SuggestedFormat::Contiguous);
  return b;
}

ValueList backwardMeta(const ValueList& args) {
  const BackwardLayout b = backwardLayout(args);
  return {b.inputGrad ? Value(b.gradInput) : Value(None{}), Value(b.gradGrid)};
}

ValueList backwardKernel(const ValueList& args) {
  const BackwardLayout b = backwardLayout(metaArgs(args));
  Tensor gradGrid = allocateTensor(b.gradGrid), gradInput;  // zero-filled
  if (b.inputGrad) gradInput = allocateTensor(b.gradInput);
  gridSample2dBackward(tensorArg(args, 0), tensorArg(args, 1), tensorArg(args, 2), modeArgs(args, 3),
                       b.inputGrad ? &gradInput : nullptr, gradGrid);
  return {b.inputGrad ? Value(gradInput) : Value(None{}), Value(gradGrid)};
}

}  // namespace

void registerGridSamplerOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) "
      "-> Tensor",
      [](const ValueList& a) { return ValueList{forwardLayout(a)}; }, forwardKernel);
  (void)registry.add(
      "aten::grid_sampler_2d_backward(Tensor grad_output, Tensor input, Tensor grid, int interpolation_mode, "
      "int padding_mode, bool align_corners, bool[2] output_mask) -> (Tensor, Tensor)",
      backwardMeta, backwardKernel);
}

}  // namespace fathom
