// 2-d pooling: aten.max_pool2d_with_indices.default and aten.avg_pool2d.default (and their
// backwards), as PyTorch 1.13's CPU kernels compute them.
//
// Shapes: [N, C, H, W] or [C, H, W]; output size per dim is
//   floor((in + 2 * pad - dilation * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0)) / stride) + 1,
// less one in ceil mode when the last window would start past the padded input. Layout:
// channels_last when the input suggests it (4-d only), else contiguous. Max pooling takes the
// first maximum of each window (NaN wins) and records its flat index h * W + w within the plane;
// average pooling divides by the window clipped to the padded input (count_include_pad), to the
// input, or by divisor_override; integers divide with truncation. The backwards return a
// zero-filled tensor in the input's suggested layout with each output's gradient added back over
// its window (average pooling: divided by the same divisor, in the element type, as ATen does).
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/core/Error.h"
#include "engine/core/Parallel.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/families/NnFamilies.h"
#include "engine/ops/layout/NnLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

struct PoolParams {
  int64_t kH = 1, kW = 1, dH = 1, dW = 1, padH = 0, padW = 0, dilH = 1, dilW = 1;
  bool ceil = false;
};

// An int[2] argument: a single int, or a list of 1 or 2 ints (checked by the caller).
IntList pairArg(const Value& v) {
  if (v.is<SymInt>()) return {v.as<SymInt>().hint()};
  return toIntList(v);
}

// kernel_size, stride, padding (and dilation) as ATen's max_pool2d / avg_pool2d meta read them.
PoolParams poolParams(const ValueList& margs, size_t at, bool withDilation, const char* op) {
  const IntList k = pairArg(margs.at(at)), s = pairArg(margs.at(at + 1)), pad = pairArg(margs.at(at + 2));
  FATHOM_CHECK(k.size() == 1 || k.size() == 2, op, ": kernel_size must either be a single int, or a tuple of two ints");
  FATHOM_CHECK(s.size() <= 2, op, ": stride must either be omitted, a single int, or a tuple of two ints");
  FATHOM_CHECK(pad.size() == 1 || pad.size() == 2, op, ": padding must either be a single int, or a tuple of two ints");
  PoolParams p;
  p.kH = k[0], p.kW = k.size() == 1 ? k[0] : k[1];
  p.dH = s.empty() ? p.kH : s[0], p.dW = s.empty() ? p.kW : s.size() == 1 ? s[0] : s[1];
  p.padH = pad[0], p.padW = pad.size() == 1 ? pad[0] : pad[1];
  if (withDilation) {
    const IntList d = pairArg(margs.at(at + 3));
    FATHOM_CHECK(d.size() == 1 || d.size() == 2, op, ": dilation must be either a single int, or a tuple of two ints");
    p.dilH = d[0], p.dilW = d.size() == 1 ? d[0] : d[1];
  }
  return p;
}

// ATen's pooling_output_shape.
SymInt pooledSize(const SymInt& in, int64_t k, int64_t pad, int64_t stride, int64_t dilation, bool ceil) {
  FATHOM_CHECK(stride != 0, "stride should not be zero");
  FATHOM_CHECK(pad >= 0, "pad must be non-negative, but got pad: ", pad);
  FATHOM_CHECK(pad <= k / 2, "pad should be at most half of kernel size, but got pad=", pad, " and kernel_size=", k);
  SymInt out = floorDiv(in + SymInt(2 * pad - dilation * (k - 1) - 1 + (ceil ? stride - 1 : 0)), stride) + SymInt(1);
  if (ceil && symGe((out - SymInt(1)) * SymInt(stride), in + SymInt(pad), "pooling: last window starts in the input"))
    out = out - SymInt(1);
  return out;
}

struct PoolLayout {
  PoolParams p;
  TensorMeta out;
};

