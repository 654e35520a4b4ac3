// Convolution argument checks, backend choice and result layouts (see ConvolutionLayout.h).
#include "engine/ops/layout/ConvolutionLayout.h"

#include "engine/core/Error.h"
#include "engine/ops/AtenVersion.h"
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

// slow_conv_transpose{2,3}d_shape_check: output_padding below stride or dilation, and an output.
void checkTransposedOutput(const ConvSetup& s) {
  const ConvParams& p = s.params;
  static const char* const names[] = {"depth", "height", "width"};
  const size_t dims = p.stride.size(), first = 3 - dims;
  bool small = true;
  std::string got;
  for (size_t d = 0; d < dims; ++d) {
    small = small && (p.outputPadding[d] < p.stride[d] || p.outputPadding[d] < p.dilation[d]);
    got += std::string(d ? " " : "") + "output_padding_" + names[first + d] + ": " + std::to_string(p.outputPadding[d]);
  }
  for (size_t d = 0; d < dims; ++d) got += std::string(" stride_") + names[first + d] + ": " + std::to_string(p.stride[d]);
  for (size_t d = 0; d < dims; ++d) got += std::string(" dilation_") + names[first + d] + ": " + std::to_string(p.dilation[d]);
  FATHOM_CHECK(small, "output padding must be smaller than either stride or dilation, but got ", got);
  const SymIntList& o = s.outputSizes;
  bool fits = true;
  std::string in, out;
  for (size_t d = 2; d < o.size(); ++d) {
    fits = fits && !symLt(o[d], 1, "transposed convolution: output size >= 1");
    in += (d > 2 ? " x " : "") + s.input.sizes[d].str();
    out += (d > 2 ? " x " : "") + o[d].str();
  }
  FATHOM_CHECK(fits, "Given input size per channel: (", in, "). Calculated output size per channel: (", out,
               "). Output size is too small");
}

