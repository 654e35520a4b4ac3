// Adaptive average pooling (VGG, AlexNet, and every model that pools to a fixed size):
// aten._adaptive_avg_pool2d.default, aten._adaptive_avg_pool3d.default and their backwards, as
// PyTorch 1.13's CPU kernels compute them; the loops are ../cpu/PoolingKernel.h's.
//
// Output pixel (oh, ow) averages the input window rows [floor(oh * H / OH), ceil((oh + 1) * H / OH))
// and columns likewise (windows overlap when OH does not divide H), and 3-d adds depth the same
// way; the window is summed in row-major order and divided by its depth, height, then width.
// 2-d sums in the accumulation type (float for float32 and bfloat16, double for float64), 3-d in
// the element type (float16, the 16-bit type 1.13's 3-d kernel takes, rounds at every addition
// and overflows to inf on large windows). Layouts: a 4-d 2-d result takes the input's suggested
// memory format (channels_last or contiguous), a 3-d one is contiguous, and every 3-d result and
// gradient is contiguous (1.13's 3-d kernels have no channels_last_3d path); the 2-d backward's
// grad_input has the input's suggested format. The backwards read the pooled sizes from
// grad_output itself and add grad_output / kd / kh / kw into every input of the window, in the
// element type (16-bit types round after each division and each addition).
#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/PoolingKernel.h"
#include "engine/ops/families/NnFamilies.h"
#include "engine/ops/layout/NnLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

// caffe2's names of the dtypes this op takes, as its dtype messages print them.
const char* typeMetaName(DType t) {
  switch (t) {
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    case DType::BFloat16: return "c10::BFloat16";
    default: return scalarTypeName(t);
  }
}

// The dtypes 1.13's kernels take: float, double and one 16-bit type (2-d: bfloat16, 3-d: float16).
void checkDtype(DType t, const char* kernel, DType reduced = DType::BFloat16) {
  FATHOM_CHECK(t == DType::Float32 || t == DType::Float64 || t == reduced, "\"", kernel,
               "\" not implemented for '", scalarTypeName(t), "'");
}

// Product of the sizes before the last `n` (the planes a pooling loop sees).
SymInt planesOf(const TensorMeta& t, int64_t n) {
  SymInt p = 1;
  for (int64_t d = 0; d + n < t.dim(); ++d) p = p * t.sizes[d];
  return p;
}

// _adaptive_avg_pool2d(Tensor self, SymInt[2] output_size)
TensorMeta adaptiveLayout(const ValueList& margs) {
  const TensorMeta& input = metaArg(margs, 0);
  const SymIntList size = toSymIntList(margs.at(1));
  FATHOM_CHECK(size.size() == 2, "adaptive_avg_pool2d: output_size must be 2");
  const int64_t ndim = input.dim();
  FATHOM_CHECK(ndim == 3 || ndim == 4, "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got ", sizesText(input.sizes));
  for (int64_t d = ndim - 2; d < ndim; ++d)
    FATHOM_CHECK(symLt(0, input.sizes[d], "adaptive_avg_pool2d: non-empty spatial dim"),
                 "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes ",
                 sizesText(input.sizes), " with dimension ", d, " being empty");
  for (const SymInt& s : size)
    FATHOM_CHECK(!symLt(s, 0, "adaptive_avg_pool2d: output size >= 0"), "Trying to create tensor with negative dimension ",
                 s.str(), ": ", sizesText(size));
  SymIntList sizes(input.sizes.begin(), input.sizes.end() - 2);
  sizes.insert(sizes.end(), size.begin(), size.end());
  const SuggestedFormat f = ndim == 4 ? channelsLastIf(suggestsChannelsLast(input)) : SuggestedFormat::Contiguous;
  TensorMeta out = newTensorMeta(input, input.dtype, std::move(sizes), f);
  // ATen returns before dispatching on the dtype when there is nothing to compute.
  if (!symEq(out.numel(), 0, "adaptive_avg_pool2d: empty output")) checkDtype(input.dtype, "adaptive_avg_pool2d");
  return out;
}

// _adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self)
TensorMeta adaptiveBackwardLayout(const ValueList& margs) {
  const TensorMeta &gradOut = metaArg(margs, 0), &input = metaArg(margs, 1);
  const int64_t ndim = gradOut.dim();
  for (int64_t d = 1; d < ndim; ++d)
    FATHOM_CHECK(symLt(0, gradOut.sizes[d], "adaptive_avg_pool2d_backward: non-empty grad_output dim"),
                 "adaptive_avg_pool2d_backward(): Expected grad_output to have non-zero size for non-batch dimensions, "
                 "but grad_output has sizes ", sizesText(gradOut.sizes), " with dimension ", d, " being empty");
  FATHOM_CHECK(ndim == 3 || ndim == 4, "adaptive_avg_pool2d_backward(): Expected 3D or 4D tensor, but got ",
               sizesText(input.sizes));
  FATHOM_CHECK(input.dtype == gradOut.dtype, "expected dtype ", typeMetaName(input.dtype),
               " for `grad_output` but got dtype ", typeMetaName(gradOut.dtype));
  FATHOM_CHECK(input.dim() >= 2, "adaptive_avg_pool2d_backward(): Expected 3D or 4D tensor, but got ",
               sizesText(input.sizes));
  checkDtype(input.dtype, "adaptive_avg_pool2d_backward_cpu");
  // Other plane counts make 1.13 corrupt memory.
  FATHOM_CHECK(symEq(planesOf(gradOut, 2), planesOf(input, 2), "adaptive_avg_pool2d_backward: planes"),
               "adaptive_avg_pool2d_backward: grad_output has ", planesOf(gradOut, 2).str(), " planes but the input has ",
               planesOf(input, 2).str());
  return newTensorMeta(input, input.dtype, input.sizes, suggestMemoryFormat(input));
}