// Output layout and ATen's pool2d_shape_check; `kernel` names the kernel in dtype errors.
PoolLayout poolLayout(const TensorMeta& input, const PoolParams& p, const char* kernel, bool allowLong) {
  const int64_t ndim = input.dim();
  FATHOM_CHECK(ndim == 3 || ndim == 4, "non-empty 3D or 4D (batch mode) tensor expected for input");
  const SymInt& planes = input.sizes[ndim - 3];
  const SymInt &inH = input.sizes[ndim - 2], &inW = input.sizes[ndim - 1];
  PoolLayout l{p, {}};
  const SymInt outH = pooledSize(inH, p.kH, p.padH, p.dH, p.dilH, p.ceil);
  const SymInt outW = pooledSize(inW, p.kW, p.padW, p.dW, p.dilW, p.ceil);
  FATHOM_CHECK(p.kW > 0 && p.kH > 0, "kernel size should be greater than zero, but got kH: ", p.kH, " kW: ", p.kW);
  FATHOM_CHECK(p.dW > 0 && p.dH > 0, "stride should be greater than zero, but got dH: ", p.dH, " dW: ", p.dW);
  FATHOM_CHECK(p.dilH > 0 && p.dilW > 0, "dilation should be greater than zero, but got dilationH: ", p.dilH,
               " dilationW: ", p.dilW);
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
  PoolParams p = poolParams(margs, 1, true, "max_pool2d");
  p.ceil = boolArg(margs, 5);
  return poolLayout(metaArg(margs, 0), p, "max_pool2d", false);
}

// avg_pool2d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
PoolLayout avgPoolLayout(const ValueList& margs) {
  PoolParams p = poolParams(margs, 1, false, "avg_pool2d");
  p.ceil = boolArg(margs, 4);
  const auto divisor = optionalSymIntArg(margs, 6);
  FATHOM_CHECK(!divisor || divisor->hint() != 0, "divisor must be not zero");
  return poolLayout(metaArg(margs, 0), p, "avg_pool2d", true);
}

// A pooling problem over planes (n, c) of a tensor of rank 3 or 4, with element strides.
struct Planes {
  int64_t batch = 1, channels = 0, h = 0, w = 0;
  int64_t sN = 0, sC = 0, sH = 0, sW = 0;
  explicit Planes(const Tensor& t) {
    const int64_t d = t.dim();
    if (d == 4) batch = t.size(0), sN = t.stride(0);
    channels = t.size(d - 3), h = t.size(d - 2), w = t.size(d - 1);
    sC = t.stride(d - 3), sH = t.stride(d - 2), sW = t.stride(d - 1);
  }
  int64_t offset(int64_t plane) const { return (plane / channels) * sN + (plane % channels) * sC; }
  int64_t count() const { return batch * channels; }
};

// Runs fn(plane, oy, ox) over every output element, planes in parallel.
template <class Fn>
void forEachOutput(const Planes& out, const Fn& fn) {
  const int64_t perPlane = std::max<int64_t>(out.h * out.w, 1);
  parallelFor(out.count(), std::max<int64_t>(1, 16384 / perPlane), [&](int64_t b, int64_t e) {
    for (int64_t plane = b; plane < e; ++plane)
      for (int64_t oy = 0; oy < out.h; ++oy)
        for (int64_t ox = 0; ox < out.w; ++ox) fn(plane, oy, ox);
  });
}

template <class T>
void maxPoolTyped(const Tensor& input, const PoolParams& p, const Tensor& out, const Tensor& indices) {
  using C = OpMath<T>;
  const Planes in(input), o(out);
  const T* x = input.dataAs<T>();
  T* y = out.dataAs<T>();
  int64_t* idx = indices.dataAs<int64_t>();
  forEachOutput(o, [&](int64_t plane, int64_t oy, int64_t ox) {
    int64_t y0 = oy * p.dH - p.padH, x0 = ox * p.dW - p.padW;
    const int64_t y1 = std::min(y0 + (p.kH - 1) * p.dilH + 1, in.h), x1 = std::min(x0 + (p.kW - 1) * p.dilW + 1, in.w);
    while (y0 < 0) y0 += p.dilH;
    while (x0 < 0) x0 += p.dilW;
    const T* xp = x + in.offset(plane);
    int64_t best = y0 * in.w + x0;
    C maxval = -std::numeric_limits<C>::infinity();
    for (int64_t iy = y0; iy < y1; iy += p.dilH)
      for (int64_t ix = x0; ix < x1; ix += p.dilW) {
        const C v = static_cast<C>(xp[iy * in.sH + ix * in.sW]);
        if (v > maxval || std::isnan(v)) maxval = v, best = iy * in.w + ix;
      }
    const int64_t at = o.offset(plane) + oy * o.sH + ox * o.sW;
    y[at] = static_cast<T>(maxval);
    idx[at] = best;
  });
}

