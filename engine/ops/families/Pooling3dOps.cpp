// 3-d pooling: aten.avg_pool3d.default and aten.max_pool3d_with_indices.default (and their
// backwards), as PyTorch 1.13's CPU kernels compute them (AveragePool3d.cpp, DilatedMaxPool3d.cpp).
// The window arguments and output sizes are ../layout/PoolingLayout.h's, the loops
// ../cpu/PoolingKernel.h's (shared with 2-d pooling, PoolingOps.cpp); what is 3-d's own is here:
// 1.13's checks (pool3d_shape_check, in its order and words) and where its 3-d kernels differ:
//   - every result is contiguous: 1.13 copies the input contiguous and has no channels_last_3d
//     path on the CPU (channels_last_3d inputs give contiguous outputs and gradients);
//   - the ints are read as 32-bit ("integer out of range"), and divisor_override is truncated to
//     32 bits as 1.13 truncates it;
//   - avg_pool3d rejects an input smaller than the kernel even where padding would make room;
//   - dtypes: max pooling float and double, average pooling float, double and int64 (no 16-bit);
//   - the backwards check grad_output's (and indices') channel and pooled dims but not the batch
//     dim: grad_output may hold more batches (1.13 reads the first ones; fewer would make it read
//     out of bounds, which Fathom refuses). The max backward takes the pooled sizes from
//     grad_output itself, reads `indices` in memory order (1.13 takes its raw pointer, whatever
//     its strides: Fathom asks for dense indices) and skips index -1. A grad_output of another
//     dtype fails as 1.13's data_ptr does ("expected scalar type Float but found Double").
#include <array>
#include <cstdint>
#include <optional>

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

using Sizes3 = std::array<SymInt, 3>;  // depth, height, width

const PoolArgRules kAvgRules{"avg_pool3d: kernel_size must be a single int, or a tuple of three ints",
                             "avg_pool3d: stride must be omitted, a single int, or a tuple of three ints",
                             "avg_pool3d: padding must be a single int, or a tuple of three ints", "", true};
const PoolArgRules kMaxRules{"max_pool3d: kernel_size must either be a single int, or a tuple of three ints",
                             "max_pool3d: stride must either be omitted, a single int, or a tuple of three ints",
                             "max_pool3d: padding must be either be a single int, or a tuple of three ints",
                             "max_pool3d: dilation must be either a single int, or a tuple of three ints", true};

void checkRank(const TensorMeta& input) {
  FATHOM_CHECK(input.dim() == 4 || input.dim() == 5, "non-empty 4D or 5D (batch mode) tensor expected for input");
}

void checkDtype(DType t, const char* kernel, bool allowLong) {
  FATHOM_CHECK(t == DType::Float32 || t == DType::Float64 || (allowLong && t == DType::Int64), "\"", kernel,
               "\" not implemented for '", scalarTypeName(t), "'");
}

// data_ptr<scalar_t>() of a tensor of another dtype, as 1.13's kernels call it.
void checkSameDtype(DType want, DType got) {
  FATHOM_CHECK(want == got, "expected scalar type ", scalarTypeName(want), " but found ", scalarTypeName(got));
}

// pooling_output_shape of depth, height and width.
Sizes3 pooledSizes(const TensorMeta& input, const PoolWindow& w) {
  Sizes3 out;
  for (size_t d = 0; d < 3; ++d)
    out[d] = pooledSize(input.sizes[input.dim() - 3 + static_cast<int64_t>(d)], w.kernel[d], w.pad[d], w.stride[d],
                        w.dilation[d], w.ceil);
  return out;
}

