// aten.convolution.default and aten.convolution_backward.default: 2-d and 3-d convolutions (and
// 1-d ones, run as 2-d), plain and transposed (ConvTranspose2d/3d: output_padding, groups,
// dilation). Argument checks, backend choice and result layouts live in ConvolutionLayout (shared
// by meta functions and kernels); the arithmetic in ConvolutionKernel.
#include "engine/core/Error.h"
#include "engine/ops/cpu/ConvolutionKernel.h"
#include "engine/ops/layout/ConvolutionLayout.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/families/NnFamilies.h"
#include "engine/ops/layout/NnLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

// convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
// and convolution_backward(grad_output, input, weight, bias_sizes, <the same from stride on>,
// output_mask): the parameters start at `first`; the bias (forward only) is argument 2.
ConvArgs convArgs(const ValueList& margs, size_t inputAt, size_t first, bool withBias) {
  ConvArgs a;
  a.input = &metaArg(margs, inputAt);
  a.weight = &metaArg(margs, inputAt + 1);
  if (withBias && !margs.at(2).isNone()) a.bias = &metaArg(margs, 2);
  a.stride = toIntList(margs.at(first));
  a.padding = toIntList(margs.at(first + 1));
  a.dilation = toIntList(margs.at(first + 2));
  a.transposed = boolArg(margs, first + 3);
  a.outputPadding = toIntList(margs.at(first + 4));
  a.groups = intArg(margs, first + 5);
  return a;
}

ConvSetup forwardSetup(const ValueList& margs) {
  return convSetup(convArgs(margs, 0, 3, true));
}

// A 4-d view of a real tensor of a 1-d convolution (unsqueeze(2)), or the tensor itself.
Tensor view4d(const Tensor& t, bool oneD) {
  if (!oneD) return t;
  const TensorMeta m = unsqueezeMeta(t.meta(), 2);
  IntList sizes, strides;
  for (size_t d = 0; d < m.sizes.size(); ++d) sizes.push_back(m.sizes[d].hint()), strides.push_back(m.strides[d].hint());
  auto v = t.asStrided(sizes, strides, t.storageOffset());
  FATHOM_CHECK(v.ok(), "convolution: cannot view a 1-d convolution's tensor as 2-d: ", v.ok() ? "" : v.error().message);
  return *v;
}

ValueList convolutionKernel(const ValueList& args) {
  const ConvSetup s = forwardSetup(metaArgs(args));
  Tensor out = allocateTensor(convOutputLayout(s));
  if (s.backend == ConvBackend::Empty) return {out};
  const bool oneD = s.params.oneD;
  const Tensor* bias = args.at(2).isNone() ? nullptr : &tensorArg(args, 2);
  const auto run = s.params.transposed ? convolutionTransposeForward : convolutionForward;
  run(view4d(tensorArg(args, 0), oneD), view4d(tensorArg(args, 1), oneD), bias, s.params, view4d(out, oneD));
  return {out};
}

// ---- convolution_backward ---------------------------------------------------------------

struct BackwardLayout {
  ConvSetup setup;
  std::array<bool, 3> mask{};
  TensorMeta gradInput, gradWeight, gradBias;
};