ValueList maxPoolKernel(const ValueList& args) {
  const PoolLayout l = maxPoolLayout(metaArgs(args));
  Tensor out = allocateTensor(l.out);
  TensorMeta im = l.out;
  im.dtype = DType::Int64;
  Tensor indices = allocateTensor(im);
  dispatchDType(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>>) maxPoolTyped<T>(tensorArg(args, 0), l.p, out, indices);
  });
  return {out, indices};
}

template <class T>
void avgPoolTyped(const Tensor& input, const PoolParams& p, bool includePad, std::optional<int64_t> divisor,
                  const Tensor& out) {
  using C = OpMath<T>;
  const Planes in(input), o(out);
  const T* x = input.dataAs<T>();
  T* y = out.dataAs<T>();
  forEachOutput(o, [&](int64_t plane, int64_t oy, int64_t ox) {
    int64_t y0 = oy * p.dH - p.padH, x0 = ox * p.dW - p.padW;
    int64_t y1 = std::min(y0 + p.kH, in.h + p.padH), x1 = std::min(x0 + p.kW, in.w + p.padW);
    const int64_t padded = (y1 - y0) * (x1 - x0);
    y0 = std::max<int64_t>(y0, 0), x0 = std::max<int64_t>(x0, 0);
    y1 = std::min(y1, in.h), x1 = std::min(x1, in.w);
    const int64_t at = o.offset(plane) + oy * o.sH + ox * o.sW;
    if (y0 >= y1 || x0 >= x1) {
      y[at] = T(0);
      return;
    }
    const T* xp = x + in.offset(plane);
    C sum = 0;
    for (int64_t iy = y0; iy < y1; ++iy)
      for (int64_t ix = x0; ix < x1; ++ix) sum += static_cast<C>(xp[iy * in.sH + ix * in.sW]);
    const int64_t div = divisor ? *divisor : includePad ? padded : (y1 - y0) * (x1 - x0);
    y[at] = static_cast<T>(sum / static_cast<C>(div));
  });
}

ValueList avgPoolKernel(const ValueList& args) {
  const PoolLayout l = avgPoolLayout(metaArgs(args));
  Tensor out = allocateTensor(l.out);
  const bool includePad = boolArg(args, 5);
  const auto divisor = optionalSymIntArg(args, 6);
  const std::optional<int64_t> div = divisor ? std::optional<int64_t>(divisor->hint()) : std::nullopt;
  dispatchDType(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>> || std::is_same_v<T, int64_t>)
      avgPoolTyped<T>(tensorArg(args, 0), l.p, includePad, div, out);
  });
  return {out};
}

// ---- max_pool2d_with_indices_backward ---------------------------------------------------------

// (grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices)
TensorMeta maxPoolBackwardLayout(const ValueList& margs) {
  const TensorMeta &gradOut = metaArg(margs, 0), &input = metaArg(margs, 1), &indices = metaArg(margs, 7);
  PoolParams p = poolParams(margs, 2, true, "max_pool2d_with_indices_backward");
  p.ceil = boolArg(margs, 6);
  const PoolLayout l = poolLayout(input, p, "max_pool2d_with_indices_backward", false);
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

// grad_input[plane][indices[o]] += grad_output[o], in the element type as ATen accumulates.
template <class T>
void maxPoolBackwardTyped(const Tensor& gradOut, const Tensor& indices, const Tensor& gradInput) {
  const Planes go(gradOut), ix(indices), gi(gradInput);
  const T* g = gradOut.dataAs<T>();
  const int64_t* id = indices.dataAs<int64_t>();
  T* out = gradInput.dataAs<T>();
  const int64_t planeSize = gi.h * gi.w;
  parallelFor(go.count(), 1, [&](int64_t b, int64_t e) {
    for (int64_t plane = b; plane < e; ++plane)
      for (int64_t oy = 0; oy < go.h; ++oy)
        for (int64_t ox = 0; ox < go.w; ++ox) {
          const int64_t index = id[ix.offset(plane) + oy * ix.sH + ox * ix.sW];
          FATHOM_CHECK(index >= 0 && index < planeSize, "max_pool2d_with_indices_backward: index ", index,
                       " is out of range for an input plane of ", gi.h, "x", gi.w);
          T& dst = out[gi.offset(plane) + (index / gi.w) * gi.sH + (index % gi.w) * gi.sW];
          dst = static_cast<T>(static_cast<OpMath<T>>(dst) + static_cast<OpMath<T>>(g[go.offset(plane) + oy * go.sH + ox * go.sW]));
        }
  });
}

ValueList maxPoolBackwardKernel(const ValueList& args) {
  Tensor gradInput = allocateTensor(maxPoolBackwardLayout(metaArgs(args)));  // zero-filled
  dispatchDType(gradInput.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>>)
      maxPoolBackwardTyped<T>(tensorArg(args, 0), tensorArg(args, 7), gradInput);
  });
  return {gradInput};
}