// ATen's pool3d_shape_check; `fn` names the caller as 1.13's messages do.
void shapeCheck(const TensorMeta& input, const PoolWindow& w, const Sizes3& out, const char* fn, bool checkInputSize) {
  const auto &k = w.kernel, &s = w.stride, &p = w.pad, &dil = w.dilation;
  FATHOM_CHECK(k[0] > 0 && k[2] > 0 && k[1] > 0, "kernel size should be greater than zero, but got kT: ", k[0],
               " kH: ", k[1], " kW: ", k[2]);
  FATHOM_CHECK(s[0] > 0 && s[2] > 0 && s[1] > 0, "stride should be greater than zero, but got dT: ", s[0], " dH: ", s[1],
               " dW: ", s[2]);
  FATHOM_CHECK(dil[0] > 0 && dil[2] > 0 && dil[1] > 0, "dilation should be greater than zero, but got dilationT: ",
               dil[0], " dilationH: ", dil[1], " dilationW: ", dil[2]);
  const int64_t ndim = input.dim();
  FATHOM_CHECK(ndim == 4 || ndim == 5, fn, ": Expected 4D or 5D tensor for input, but got: ", sizesText(input.sizes));
  for (int64_t i = ndim == 5 ? 1 : 0; i < ndim; ++i)  // 1.13 prints the dim's size (0) where it means the dim
    FATHOM_CHECK(symLt(0, input.sizes[i], "pool3d: non-empty non-batch dim"), fn,
                 ": Expected input's non-batch dimensions to have positive length, but input has a shape of ",
                 sizesText(input.sizes), " and non-batch dimension ", input.sizes[i].str(), " has length zero!");
  const SymInt &planes = input.sizes[ndim - 4], &it = input.sizes[ndim - 3], &ih = input.sizes[ndim - 2],
               &iw = input.sizes[ndim - 1];
  if (checkInputSize)
    FATHOM_CHECK(!symLt(it, k[0], "avg_pool3d: input >= kernel") && !symLt(ih, k[1], "avg_pool3d: input >= kernel") &&
                     !symLt(iw, k[2], "avg_pool3d: input >= kernel"),
                 "input image (T: ", it.str(), " H: ", ih.str(), " W: ", iw.str(), ") smaller than kernel size (kT: ",
                 k[0], " kH: ", k[1], " kW: ", k[2], ")");
  FATHOM_CHECK(k[0] / 2 >= p[0] && k[2] / 2 >= p[2] && k[1] / 2 >= p[1],
               "pad should be smaller than or equal to half of kernel size, but got kT: ", k[0], " kW: ", k[2],
               " kH: ", k[1], " padT: ", p[0], " padW: ", p[2], " padH: ", p[1]);
  FATHOM_CHECK(!symLt(out[0], 1, "pool3d: output >= 1") && !symLt(out[2], 1, "pool3d: output >= 1") &&
                   !symLt(out[1], 1, "pool3d: output >= 1"),
               "Given input size: (", planes.str(), "x", it.str(), "x", ih.str(), "x", iw.str(),
               "). Calculated output size: (", planes.str(), "x", out[0].str(), "x", out[1].str(), "x", out[2].str(),
               "). Output size is too small");
}

// ATen's check_dim_size(t, ndim, dim, size) for the channel and pooled dims of grad_output or
// indices against the input's channels and `out`; then, where 1.13 does not look, the batch.
void checkPooledDims(const TensorMeta& t, const TensorMeta& input, const Sizes3& out, const char* what) {
  const int64_t ndim = input.dim();
  for (int64_t d = ndim - 4; d < ndim; ++d) {
    const SymInt& want = d == ndim - 4 ? input.sizes[d] : out[static_cast<size_t>(d - (ndim - 3))];
    if (d >= t.dim()) (void)wrapDim(d, t.dim());  // 1.13's message reads t.size(d): "Dimension out of range"
    FATHOM_CHECK(t.dim() == ndim && symEq(t.sizes[d], want, "pool3d backward: pooled size"),
                 "Expected a tensor of dimension ", ndim, " and tensor.size[", d, "] == ", want.str(),
                 " but got: dimension ", t.dim(), " and tensor.size[", d, "] = ", t.sizes[d].str());
  }
  FATHOM_CHECK(ndim == 4 || !symLt(t.sizes[0], input.sizes[0], "pool3d backward: batch"), what, " has ",
               t.sizes[0].str(), " batches but the input has ", input.sizes[0].str(),
               " (PyTorch 1.13 would read past its end)");
}