BackwardLayout backwardLayout(const ValueList& margs) {
  BackwardLayout b;
  const ConvArgs a = convArgs(margs, 1, 4, false);
  b.setup = convSetup(a);
  b.mask = outputMaskArg(margs.at(10));
  // 1.13's oneDNN backward computes the weight and bias gradients together: asking for the bias
  // alone returns grad_weight too.
  if (isMkldnn(b.setup.backend) && b.mask[2]) b.mask[1] = true;
  const TensorMeta& gradOut = metaArg(margs, 0);
  FATHOM_CHECK(gradOut.dim() == a.input->dim(), "Expected input and grad_output to have the same number of dimensions, but got: ",
               a.input->dim(), " and ", gradOut.dim());
  for (int64_t p : a.outputPadding)
    FATHOM_CHECK(p == 0 || a.transposed, "output_padding is not supported for non-transposed convolutions; got output_padding: ",
                 sizesText(toSymIntList(margs.at(8))));
  const TensorMeta out = convOutputLayout(b.setup);
  bool sameSizes = true;
  for (int64_t d = 0; d < out.dim(); ++d) sameSizes = sameSizes && symEq(gradOut.sizes[d], out.sizes[d], "convolution_backward: grad_output size");
  FATHOM_CHECK(sameSizes, "convolution_backward: expected grad_output of size ", sizesText(out.sizes),
               " (the convolution's output), but got ", sizesText(gradOut.sizes));
  FATHOM_CHECK(gradOut.dtype == a.input->dtype, "expected grad_output to have dtype ", scalarTypeName(a.input->dtype),
               " like input, but got ", scalarTypeName(gradOut.dtype));
  const bool empty = b.setup.backend == ConvBackend::Empty;
  // Gradients are computed in floating point only (1.13's dilated 3-d backward also takes int64;
  // Fathom refuses it).
  FATHOM_CHECK(empty || isFloating(a.input->dtype), "\"", convBackwardKernelName(b.setup), "\" not implemented for '",
               scalarTypeName(a.input->dtype), "'");
  const ConvGradLayouts grads = convGradLayouts(b.setup);
  b.gradInput = grads.input;
  b.gradWeight = grads.weight;
  // The Empty backend returns zeros(bias_sizes); the others sum grad_output per channel.
  SymIntList biasSizes{a.transposed ? a.weight->sizes[1] * SymInt(a.groups) : a.weight->sizes[0]};
  if (empty && !margs.at(3).isNone()) biasSizes = toSymIntList(margs.at(3));
  b.gradBias = newTensorMeta(gradOut, gradOut.dtype, biasSizes, SuggestedFormat::Contiguous);
  return b;
}

ValueList backwardMeta(const ValueList& args) {
  const BackwardLayout b = backwardLayout(args);
  return {b.mask[0] ? Value(b.gradInput) : Value(None{}), b.mask[1] ? Value(b.gradWeight) : Value(None{}),
          b.mask[2] ? Value(b.gradBias) : Value(None{})};
}

ValueList backwardKernel(const ValueList& args) {
  const BackwardLayout b = backwardLayout(metaArgs(args));
  std::array<Tensor, 3> outs;
  const TensorMeta* metas[3] = {&b.gradInput, &b.gradWeight, &b.gradBias};
  for (size_t i = 0; i < 3; ++i)
    if (b.mask[i]) outs[i] = allocateTensor(*metas[i]);  // zero-filled: the Empty backend's result
  if (b.setup.backend != ConvBackend::Empty) {
    const bool oneD = b.setup.params.oneD;
    std::array<Tensor, 3> views;
    ConvGradOutputs grads;
    for (size_t i = 0; i < 2; ++i)
      if (b.mask[i]) views[i] = view4d(outs[i], oneD);
    if (b.mask[0]) grads.input = &views[0];
    if (b.mask[1]) grads.weight = &views[1];
    if (b.mask[2]) grads.bias = &outs[2];
    const auto run = b.setup.params.transposed ? convolutionTransposeBackward : convolutionBackward;
    run(view4d(tensorArg(args, 0), oneD), view4d(tensorArg(args, 1), oneD), view4d(tensorArg(args, 2), oneD),
        b.setup.params, grads);
  }
  ValueList result;
  for (size_t i = 0; i < 3; ++i) result.push_back(b.mask[i] ? Value(outs[i]) : Value(None{}));
  return result;
}

}  // namespace

void registerConvolutionOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, "
      "bool transposed, int[] output_padding, int groups) -> Tensor",
      [](const ValueList& args) { return ValueList{convOutputLayout(forwardSetup(args))}; }, convolutionKernel);
  (void)registry.add(
      "aten::convolution_backward(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes, "
      "int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups, "
      "bool[3] output_mask) -> (Tensor, Tensor, Tensor)",
      backwardMeta, backwardKernel);
}

}  // namespace fathom