// ---- avg_pool2d_backward ------------------------------------------------------------------------

// (grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
// avg_pool2d's checks on self, then grad_output must have the pooled sizes.
PoolLayout avgPoolBackwardLayout(const ValueList& margs) {
  const TensorMeta &gradOut = metaArg(margs, 0), &input = metaArg(margs, 1);
  PoolParams p = poolParams(margs, 2, false, "avg_pool2d_backward");
  p.ceil = boolArg(margs, 5);
  const auto divisor = optionalSymIntArg(margs, 7);
  FATHOM_CHECK(!divisor || divisor->hint() != 0, "divisor must be not zero");
  PoolLayout l = poolLayout(input, p, "avg_pool2d_backward", true);
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

template <class T>
void avgPoolBackwardTyped(const Tensor& gradOut, const PoolParams& p, bool includePad, std::optional<int64_t> divisor,
                          const Tensor& gradInput) {
  using C = OpMath<T>;
  const Planes go(gradOut), gi(gradInput);
  const T* g = gradOut.dataAs<T>();
  T* out = gradInput.dataAs<T>();
  // One plane per task: windows overlap within a plane, never across planes.
  parallelFor(go.count(), 1, [&](int64_t b, int64_t e) {
    for (int64_t plane = b; plane < e; ++plane)
      for (int64_t oy = 0; oy < go.h; ++oy)
        for (int64_t ox = 0; ox < go.w; ++ox) {
          int64_t y0 = oy * p.dH - p.padH, x0 = ox * p.dW - p.padW;
          int64_t y1 = std::min(y0 + p.kH, gi.h + p.padH), x1 = std::min(x0 + p.kW, gi.w + p.padW);
          const int64_t padded = (y1 - y0) * (x1 - x0);
          y0 = std::max<int64_t>(y0, 0), x0 = std::max<int64_t>(x0, 0);
          y1 = std::min(y1, gi.h), x1 = std::min(x1, gi.w);
          if (y0 >= y1 || x0 >= x1) continue;
          const int64_t div = divisor ? *divisor : includePad ? padded : (y1 - y0) * (x1 - x0);
          const T delta = static_cast<T>(static_cast<C>(g[go.offset(plane) + oy * go.sH + ox * go.sW]) / static_cast<C>(div));
          T* dst = out + gi.offset(plane);
          for (int64_t iy = y0; iy < y1; ++iy)
            for (int64_t ix = x0; ix < x1; ++ix) {
              T& d = dst[iy * gi.sH + ix * gi.sW];
              d = static_cast<T>(static_cast<C>(d) + static_cast<C>(delta));
            }
        }
  });
}

ValueList avgPoolBackwardKernel(const ValueList& args) {
  const PoolLayout l = avgPoolBackwardLayout(metaArgs(args));
  Tensor gradInput = allocateTensor(l.out);  // zero-filled
  const bool includePad = boolArg(args, 6);
  const auto divisor = optionalSymIntArg(args, 7);
  const std::optional<int64_t> div = divisor ? std::optional<int64_t>(divisor->hint()) : std::nullopt;
  dispatchDType(gradInput.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>> || std::is_same_v<T, int64_t>)
      avgPoolBackwardTyped<T>(tensorArg(args, 0), l.p, includePad, div, gradInput);
  });
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