ValueList adaptiveKernel(const ValueList& args) {
  Tensor out = allocateTensor(adaptiveLayout(metaArgs(args)));
  if (out.numel() == 0) return {out};
  adaptiveAvgPoolForward(tensorArg(args, 0), 2, false, out);
  return {out};
}

ValueList adaptiveBackwardKernel(const ValueList& args) {
  Tensor gradIn = allocateTensor(adaptiveBackwardLayout(metaArgs(args)));  // zero-filled
  if (gradIn.numel() == 0) return {gradIn};
  adaptiveAvgPoolBackward(tensorArg(args, 0), 2, gradIn);
  return {gradIn};
}

// ---- 3-d: _adaptive_avg_pool3d and its backward ------------------------------------------------

// _adaptive_avg_pool3d(Tensor self, int[3] output_size), as adaptive_avg_pool3d_out_cpu_template
// checks it: the result is contiguous whatever the input's layout, and the dtype is checked even
// when there is nothing to compute.
TensorMeta adaptive3dLayout(const ValueList& margs) {
  const TensorMeta& input = metaArg(margs, 0);
  const Value& arg = margs.at(1);
  const SymIntList size = arg.is<SymInt>() ? SymIntList(3, arg.as<SymInt>()) : toSymIntList(arg);  // int[3] takes one int
  FATHOM_CHECK(size.size() == 3, "adaptive_avg_pool3d: output_size must be 3");
  const int64_t ndim = input.dim();
  for (int64_t d = 1; d < ndim; ++d)
    FATHOM_CHECK(symLt(0, input.sizes[d], "adaptive_avg_pool3d: non-empty non-batch dim"),
                 "adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes ",
                 sizesText(input.sizes), " with dimension ", d, " being empty");
  FATHOM_CHECK(ndim == 4 || ndim == 5, "adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got ", sizesText(input.sizes));
  // 1.13 resizes its output to these sizes; c10 refuses a negative one (unless another is 0, where
  // it makes a tensor of negative size, which Fathom does not).
  for (const SymInt& s : size)
    FATHOM_CHECK(!symLt(s, 0, "adaptive_avg_pool3d: output size >= 0"),
                 "numel: integer multiplication overflow (adaptive_avg_pool3d: output_size ", sizesText(size), ")");
  checkDtype(input.dtype, "adaptive_avg_pool3d_cpu", DType::Float16);
  SymIntList sizes(input.sizes.begin(), input.sizes.end() - 3);
  sizes.insert(sizes.end(), size.begin(), size.end());
  return newTensorMeta(input, input.dtype, std::move(sizes), SuggestedFormat::Contiguous);
}

// _adaptive_avg_pool3d_backward(Tensor grad_output, Tensor self): 1.13 reads self's last four
// sizes and grad_output's last three (the pooled sizes) and checks nothing else but dtypes; its
// loops walk grad_output's planes in order, so grad_output may hold more of them than self. The
// result is contiguous.
TensorMeta adaptive3dBackwardLayout(const ValueList& margs) {
  const TensorMeta &gradOut = metaArg(margs, 0), &input = metaArg(margs, 1);
  (void)wrapDim(-4, input.dim());  // input.size(-4): "Dimension out of range"
  (void)wrapDim(-3, gradOut.dim());
  checkDtype(input.dtype, "adaptive_avg_pool3d_backward_cpu", DType::Float16);
  FATHOM_CHECK(gradOut.dtype == input.dtype, "expected scalar type ", scalarTypeName(input.dtype), " but found ",
               scalarTypeName(gradOut.dtype));
  // Where 1.13 reads out of bounds (or fills only part of the gradient), Fathom refuses.
  FATHOM_CHECK(input.dim() <= 5, "adaptive_avg_pool3d_backward(): Expected 4D or 5D tensor for self, but got ",
               sizesText(input.sizes));
  FATHOM_CHECK(!symLt(planesOf(gradOut, 3), planesOf(input, 3), "adaptive_avg_pool3d_backward: grad_output planes"),
               "adaptive_avg_pool3d_backward(): grad_output ", sizesText(gradOut.sizes),
               " has fewer planes than the input ", sizesText(input.sizes));
  return newTensorMeta(input, input.dtype, input.sizes, SuggestedFormat::Contiguous);
}

ValueList adaptive3dKernel(const ValueList& args) {
  Tensor out = allocateTensor(adaptive3dLayout(metaArgs(args)));
  adaptiveAvgPoolForward(tensorArg(args, 0), 3, true, out);
  return {out};
}

ValueList adaptive3dBackwardKernel(const ValueList& args) {
  Tensor gradIn = allocateTensor(adaptive3dBackwardLayout(metaArgs(args)));  // zero-filled
  adaptiveAvgPoolBackward(tensorArg(args, 0), 3, gradIn);
  return {gradIn};
}

}  // namespace

void registerAdaptivePoolingOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::_adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor",
      [](const ValueList& args) { return ValueList{adaptiveLayout(args)}; }, adaptiveKernel);
  (void)registry.add(
      "aten::_adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor",
      [](const ValueList& args) { return ValueList{adaptiveBackwardLayout(args)}; }, adaptiveBackwardKernel);
  (void)registry.add(
      "aten::_adaptive_avg_pool3d(Tensor self, int[3] output_size) -> Tensor",
      [](const ValueList& args) { return ValueList{adaptive3dLayout(args)}; }, adaptive3dKernel);
  (void)registry.add(
      "aten::_adaptive_avg_pool3d_backward(Tensor grad_output, Tensor self) -> Tensor",
      [](const ValueList& args) { return ValueList{adaptive3dBackwardLayout(args)}; }, adaptive3dBackwardKernel);
}

}  // namespace fathom