SymIntList withPooled(const TensorMeta& input, const Sizes3& out) {
  SymIntList sizes(input.sizes.begin(), input.sizes.end() - 3);
  sizes.insert(sizes.end(), out.begin(), out.end());
  return sizes;
}

// ---- avg_pool3d and its backward -----------------------------------------------------------------

struct AvgLayout {
  PoolWindow w;
  AvgDivisor divisor;
  Sizes3 out;
};

// avg_pool3d's reading and checking of self (at margs[self]) and the arguments after it: kernel_size,
// stride, padding, ceil_mode, count_include_pad, divisor_override. `fn` names the caller.
AvgLayout avgPoolArgs(const ValueList& margs, size_t self, const char* fn) {
  AvgLayout l;
  l.w = poolWindowArgs(margs, self + 1, 3, kAvgRules);
  l.w.ceil = boolArg(margs, self + 4);
  const TensorMeta& input = metaArg(margs, self);
  checkRank(input);
  const auto divisor = optionalSymIntArg(margs, self + 6);
  FATHOM_CHECK(!divisor || divisor->hint() != 0, "divisor must be not zero");
  l.out = pooledSizes(input, l.w);
  shapeCheck(input, l.w, l.out, fn, true);
  l.divisor.includePad = boolArg(margs, self + 5);
  if (divisor) {
    l.divisor.override = static_cast<int32_t>(divisor->hint());  // 1.13's `int divide_factor`
    FATHOM_CHECK(*l.divisor.override != 0 || input.dtype != DType::Int64, "avg_pool3d: divisor_override ",
                 divisor->hint(), " is 0 as a 32-bit int (PyTorch 1.13 would divide an integer by it)");
  }
  return l;
}

TensorMeta avgPoolLayout(const ValueList& margs) {
  const AvgLayout l = avgPoolArgs(margs, 0, "avg_pool3d()");
  const TensorMeta& input = metaArg(margs, 0);
  checkDtype(input.dtype, "avg_pool3d_out_frame", true);
  return newTensorMeta(input, input.dtype, withPooled(input, l.out), SuggestedFormat::Contiguous);
}

// (grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
TensorMeta avgPoolBackwardLayout(const ValueList& margs) {
  const AvgLayout l = avgPoolArgs(margs, 1, "avg_pool3d_backward()");
  const TensorMeta &gradOut = metaArg(margs, 0), &input = metaArg(margs, 1);
  checkPooledDims(gradOut, input, l.out, "grad_output");
  checkDtype(input.dtype, "avg_pool3d_backward_out_frame", true);
  checkSameDtype(input.dtype, gradOut.dtype);
  return newTensorMeta(input, input.dtype, input.sizes, SuggestedFormat::Contiguous);
}

ValueList avgPoolKernel(const ValueList& args) {
  const ValueList margs = metaArgs(args);
  Tensor out = allocateTensor(avgPoolLayout(margs));
  const AvgLayout l = avgPoolArgs(margs, 0, "avg_pool3d()");
  avgPoolForward(tensorArg(args, 0), l.w, l.divisor, out);
  return {out};
}

ValueList avgPoolBackwardKernel(const ValueList& args) {
  const ValueList margs = metaArgs(args);
  Tensor gradInput = allocateTensor(avgPoolBackwardLayout(margs));  // zero-filled
  const AvgLayout l = avgPoolArgs(margs, 1, "avg_pool3d_backward()");
  avgPoolBackward(tensorArg(args, 0), l.w, l.divisor, gradInput);
  return {gradInput};
}

// ---- max_pool3d_with_indices and its backward ------------------------------------------------------

// kernel_size, stride, padding, dilation, ceil_mode after self (at margs[self]), and self's rank.
PoolWindow maxPoolArgs(const ValueList& margs, size_t self) {
  PoolWindow w = poolWindowArgs(margs, self + 1, 3, kMaxRules);
  w.ceil = boolArg(margs, self + 5);
  checkRank(metaArg(margs, self));
  return w;
}

