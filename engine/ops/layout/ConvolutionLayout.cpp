// Convolution argument checks, backend choice and result layouts (see ConvolutionLayout.h).
#include "engine/ops/layout/ConvolutionLayout.h"

#include "engine/core/Error.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/layout/NnLayout.h"
#include "engine/ops/OpArgs.h"

namespace fathom {
namespace {

std::string listText(const IntList& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// ATen's expand_param_if_needed: one value stands for every spatial dim.
IntList expandParam(const IntList& v, const char* name, int64_t dims) {
  if (v.size() == 1) return IntList(static_cast<size_t>(dims), v[0]);
  FATHOM_CHECK(static_cast<int64_t>(v.size()) == dims, "expected ", name,
               " to be a single integer value or a list of ", dims,
               " values to match the convolution dimensions, but got ", name, "=", listText(v));
  return v;
}

bool anyBelow(const IntList& v, int64_t bound) {
  for (int64_t x : v)
    if (x < bound) return true;
  return false;
}

// check_shape_forward's checks of a transposed convolution: the input has weight.size(0) channels,
// the bias weight.size(1) * groups elements.
void checkTransposedShapes(const ConvArgs& a) {
  const TensorMeta &input = *a.input, &weight = *a.weight;
  FATHOM_CHECK(symEq(input.sizes[1], weight.sizes[0], "convolution: transposed input channels"),
               "Given transposed=1, weight of size ", sizesText(weight.sizes), ", expected input", sizesText(input.sizes),
               " to have ", weight.sizes[0].str(), " channels, but got ", input.sizes[1].str(), " channels instead");
  const SymInt out = weight.sizes[1] * SymInt(a.groups);
  if (a.bias)
    FATHOM_CHECK(a.bias->dim() == 1 && symEq(a.bias->sizes[0], out, "convolution: transposed bias size"),
                 "Given transposed=1, weight of size ", sizesText(weight.sizes), ", expected bias to be 1-dimensional with ",
                 out.str(), " elements, but got bias of size ", sizesText(a.bias->sizes), " instead");
}

// slow_conv_transpose2d_shape_check: output_padding below stride or dilation, and an output.
void checkTransposedOutput(const ConvSetup& s) {
  const ConvParams& p = s.params;
  FATHOM_CHECK((p.outputPadding[1] < p.stride[1] || p.outputPadding[1] < p.dilation[1]) &&
                   (p.outputPadding[0] < p.stride[0] || p.outputPadding[0] < p.dilation[0]),
               "output padding must be smaller than either stride or dilation, but got output_padding_height: ",
               p.outputPadding[0], " output_padding_width: ", p.outputPadding[1], " stride_height: ", p.stride[0],
               " stride_width: ", p.stride[1], " dilation_height: ", p.dilation[0], " dilation_width: ", p.dilation[1]);
  const SymIntList& o = s.outputSizes;
  FATHOM_CHECK(!symLt(o[2], 1, "transposed convolution: output height >= 1") &&
                   !symLt(o[3], 1, "transposed convolution: output width >= 1"),
               "Given input size per channel: (", s.input.sizes[2].str(), " x ", s.input.sizes[3].str(),
               "). Calculated output size per channel: (", o[2].str(), " x ", o[3].str(), "). Output size is too small");
}

// check_shape_forward's checks, on the op's own (not yet 2-d) tensors.
void checkShapes(const ConvArgs& a, const IntList& padding, const IntList& dilation) {
  const TensorMeta &input = *a.input, &weight = *a.weight;
  const int64_t k = input.dim();
  FATHOM_CHECK(weight.dim() == k, "Expected ", weight.dim(), "-dimensional input for ", weight.dim(),
               "-dimensional weight ", sizesText(weight.sizes), ", but got ", k, "-dimensional input of size ",
               sizesText(input.sizes), " instead");
  FATHOM_CHECK(k == 3 || k == 4, "Fathom's convolution supports 1-d and 2-d convolutions (3-d or 4-d input); got ",
               k, "-d input of size ", sizesText(input.sizes));
  const SymInt out = weight.sizes[0];
  FATHOM_CHECK(symGe(out, a.groups, "convolution: weight.size(0) >= groups"), "Given groups=", a.groups,
               ", expected weight to be at least ", a.groups, " at dimension 0, but got weight of size ",
               sizesText(weight.sizes), " instead");
  FATHOM_CHECK(symEq(mod(out, a.groups), 0, "convolution: groups divide weight.size(0)"), "Given groups=", a.groups,
               ", expected weight to be divisible by ", a.groups, " at dimension 0, but got weight of size ",
               sizesText(weight.sizes), " instead");
  if (a.transposed) return checkTransposedShapes(a);
  const SymInt channels = weight.sizes[1] * SymInt(a.groups);
  FATHOM_CHECK(symEq(input.sizes[1], channels, "convolution: input channels"), "Given groups=", a.groups,
               ", weight of size ", sizesText(weight.sizes), ", expected input", sizesText(input.sizes), " to have ",
               channels.str(), " channels, but got ", input.sizes[1].str(), " channels instead");
  if (a.bias)
    FATHOM_CHECK(a.bias->dim() == 1 && symEq(a.bias->sizes[0], out, "convolution: bias size"),
                 "Given weight of size ", sizesText(weight.sizes), ", expected bias to be 1-dimensional with ",
                 out.str(), " elements, but got bias of size ", sizesText(a.bias->sizes), " instead");
  bool fits = true;
  std::string in, kernel;
  for (int64_t i = 2; i < k; ++i) {
    const SymInt padded = input.sizes[i] + SymInt(2 * padding[i - 2]);
    const SymInt span = SymInt(dilation[i - 2]) * (weight.sizes[i] - SymInt(1)) + SymInt(1);
    if (symLt(padded, span, "convolution: kernel fits the padded input")) fits = false;
    in += (i > 2 ? " x " : "") + padded.str();
    kernel += (i > 2 ? " x " : "") + span.str();
  }
  FATHOM_CHECK(fits, "Calculated padded input size per channel: (", in, "). Kernel size: (", kernel,
               "). Kernel size can't be greater than actual input size");
}

void checkDtypes(const ConvArgs& a) {
  const auto typeName = [](DType t) { return std::string("torch.") + scalarTypeName(t) + "Tensor"; };
  FATHOM_CHECK(a.input->dtype == a.weight->dtype, "Input type (", typeName(a.input->dtype), ") and weight type (",
               typeName(a.weight->dtype), ") should be the same");
  if (a.bias)
    FATHOM_CHECK(a.input->dtype == a.bias->dtype, "Input type (", typeName(a.input->dtype), ") and bias type (",
                 typeName(a.bias->dtype), ") should be the same");
}

// select_conv_backend for a non-empty CPU convolution; use_mkldnn as with one thread.
ConvBackend pickBackend(const ConvSetup& s) {
  const auto& x = s.input.sizes;
  const auto& w = s.weight.sizes;
  if (symEq(x[0], 0, "convolution: empty batch") || symEq(x[1], 0, "convolution: no channels"))
    return ConvBackend::Empty;
  const ConvParams& p = s.params;
  if (s.input.dtype == DType::Float32) {
    const bool big = p.isStrided() || p.isDilated() || symGe(x[0], 16, "mkldnn: batch >= 16") ||
                     !symEq(w[3], 1, "mkldnn: kernel width 1") || !symEq(w[2], 1, "mkldnn: kernel height 1");
    const bool worth = p.groups > 1 ||
                       (symLt(3, w[3], "mkldnn: kernel width > 3") && symLt(3, w[2], "mkldnn: kernel height > 3")) ||
                       symLt(1, x[0], "mkldnn: batch > 1") ||
                       symLt(20480, x[0] * x[1] * x[2] * x[3], "mkldnn: input > 20480 elements");
    if (big && worth) return ConvBackend::Mkldnn;
  }
  return p.isDilated() ? ConvBackend::SlowDilated2d : ConvBackend::Slow2d;
}

// The first group's slice of `t` along `dim`, after ATen's subtensor (narrow, then contiguous
// in the format the whole tensor suggests).
TensorMeta groupSlice(const TensorMeta& t, int64_t dim, int64_t groups) {
  TensorMeta g = t;
  g.sizes[dim] = floorDiv(t.sizes[dim], groups);
  return contiguousIn(g, suggestMemoryFormat(t));
}

// What a slow backend runs per group: input and weight as the backend made them contiguous
// (in channels_last when either suggests it), and sliced to one group when grouped.
struct SlowOperands {
  TensorMeta input, weight;
};
SlowOperands slowOperands(const ConvSetup& s) {
  const SuggestedFormat f = channelsLastIf(suggestsChannelsLast(s.input) || suggestsChannelsLast(s.weight));
  SlowOperands o{contiguousIn(s.input, f), contiguousIn(s.weight, f)};
  if (s.params.groups > 1) o = {groupSlice(o.input, 1, s.params.groups), groupSlice(o.weight, 0, s.params.groups)};
  return o;
}

// The format of at::cat over equal per-group results laid out in `groupFormat`.
SuggestedFormat catFormat(const TensorMeta& like, SymIntList groupSizes, SuggestedFormat groupFormat) {
  return suggestMemoryFormat(newTensorMeta(like, like.dtype, std::move(groupSizes), groupFormat));
}

// The rest of convSetup for a transposed convolution: output sizes, checks, backend.
ConvSetup transposedSetup(ConvSetup s) {
  const auto& x = s.input.sizes;
  const auto& w = s.weight.sizes;
  const ConvParams& p = s.params;
  s.outputSizes = {x[0], w[1] * SymInt(p.groups)};
  for (int d = 0; d < 2; ++d)
    s.outputSizes.push_back((x[d + 2] - SymInt(1)) * SymInt(p.stride[d]) - SymInt(2 * p.padding[d]) +
                            SymInt(p.dilation[d]) * (w[d + 2] - SymInt(1)) + SymInt(p.outputPadding[d] + 1));
  checkTransposedOutput(s);
  const bool empty = symEq(x[0], 0, "convolution: empty batch") || symEq(x[1], 0, "convolution: no channels");
  s.backend = empty ? ConvBackend::Empty : ConvBackend::SlowTranspose2d;
  const DType t = s.input.dtype;
  FATHOM_CHECK((t != DType::Bool && t != DType::Float16) || s.backend == ConvBackend::Empty,
               "\"slow_conv_transpose2d_out_cpu\" not implemented for '", scalarTypeName(t), "'");
  return s;
}

}  // namespace

TensorMeta convView4d(const TensorMeta& t, bool oneD) { return oneD ? unsqueezeMeta(t, 2) : t; }
TensorMeta convViewBack(const TensorMeta& t, bool oneD) { return oneD ? squeezeMeta(t, 2) : t; }

ConvSetup convSetup(const ConvArgs& a) {
  const TensorMeta &input = *a.input, &weight = *a.weight;
  const int64_t dims = weight.dim() - 2;
  FATHOM_CHECK(dims > 0, "weight should have at least three dimensions");
  IntList stride = expandParam(a.stride, "stride", dims);
  IntList padding = expandParam(a.padding, "padding", dims);
  IntList dilation = expandParam(a.dilation, "dilation", dims);
  const IntList outputPadding = expandParam(a.outputPadding, "output_padding", dims);
  FATHOM_CHECK(a.groups > 0, "non-positive groups is not supported");
  FATHOM_CHECK(!anyBelow(padding, 0), "negative padding is not supported");
  FATHOM_CHECK(!anyBelow(outputPadding, 0), "negative output_padding is not supported");
  FATHOM_CHECK(!anyBelow(stride, 1), "non-positive stride is not supported");
  FATHOM_CHECK(!anyBelow(dilation, 1), "non-positive dilation is not supported");
  checkShapes(a, padding, dilation);
  checkDtypes(a);

  ConvSetup s;
  s.params.oneD = input.dim() == 3;
  IntList outPad = outputPadding;
  if (s.params.oneD) {  // view1d_as_2d; the input is made contiguous first, as ATen does
    stride.insert(stride.begin(), 1);
    padding.insert(padding.begin(), 0);
    dilation.insert(dilation.begin(), 1);
    outPad.insert(outPad.begin(), 0);
  }
  s.params.stride = stride;
  s.params.padding = padding;
  s.params.dilation = dilation;
  s.params.outputPadding = outPad;
  s.params.groups = a.groups;
  s.params.transposed = a.transposed;
  s.input = s.params.oneD ? unsqueezeMeta(contiguousIn(input, SuggestedFormat::Contiguous), 2) : input;
  s.weight = convView4d(weight, s.params.oneD);
  if (a.transposed) return transposedSetup(std::move(s));
  s.backend = pickBackend(s);
  const auto& x = s.input.sizes;
  const auto& w = s.weight.sizes;
  // An input without channels gives a result without channels, whatever the weight (1.13's Empty path).
  s.outputSizes = {x[0], s.backend == ConvBackend::Empty && symEq(x[1], 0, "convolution: no channels") ? SymInt(0) : w[0]};
  for (int d = 0; d < 2; ++d) {
    const SymInt span = SymInt(dilation[d]) * (w[d + 2] - SymInt(1)) + SymInt(1);
    s.outputSizes.push_back(floorDiv(x[d + 2] + SymInt(2 * padding[d]) - span, stride[d]) + SymInt(1));
  }
  const DType t = input.dtype;
  FATHOM_CHECK((t != DType::Bool && t != DType::Float16) || s.backend == ConvBackend::Empty,
               "\"slow_conv2d_cpu\" not implemented for '", scalarTypeName(t), "'");
  return s;
}

TensorMeta convOutputLayout(const ConvSetup& s) {
  SuggestedFormat f = SuggestedFormat::Contiguous;
  if (s.backend == ConvBackend::SlowTranspose2d) {
    f = SuggestedFormat::Contiguous;
  } else if (s.backend == ConvBackend::Mkldnn || (s.backend != ConvBackend::Empty && s.params.groups == 1)) {
    f = channelsLastIf(suggestsChannelsLast(s.input) || suggestsChannelsLast(s.weight));
  } else if (s.backend != ConvBackend::Empty) {
    const SlowOperands g = slowOperands(s);
    SymIntList groupSizes = s.outputSizes;
    groupSizes[1] = floorDiv(groupSizes[1], s.params.groups);
    const SuggestedFormat gf = channelsLastIf(suggestsChannelsLast(g.input) || suggestsChannelsLast(g.weight));
    f = catFormat(s.input, std::move(groupSizes), gf);
  }
  return convViewBack(newTensorMeta(s.input, s.input.dtype, s.outputSizes, f), s.params.oneD);
}

ConvGradLayouts convGradLayouts(const ConvSetup& s) {
  const bool oneD = s.params.oneD;
  const auto result = [&](const TensorMeta& like, SuggestedFormat f) {
    return convViewBack(newTensorMeta(like, like.dtype, like.sizes, f), oneD);
  };
  if (s.backend == ConvBackend::Empty) {  // zeros_like: preserve_format
    const auto zerosLike = [&](const TensorMeta& t) {
      return convViewBack(freshLike(t, t.dtype, likeStrides(t, std::nullopt)), oneD);
    };
    return {zerosLike(s.input), zerosLike(s.weight)};
  }
  if (s.backend == ConvBackend::Mkldnn) {
    const SuggestedFormat f = channelsLastIf(suggestsChannelsLast(s.input) || suggestsChannelsLast(s.weight));
    return {result(s.input, f), result(s.weight, f)};
  }
  if (s.backend == ConvBackend::SlowTranspose2d)
    return {result(s.input, SuggestedFormat::Contiguous), result(s.weight, SuggestedFormat::Contiguous)};
  // Slow backends: slow_conv2d's grad_input follows the input or the weight, its grad_weight the
  // weight alone; the dilated one lays both out by input or weight.
  const SlowOperands g = slowOperands(s);
  const bool either = suggestsChannelsLast(g.input) || suggestsChannelsLast(g.weight);
  const SuggestedFormat gi = channelsLastIf(either);
  const SuggestedFormat gw = s.backend == ConvBackend::SlowDilated2d ? gi : suggestMemoryFormat(g.weight);
  if (s.params.groups == 1) return {result(s.input, gi), result(s.weight, gw)};
  return {result(s.input, catFormat(s.input, g.input.sizes, gi)),
          result(s.weight, catFormat(s.weight, g.weight.sizes, gw))};
}

}  // namespace fathom
