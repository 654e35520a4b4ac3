// 2-d pooling: aten.max_pool2d_with_indices.default and aten.avg_pool2d.default (and their
// backwards), as PyTorch 1.13's CPU kernels compute them. The window arguments and the output
// size per dim are ../layout/PoolingLayout.h's, the loops ../cpu/PoolingKernel.h's (shared with
// 3-d pooling, Pooling3dOps.cpp); what is 2-d's own is here: pool2d_shape_check and the layouts.
//
// Shapes: [N, C, H, W] or [C, H, W]. Layout: channels_last when the input suggests it (4-d only),
// else contiguous. Max pooling takes the first maximum of each window (NaN wins) and records its
// flat index h * W + w within the plane; average pooling divides by the window clipped to the
// padded input (count_include_pad), to the input, or by divisor_override; integers divide with
// truncation. The backwards return a zero-filled tensor in the input's suggested layout with each
// output's gradient added back over its window (average pooling: divided by the same divisor, in
// the element type, as ATen does; max pooling: index -1 skipped, as 1.13 skips it).
#include <optional>
#include <string>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/PoolingKernel.h"
#include "engine/ops/families/NnFamilies.h"
#include "engine/ops/layout/NnLayout.h"
#include "engine/ops/layout/PoolingLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

// How max_pool2d / avg_pool2d (and their backwards, under their own names) word bad list lengths.
PoolArgRules rules(const std::string& op, bool withDilation) {
  return {op + ": kernel_size must either be a single int, or a tuple of two ints",
          op + ": stride must either be omitted, a single int, or a tuple of two ints",
          op + ": padding must either be a single int, or a tuple of two ints",
          withDilation ? op + ": dilation must be either a single int, or a tuple of two ints" : ""};
}

struct PoolLayout {
  PoolWindow w;
  TensorMeta out;
};

// Output layout and ATen's pool2d_shape_check; `kernel` names the kernel in dtype errors.
PoolLayout poolLayout(const TensorMeta& input, const PoolWindow& w, const char* kernel, bool allowLong) {
  const int64_t ndim = input.dim();
  FATHOM_CHECK(ndim == 3 || ndim == 4, "non-empty 3D or 4D (batch mode) tensor expected for input");
  const SymInt& planes = input.sizes[ndim - 3];
  const SymInt &inH = input.sizes[ndim - 2], &inW = input.sizes[ndim - 1];
  PoolLayout l{w, {}};
  const SymInt outH = pooledSize(inH, w.kernel[1], w.pad[1], w.stride[1], w.dilation[1], w.ceil);
  const SymInt outW = pooledSize(inW, w.kernel[2], w.pad[2], w.stride[2], w.dilation[2], w.ceil);
  FATHOM_CHECK(w.kernel[2] > 0 && w.kernel[1] > 0, "kernel size should be greater than zero, but got kH: ", w.kernel[1],
               " kW: ", w.kernel[2]);
  FATHOM_CHECK(w.stride[2] > 0 && w.stride[1] > 0, "stride should be greater than zero, but got dH: ", w.stride[1],
               " dW: ", w.stride[2]);
  FATHOM_CHECK(w.dilation[1] > 0 && w.dilation[2] > 0, "dilation should be greater than zero, but got dilationH: ",
               w.dilation[1], " dilationW: ", w.dilation[2]);
  const auto nonzero = [](const SymInt& s) { return !symEq(s, 0, "pooling: non-empty dim"); };
  bool valid = nonzero(input.sizes[1]) && nonzero(input.sizes[2]);
  valid = ndim == 3 ? valid && nonzero(input.sizes[0]) : valid && nonzero(input.sizes[3]);
  FATHOM_CHECK(valid, "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:",
               sizesText(input.sizes));
  FATHOM_CHECK(!symLt(outW, 1, "pooling: output width >= 1") && !symLt(outH, 1, "pooling: output height >= 1"),
               "Given input size: (", planes.str(), "x", inH.str(), "x", inW.str(), "). Calculated output size: (",
               planes.str(), "x", outH.str(), "x", outW.str(), "). Output size is too small");
  const DType t = input.dtype;
  FATHOM_CHECK(t == DType::Float32 || t == DType::Float64 || t == DType::BFloat16 || (allowLong && t == DType::Int64),
               "\"", kernel, "\" not implemented for '", scalarTypeName(t), "'");
  SymIntList sizes = input.sizes;
  sizes[ndim - 2] = outH;
  sizes[ndim - 1] = outW;
  l.out = newTensorMeta(input, t, std::move(sizes), channelsLastIf(suggestsChannelsLast(input)));
  return l;
}

// max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)
PoolLayout maxPoolLayout(const ValueList& margs) {
  PoolWindow w = poolWindowArgs(margs, 1, 2, rules("max_pool2d", true));
  w.ceil = boolArg(margs, 5);
  return poolLayout(metaArg(margs, 0), w, "max_pool2d", false);
}

// avg_pool2d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
PoolLayout avgPoolLayout(const ValueList& margs) {
  PoolWindow w = poolWindowArgs(margs, 1, 2, rules("avg_pool2d", false));
  w.ceil = boolArg(margs, 4);
  const auto divisor = optionalSymIntArg(margs, 6);
  FATHOM_CHECK(!divisor || divisor->hint() != 0, "divisor must be not zero");
  return poolLayout(metaArg(margs, 0), w, "avg_pool2d", true);
}

// count_include_pad and divisor_override at args[at], args[at + 1].
AvgDivisor avgDivisor(const ValueList& args, size_t at) {
  const auto divisor = optionalSymIntArg(args, at + 1);
  return {boolArg(args, at), divisor ? std::optional<int64_t>(divisor->hint()) : std::nullopt};
}