ValueList maxPoolLayout(const ValueList& margs) {
  const PoolWindow w = maxPoolArgs(margs, 0);
  const TensorMeta& input = metaArg(margs, 0);
  const Sizes3 out = pooledSizes(input, w);
  shapeCheck(input, w, out, "max_pool3d_with_indices_out_cpu_template()", false);
  checkDtype(input.dtype, "max_pool3d_with_indices_cpu", false);
  const TensorMeta result = newTensorMeta(input, input.dtype, withPooled(input, out), SuggestedFormat::Contiguous);
  return {result, newTensorMeta(input, DType::Int64, result.sizes, SuggestedFormat::Contiguous)};
}

// (grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices): the pooled
// sizes are grad_output's own; 1.13 checks them only against indices and for being >= 1.
TensorMeta maxPoolBackwardLayout(const ValueList& margs) {
  const PoolWindow w = maxPoolArgs(margs, 1);
  const TensorMeta &gradOut = metaArg(margs, 0), &input = metaArg(margs, 1), &indices = metaArg(margs, 7);
  (void)wrapDim(-3, gradOut.dim());  // gradOutput.size(-3)
  const int64_t g = gradOut.dim();
  const Sizes3 out{gradOut.sizes[g - 3], gradOut.sizes[g - 2], gradOut.sizes[g - 1]};
  shapeCheck(input, w, out, "max_pool3d_with_indices_backward_out_cpu_template()", false);
  checkPooledDims(gradOut, input, out, "grad_output");
  checkPooledDims(indices, input, out, "indices");
  checkDtype(input.dtype, "max_pool3d_with_indices_backward", false);
  checkSameDtype(input.dtype, gradOut.dtype);
  checkSameDtype(DType::Int64, indices.dtype);
  FATHOM_CHECK(isDenseLayout(indices), "max_pool3d_with_indices_backward: indices of strides ", sizesText(indices.strides),
               " are not dense (PyTorch 1.13 reads them in memory order, past their elements)");
  return newTensorMeta(input, input.dtype, input.sizes, SuggestedFormat::Contiguous);
}

ValueList maxPoolKernel(const ValueList& args) {
  const ValueList margs = metaArgs(args);
  const ValueList metas = maxPoolLayout(margs);
  Tensor out = allocateTensor(metas[0].as<TensorMeta>()), indices = allocateTensor(metas[1].as<TensorMeta>());
  maxPoolForward(tensorArg(args, 0), maxPoolArgs(margs, 0), out, indices);
  return {out, indices};
}

ValueList maxPoolBackwardKernel(const ValueList& args) {
  Tensor gradInput = allocateTensor(maxPoolBackwardLayout(metaArgs(args)));  // zero-filled
  maxPoolBackward(tensorArg(args, 0), tensorArg(args, 7), 3, true, "max_pool3d_with_indices_backward", gradInput);
  return {gradInput};
}

}  // namespace

void registerPooling3dOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool ceil_mode=False, "
      "bool count_include_pad=True, int? divisor_override=None) -> Tensor",
      [](const ValueList& args) { return ValueList{avgPoolLayout(args)}; }, avgPoolKernel);
  (void)registry.add(
      "aten::avg_pool3d_backward(Tensor grad_output, Tensor self, int[3] kernel_size, int[3] stride, int[3] padding, "
      "bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor",
      [](const ValueList& args) { return ValueList{avgPoolBackwardLayout(args)}; }, avgPoolBackwardKernel);
  (void)registry.add(
      "aten::max_pool3d_with_indices(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, "
      "int[3] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
      maxPoolLayout, maxPoolKernel);
  (void)registry.add(
      "aten::max_pool3d_with_indices_backward(Tensor grad_output, Tensor self, int[3] kernel_size, int[3] stride, "
      "int[3] padding, int[3] dilation, bool ceil_mode, Tensor indices) -> Tensor",
      [](const ValueList& args) { return ValueList{maxPoolBackwardLayout(args)}; }, maxPoolBackwardKernel);
}

}  // namespace fathom
