// Adaptive average pooling (VGG, AlexNet, and every model that pools to a fixed size):
// aten._adaptive_avg_pool2d.default and its backward, as PyTorch 1.13's CPU kernels compute them.
//
// Output pixel (oh, ow) averages the input window rows [floor(oh * H / OH), ceil((oh + 1) * H / OH))
// and columns likewise (windows overlap when OH does not divide H), summed in the accumulation
// type (float for float32 and bfloat16, double for float64) in row-major window order and divided
// by the window's height, then its width. Layouts: a 4-d result takes the input's suggested memory
// format (channels_last or contiguous), a 3-d one is contiguous; the backward's grad_input has the
// input's sizes in the input's suggested format. The backward reads the pooled sizes from
// grad_output itself (PyTorch checks only that its non-batch dims are non-empty) and adds
// grad_output / kh / kw into every input of the window, in the element type (bfloat16 rounds
// after each division and each addition).
#include <algorithm>
#include <cmath>

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

// caffe2's names of the dtypes this op takes, as its dtype messages print them.
const char* typeMetaName(DType t) {
  switch (t) {
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    case DType::BFloat16: return "c10::BFloat16";
    default: return scalarTypeName(t);
  }
}

void checkDtype(DType t, const char* kernel) {
  FATHOM_CHECK(t == DType::Float32 || t == DType::Float64 || t == DType::BFloat16, "\"", kernel,
               "\" not implemented for '", scalarTypeName(t), "'");
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
  return newTensorMeta(input, input.dtype, input.sizes, suggestMemoryFormat(input));
}

// ATen's start_index / end_index, in float as ATen computes them.
int64_t startIndex(int64_t a, int64_t b, int64_t c) {
  return static_cast<int64_t>(std::floor(static_cast<float>(a * c) / static_cast<float>(b)));
}
int64_t endIndex(int64_t a, int64_t b, int64_t c) {
  return static_cast<int64_t>(std::ceil(static_cast<float>((a + 1) * c) / static_cast<float>(b)));
}

// A tensor of rank >= 2 as planes of [h, w] with element strides; the leading dims numbered through.
struct Planes {
  int64_t count = 1, h = 0, w = 0, sH = 0, sW = 0;
  IntList lead, leadStrides;
  explicit Planes(const Tensor& t) {
    const int64_t d = t.dim();
    for (int64_t i = 0; i < d - 2; ++i) lead.push_back(t.size(i)), leadStrides.push_back(t.stride(i)), count *= t.size(i);
    h = t.size(d - 2), w = t.size(d - 1), sH = t.stride(d - 2), sW = t.stride(d - 1);
  }
  int64_t offset(int64_t plane) const {
    int64_t off = 0;
    for (int64_t i = static_cast<int64_t>(lead.size()) - 1; i >= 0; --i) {
      off += (plane % lead[i]) * leadStrides[i];
      plane /= lead[i];
    }
    return off;
  }
};

// Window of output pixel (o) of `out` pixels over `in` input pixels.
struct Window {
  int64_t begin, end;
  int64_t size() const { return end - begin; }
};
Window window(int64_t o, int64_t out, int64_t in) { return {startIndex(o, out, in), endIndex(o, out, in)}; }

// fn(inputPlane, outputPlane, oh, ow, rows, cols) for every pooled pixel; planes in parallel (a plane
// is written by one task only).
template <class Fn>
void forEachWindow(const Planes& in, const Planes& out, int64_t grain, const Fn& fn) {
  parallelFor(out.count, grain, [&](int64_t b, int64_t e) {
    for (int64_t plane = b; plane < e; ++plane)
      for (int64_t oh = 0; oh < out.h; ++oh) {
        const Window rows = window(oh, out.h, in.h);
        for (int64_t ow = 0; ow < out.w; ++ow) fn(in.offset(plane), out.offset(plane), oh, ow, rows, window(ow, out.w, in.w));
      }
  });
}

template <class T>
void adaptiveForward(const Tensor& input, const Tensor& out) {
  using Acc = OpMath<T>;
  const Planes in(input), o(out);
  const T* x = input.dataAs<T>();
  T* y = out.dataAs<T>();
  const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(in.h * in.w, 1));
  forEachWindow(in, o, grain, [&](int64_t xAt, int64_t yAt, int64_t oh, int64_t ow, Window rows, Window cols) {
    Acc sum = 0;
    for (int64_t ih = rows.begin; ih < rows.end; ++ih)
      for (int64_t iw = cols.begin; iw < cols.end; ++iw) sum += static_cast<Acc>(x[xAt + ih * in.sH + iw * in.sW]);
    y[yAt + oh * o.sH + ow * o.sW] = static_cast<T>(sum / static_cast<Acc>(rows.size()) / static_cast<Acc>(cols.size()));
  });
}

template <class T>
void adaptiveBackward(const Tensor& gradOut, const Tensor& gradIn) {
  using Acc = OpMath<T>;
  const Planes go(gradOut), gi(gradIn);
  FATHOM_CHECK(go.count == gi.count, "adaptive_avg_pool2d_backward: grad_output has ", go.count,
               " planes but the input has ", gi.count);
  const T* g = gradOut.dataAs<T>();
  T* dx = gradIn.dataAs<T>();
  forEachWindow(gi, go, 1, [&](int64_t dxAt, int64_t gAt, int64_t oh, int64_t ow, Window rows, Window cols) {
    // grad_output / kh / kw in the element type: bfloat16 rounds after each division.
    const T perRow = static_cast<T>(static_cast<Acc>(g[gAt + oh * go.sH + ow * go.sW]) / static_cast<Acc>(rows.size()));
    const T delta = static_cast<T>(static_cast<Acc>(perRow) / static_cast<Acc>(cols.size()));
    for (int64_t ih = rows.begin; ih < rows.end; ++ih)
      for (int64_t iw = cols.begin; iw < cols.end; ++iw) {
        T& d = dx[dxAt + ih * gi.sH + iw * gi.sW];
        d = static_cast<T>(static_cast<Acc>(d) + static_cast<Acc>(delta));
      }
  });
}

template <class Fn>
void dispatchPooling(DType t, Fn&& fn) {
  dispatchDType(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>>) fn(tag);
  });
}

ValueList adaptiveKernel(const ValueList& args) {
  Tensor out = allocateTensor(adaptiveLayout(metaArgs(args)));
  if (out.numel() == 0) return {out};
  dispatchPooling(out.dtype(), [&](auto tag) { adaptiveForward<typename decltype(tag)::type>(tensorArg(args, 0), out); });
  return {out};
}

ValueList adaptiveBackwardKernel(const ValueList& args) {
  Tensor gradIn = allocateTensor(adaptiveBackwardLayout(metaArgs(args)));  // zero-filled
  if (gradIn.numel() == 0) return {gradIn};
  dispatchPooling(gradIn.dtype(), [&](auto tag) {
    adaptiveBackward<typename decltype(tag)::type>(tensorArg(args, 0), gradIn);
  });
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
}

}  // namespace fathom