// check_shape_forward's checks, on the op's own (not yet 2-d) tensors.
void checkShapes(const ConvArgs& a, const IntList& padding, const IntList& dilation) {
  const TensorMeta &input = *a.input, &weight = *a.weight;
  const int64_t k = input.dim();
  FATHOM_CHECK(weight.dim() == k, "Expected ", weight.dim(), "-dimensional input for ", weight.dim(),
               "-dimensional weight ", sizesText(weight.sizes), ", but got ", k, "-dimensional input of size ",
               sizesText(input.sizes), " instead");
  FATHOM_CHECK(k >= 3 && k <= 5, "Fathom's convolution supports 1-d, 2-d and 3-d convolutions (3-d, 4-d or 5-d input); got ",
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

// select_conv_backend for a non-empty CPU convolution; use_mkldnn as with one thread. use_mkldnn
// reads the last two kernel sizes and the first four input sizes whatever the rank; a 3-d
// convolution oneDNN takes gives the same layouts as a slow one, but its backward's output_mask
// differs (see ConvolutionOps.cpp).
bool usesMkldnn(const ConvSetup& s) {
  const auto& x = s.input.sizes;
  const auto& w = s.weight.sizes;
  const ConvParams& p = s.params;
  const SymInt& kw = w[w.size() - 1];
  const SymInt& kh = w[w.size() - 2];
  if (s.input.dtype != DType::Float32) return false;
  const bool big = p.isStrided() || p.isDilated() || symGe(x[0], 16, "mkldnn: batch >= 16") ||
                   !symEq(kw, 1, "mkldnn: kernel width 1") || !symEq(kh, 1, "mkldnn: kernel height 1");
  const bool worth = p.groups > 1 ||
                     (symLt(3, kw, "mkldnn: kernel width > 3") && symLt(3, kh, "mkldnn: kernel height > 3")) ||
                     symLt(1, x[0], "mkldnn: batch > 1") ||
                     symLt(20480, x[0] * x[1] * x[2] * x[3], "mkldnn: input > 20480 elements");
  return big && worth;
}

ConvBackend pickBackend(const ConvSetup& s) {
  const auto& x = s.input.sizes;
  if (symEq(x[0], 0, "convolution: empty batch") || symEq(x[1], 0, "convolution: no channels"))
    return ConvBackend::Empty;
  const ConvParams& p = s.params;
  if (usesMkldnn(s)) return ConvBackend::Mkldnn;
  if (p.threeD()) return p.isDilated() ? ConvBackend::SlowDilated3d : ConvBackend::Slow3d;
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
  for (size_t d = 0; d < p.stride.size(); ++d)
    s.outputSizes.push_back((x[d + 2] - SymInt(1)) * SymInt(p.stride[d]) - SymInt(2 * p.padding[d]) +
                            SymInt(p.dilation[d]) * (w[d + 2] - SymInt(1)) + SymInt(p.outputPadding[d] + 1));
  checkTransposedOutput(s);
  const bool empty = symEq(x[0], 0, "convolution: empty batch") || symEq(x[1], 0, "convolution: no channels");
  s.backend = empty ? ConvBackend::Empty : p.threeD() ? ConvBackend::SlowTranspose3d : ConvBackend::SlowTranspose2d;
  // 2.x runs a transposed convolution on oneDNN where it runs a plain one there, unless an
  // output_padding reaches its stride (is_output_padding_big); 1.13 had only the slow kernels.
  // (The two differ here only in the backward's output mask: see ConvolutionOps.cpp.)
  bool bigOutputPadding = false;
  for (size_t d = 0; d < p.stride.size(); ++d) bigOutputPadding = bigOutputPadding || p.outputPadding[d] >= p.stride[d];
  if (s.backend == ConvBackend::SlowTranspose2d && atenVersion().atLeast(2, 0) && !bigOutputPadding && usesMkldnn(s))
    s.backend = ConvBackend::MkldnnTranspose;
  const DType t = s.input.dtype;
  if (s.backend == ConvBackend::SlowTranspose3d) {
    // 1.13 refuses bfloat16 here too, with a misleading channel-count message of its own.
    FATHOM_CHECK(t != DType::BFloat16, "aten.convolution: a bfloat16 transposed 3-d convolution is not supported "
                                       "(PyTorch 1.13 on CPU refuses it too); convert to float32");
    FATHOM_CHECK(t != DType::Bool && t != DType::Float16, "\"slow_conv_transpose3d_out_cpu\" not implemented for '",
                 scalarTypeName(t), "'");
  }
  FATHOM_CHECK((t != DType::Bool && t != DType::Float16) || s.backend == ConvBackend::Empty,
               "\"slow_conv_transpose2d_out_cpu\" not implemented for '", scalarTypeName(t), "'");
  return s;
}

// The dtypes each forward backend's dispatch accepts (1.13's messages).
void checkForwardDtype(const ConvSetup& s) {
  const DType t = s.input.dtype;
  switch (s.backend) {
    case ConvBackend::Empty: return;
    case ConvBackend::Slow3d:
      FATHOM_CHECK(t != DType::Bool && t != DType::Float16, "\"compute_columns3d\" not implemented for '",
                   scalarTypeName(t), "'");
      return;
    case ConvBackend::SlowDilated3d:
      FATHOM_CHECK(t == DType::Float32 || t == DType::Float64 || t == DType::BFloat16 || t == DType::Int64,
                   "\"slow_conv_dilated<>\" not implemented for '", scalarTypeName(t), "'");
      return;
    default:
      FATHOM_CHECK(t != DType::Bool && t != DType::Float16, "\"slow_conv2d_cpu\" not implemented for '",
                   scalarTypeName(t), "'");
  }
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
  for (size_t d = 0; d < stride.size(); ++d) {
    const SymInt span = SymInt(dilation[d]) * (w[d + 2] - SymInt(1)) + SymInt(1);
    s.outputSizes.push_back(floorDiv(x[d + 2] + SymInt(2 * padding[d]) - span, stride[d]) + SymInt(1));
  }
  checkForwardDtype(s);
  return s;
}

// 2.x's transposed 2-d kernels, oneDNN's and the slow one alike, lay out their results in
// channels_last when the input or the weight suggests it; 1.13's slow one never did.
namespace {
bool transposedFollowsChannelsLast(const ConvSetup& s) {
  return s.backend == ConvBackend::MkldnnTranspose ||
         (s.backend == ConvBackend::SlowTranspose2d && atenVersion().atLeast(2, 0));
}
}  // namespace

TensorMeta convOutputLayout(const ConvSetup& s) {
  SuggestedFormat f = SuggestedFormat::Contiguous;
  if (transposedFollowsChannelsLast(s)) {
    f = channelsLastIf(suggestsChannelsLast(s.input) || suggestsChannelsLast(s.weight));
  } else if (s.backend == ConvBackend::SlowTranspose2d || s.params.threeD()) {
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
  if (!transposedFollowsChannelsLast(s) && (s.backend == ConvBackend::SlowTranspose2d || s.params.threeD()))
    return {result(s.input, SuggestedFormat::Contiguous), result(s.weight, SuggestedFormat::Contiguous)};
  if (isMkldnn(s.backend) || transposedFollowsChannelsLast(s)) {
    const SuggestedFormat f = channelsLastIf(suggestsChannelsLast(s.input) || suggestsChannelsLast(s.weight));
    return {result(s.input, f), result(s.weight, f)};
  }
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

const char* convBackwardKernelName(const ConvSetup& s) {
  switch (s.backend) {
    case ConvBackend::SlowTranspose2d: return "slow_conv_transpose2d_backward_out_cpu";
    case ConvBackend::SlowTranspose3d: return "slow_conv_transpose3d_backward_out_cpu";
    case ConvBackend::Slow3d: return "slow_conv3d_cpu_grad_input";
    case ConvBackend::SlowDilated3d: return "slow_conv_dilated<>";
    case ConvBackend::Empty: return s.params.transposed ? "slow_conv_transpose2d_backward_out_cpu" : "slow_conv2d_cpu_grad_input";
    default: return "slow_conv2d_cpu_grad_input";
  }
}

}  // namespace fathom