ValueList maxPoolKernel(const ValueList& args) {
  const PoolLayout l = maxPoolLayout(metaArgs(args));
  Tensor out = allocateTensor(l.out);
  TensorMeta im = l.out;
  im.dtype = DType::Int64;
  Tensor indices = allocateTensor(im);
  maxPoolForward(tensorArg(args, 0), l.w, out, indices);
  return {out, indices};
}

ValueList avgPoolKernel(const ValueList& args) {
  const PoolLayout l = avgPoolLayout(metaArgs(args));
  Tensor out = allocateTensor(l.out);
  avgPoolForward(tensorArg(args, 0), l.w, avgDivisor(args, 5), out);
  return {out};
}

// ---- max_pool2d_with_indices_backward ---------------------------------------------------------

// (grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices)
TensorMeta maxPoolBackwardLayout(const ValueList& margs) {
  const TensorMeta &gradOut = metaArg(margs, 0), &input = metaArg(margs, 1), &indices = metaArg(margs, 7);
  PoolWindow w = poolWindowArgs(margs, 2, 2, rules("max_pool2d_with_indices_backward", true));
  w.ceil = boolArg(margs, 6);
  const PoolLayout l = poolLayout(input, w, "max_pool2d_with_indices_backward", false);
  const auto sameSizes = [&](const TensorMeta& t) {
    if (t.dim() != l.out.dim()) return false;
    for (int64_t d = 0; d < t.dim(); ++d)
      if (!symEq(t.sizes[d], l.out.sizes[d], "max_pool2d backward: size")) return false;
    return true;
  };
  FATHOM_CHECK(sameSizes(gradOut), "max_pool2d_with_indices_backward: expected grad_output of size ",
               sizesText(l.out.sizes), ", but got ", sizesText(gradOut.sizes));
  FATHOM_CHECK(sameSizes(indices), "max_pool2d_with_indices_backward: expected indices of size ",
               sizesText(l.out.sizes), ", but got ", sizesText(indices.sizes));
  FATHOM_CHECK(gradOut.dtype == input.dtype, "expected dtype ", dtypeName(input.dtype), " for `gradOutput` but got dtype ",
               dtypeName(gradOut.dtype));
  FATHOM_CHECK(indices.dtype == DType::Int64, "expected scalar type Long but found ", scalarTypeName(indices.dtype));
  return newTensorMeta(input, input.dtype, input.sizes, suggestMemoryFormat(input));
}

ValueList maxPoolBackwardKernel(const ValueList& args) {
  Tensor gradInput = allocateTensor(maxPoolBackwardLayout(metaArgs(args)));  // zero-filled
  maxPoolBackward(tensorArg(args, 0), tensorArg(args, 7), 2, false, "max_pool2d_with_indices_backward", gradInput);
  return {gradInput};
}

// ---- avg_pool2d_backward ------------------------------------------------------------------------

// (grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
// avg_pool2d's checks on self, then grad_output must have the pooled sizes.
PoolLayout avgPoolBackwardLayout(const ValueList& margs) {
  const TensorMeta &gradOut = metaArg(margs, 0), &input = metaArg(margs, 1);
  PoolWindow w = poolWindowArgs(margs, 2, 2, rules("avg_pool2d_backward", false));
  w.ceil = boolArg(margs, 5);
  const auto divisor = optionalSymIntArg(margs, 7);
  FATHOM_CHECK(!divisor || divisor->hint() != 0, "divisor must be not zero");
  PoolLayout l = poolLayout(input, w, "avg_pool2d_backward", true);
  FATHOM_CHECK(gradOut.dim() == input.dim(), "Expected a tensor of dimension ", input.dim(), " but got dimension ",
               gradOut.dim(), " for grad_output");
  for (int64_t d = 0; d < gradOut.dim(); ++d)
    FATHOM_CHECK(symEq(gradOut.sizes[d], l.out.sizes[d], "avg_pool2d backward: size"), "Expected a tensor of dimension ",
                 input.dim(), " and tensor.size[", d, "] == ", l.out.sizes[d].str(), " but got: dimension ",
                 gradOut.dim(), " and tensor.size[", d, "] = ", gradOut.sizes[d].str());
  FATHOM_CHECK(gradOut.dtype == input.dtype, "expected dtype ", dtypeName(input.dtype),
               " for `gradOutput` but got dtype ", dtypeName(gradOut.dtype));
  l.out = newTensorMeta(input, input.dtype, input.sizes, suggestMemoryFormat(input));
  return l;
}

ValueList avgPoolBackwardKernel(const ValueList& args) {
  const PoolLayout l = avgPoolBackwardLayout(metaArgs(args));
  Tensor gradInput = allocateTensor(l.out);  // zero-filled
  avgPoolBackward(tensorArg(args, 0), l.w, avgDivisor(args, 6), gradInput);
  return {gradInput};
}

}  // namespace

void registerPoolingOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
      "int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
      [](const ValueList& args) {
        const PoolLayout l = maxPoolLayout(args);
        TensorMeta indices = l.out;
        indices.dtype = DType::Int64;
        return ValueList{l.out, indices};
      },
      maxPoolKernel);
  (void)registry.add(
      "aten::max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, "
      "int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor",
      [](const ValueList& args) { return ValueList{maxPoolBackwardLayout(args)}; }, maxPoolBackwardKernel);
  (void)registry.add(
      "aten::avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, "
      "bool count_include_pad=True, int? divisor_override=None) -> Tensor",
      [](const ValueList& args) { return ValueList{avgPoolLayout(args).out}; }, avgPoolKernel);
  (void)registry.add(
      "aten::avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, "
      "bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor",
      [](const ValueList& args) { return ValueList{avgPoolBackwardLayout(args).out}; }, avgPoolBackwardKernel);
}

}  // namespace fathom
