// 2-d upsampling of NCHW tensors: upsample_nearest2d and upsample_bilinear2d, each as the
// default overload (output_size, scales_h, scales_w), the .vec one (output_size or
// scale_factors) and their backward ops.
//
// .vec computes the output size as PyTorch 1.13 does (floor(input * scale) when scale factors are
// given) and then is the default overload with those scales. Results are laid out in the input's
// suggested memory format (channels-last stays channels-last); gradients in the gradient's.
// Source positions are ATen's, in its precision (float for float32, double for float64):
//   nearest:  out index j reads min(floor(j * scale), in - 1), where scale = 1 / scale_factor if
//             one was given, else in / out; same size copies and double size halves exactly;
//   bilinear: j reads x = scale * (j + 0.5) - 0.5 clamped at 0 (align_corners: scale * j, with
//             scale (in - 1) / (out - 1)), blending floor(x) and the next element by x - floor(x).
// The backward ops add each gradient element into the elements it read, in the output's order.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/families/NnFamilies.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/layout/NnLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

struct Upsample {
  bool bilinear = false;
  bool alignCorners = false;
  SymIntList outputSize;                 // H, W
  std::optional<double> scaleH, scaleW;  // as the default overload takes them
};

std::optional<double> optionalDouble(const Value& v) {
  if (v.isNone()) return std::nullopt;
  return v.toDouble();
}

// The default overload's arguments: output_size at `sizePos`, then from `optionsPos`
// [align_corners,] scales_h, scales_w (the backward op has input_size between them).
Upsample defaultArgs(const ValueList& a, bool bilinear, size_t sizePos, size_t optionsPos) {
  Upsample u;
  u.bilinear = bilinear;
  u.outputSize = toSymIntList(a.at(sizePos));
  const size_t s = optionsPos + (bilinear ? 1 : 0);
  if (bilinear) u.alignCorners = boolArg(a, optionsPos);
  u.scaleH = optionalDouble(a.at(s));
  u.scaleW = optionalDouble(a.at(s + 1));
  return u;
}

// The .vec overload's: output_size?, [align_corners,] scale_factors? (compute_output_size).
Upsample vecArgs(const ValueList& a, bool bilinear, size_t first, const SymIntList& inputSize) {
  Upsample u;
  u.bilinear = bilinear;
  if (bilinear) u.alignCorners = boolArg(a, first + 1);
  const Value& scales = a.at(first + (bilinear ? 2 : 1));
  const bool hasSize = !a.at(first).isNone(), hasScales = !scales.isNone();
  FATHOM_CHECK(hasSize != hasScales, "Must specify exactly one of output_size and scale_factors");
  FATHOM_CHECK(inputSize.size() >= 2, "It is expected input_size equals to 4, but got size ", inputSize.size());
  if (hasSize) {
    u.outputSize = toSymIntList(a.at(first));
    FATHOM_CHECK(u.outputSize.size() + 2 == inputSize.size(), "upsample: output_size must name every spatial dim");
    return u;
  }
  const ValueList& f = scales.as<ValueList>();
  FATHOM_CHECK(f.size() + 2 == inputSize.size(), "upsample: scale_factors must name every spatial dim");
  for (size_t i = 0; i < f.size(); ++i) {
    const SymInt& in = inputSize[i + 2];
    FATHOM_CHECK(!in.isSymbolic(), "upsample: scale_factors on a symbolic size");
    u.outputSize.push_back(SymInt(static_cast<int64_t>(static_cast<double>(in.hint()) * f[i].toDouble())));
  }
  u.scaleH = f[0].toDouble();
  u.scaleW = f.size() > 1 ? std::optional<double>(f[1].toDouble()) : std::nullopt;
  return u;
}

// upsample_2d_common_check: the full output size [N, C, H, W].
SymIntList fullOutputSize(const SymIntList& inputSize, const SymIntList& outputSize) {
  FATHOM_CHECK(outputSize.size() == 2, "It is expected output_size equals to 2, but got size ", outputSize.size());
  FATHOM_CHECK(inputSize.size() == 4, "It is expected input_size equals to 4, but got size ", inputSize.size());
  bool positive = true;
  for (const SymInt& s : {inputSize[2], inputSize[3], outputSize[0], outputSize[1]})
    positive = positive && symLt(SymInt(0), s, "upsample: positive sizes");
  FATHOM_CHECK(positive, "Input and output sizes should be greater than 0, but got input (H: ", inputSize[2].str(),
               ", W: ", inputSize[3].str(), ") output (H: ", outputSize[0].str(), ", W: ", outputSize[1].str(), ")");
  return {inputSize[0], inputSize[1], outputSize[0], outputSize[1]};
}

TensorMeta forwardLayout(const TensorMeta& input, const Upsample& u) {
  const SymIntList full = fullOutputSize(input.sizes, u.outputSize);
  FATHOM_CHECK(!symEq(input.numel(), 0, "upsample: empty input") || !symEq(input.sizes[1] * input.sizes[2] * input.sizes[3], 0, "upsample: empty input"),
               "Non-empty 4D data tensor expected but got a tensor with sizes ", sizesStr(input.sizes));
  return newTensorMeta(input, input.dtype, full, suggestMemoryFormat(input));
}

TensorMeta backwardLayout(const TensorMeta& grad, const SymIntList& inputSize, const Upsample& u) {
  const SymIntList full = fullOutputSize(inputSize, u.outputSize);
  FATHOM_CHECK(grad.dim() == 4, "Expected grad_output to be a tensor of dimension 4 but got: dimension ", grad.dim());
  for (size_t i = 0; i < 4; ++i)
    FATHOM_CHECK(symEq(grad.sizes[i], full[i], "upsample backward: gradient size"),
                 "Expected grad_output to have the same shape as output; output.size(", i, ") = ", full[i].str(),
                 " but got grad_output.size(", i, ") = ", grad.sizes[i].str());
  return newTensorMeta(grad, grad.dtype, inputSize, suggestMemoryFormat(grad));
}

// One spatial dim's sources: out index j reads in indices i0[j], i1[j] with weights w0[j], w1[j]
// (nearest: i1 = i0, w0 = 1, w1 = 0). C is the precision ATen computes positions in.
template <class C>
struct Axis {
  std::vector<int64_t> i0, i1;
  std::vector<C> w0, w1;
};

// T is the element type: ATen computes the bilinear scale as a T (so bfloat16 rounds it) and the
// positions from it in C.
template <class T, class C>
Axis<C> axisOf(const Upsample& u, int64_t in, int64_t out, std::optional<double> scale) {
  Axis<C> a;
  const auto scaleValue = [&]() -> C {  // compute_scales_value
    return scale && *scale > 0 ? static_cast<C>(1.0 / *scale) : static_cast<C>(in) / static_cast<C>(out);
  };
  for (int64_t j = 0; j < out; ++j) {
    int64_t i0 = j, i1 = j;
    C w1 = 0;
    if (!u.bilinear) {  // nearest_idx: positions in float whatever the dtype
      const float s = scale && *scale > 0 ? static_cast<float>(1.0 / *scale) : static_cast<float>(in) / static_cast<float>(out);
      if (out != in) i0 = i1 = out == 2 * in ? j >> 1 : std::min<int64_t>(static_cast<int64_t>(std::floor(static_cast<float>(j) * s)), in - 1);
    } else if (out != in) {
      const C exact = u.alignCorners ? (out > 1 ? static_cast<C>(in - 1) / static_cast<C>(out - 1) : C(0)) : scaleValue();
      const C ratio = static_cast<C>(static_cast<OpMath<T>>(T(exact)));
      C x = u.alignCorners ? ratio * static_cast<C>(j) : ratio * (static_cast<C>(j) + C(0.5)) - C(0.5);
      if (!u.alignCorners && x < 0) x = 0;
      i0 = static_cast<int64_t>(x);
      i1 = i0 + (i0 < in - 1 ? 1 : 0);
      w1 = std::min(std::max(x - static_cast<C>(i0), C(0)), C(1));
    }
    a.i0.push_back(i0), a.i1.push_back(i1), a.w0.push_back(C(1) - w1), a.w1.push_back(w1);
  }
  return a;
}

// Calls fn(outOffset, inOffsets[4], weights[4]) for every output element of [N, C, OH, OW] in
// row-major order; offsets in elements of the given strides.
template <class T, class C, class Fn>
void forEachOutput(const Upsample& u, const IntList& in, const IntList& inStrides, const IntList& out,
                   const IntList& outStrides, Fn&& fn) {
  const Axis<C> h = axisOf<T, C>(u, in[2], out[2], u.scaleH), w = axisOf<T, C>(u, in[3], out[3], u.scaleW);
  for (int64_t n = 0; n < out[0]; ++n)
    for (int64_t c = 0; c < out[1]; ++c) {
      const int64_t ib = n * inStrides[0] + c * inStrides[1], ob = n * outStrides[0] + c * outStrides[1];
      for (int64_t y = 0; y < out[2]; ++y)
        for (int64_t x = 0; x < out[3]; ++x) {
          const int64_t r0 = ib + h.i0[y] * inStrides[2], r1 = ib + h.i1[y] * inStrides[2];
          fn(ob + y * outStrides[2] + x * outStrides[3],
             std::array<int64_t, 4>{r0 + w.i0[x] * inStrides[3], r0 + w.i1[x] * inStrides[3], r1 + w.i0[x] * inStrides[3],
                                    r1 + w.i1[x] * inStrides[3]},
             std::array<C, 4>{h.w0[y], h.w1[y], w.w0[x], w.w1[x]});
        }
    }
}

Tensor forwardKernel(const Tensor& input, const Upsample& u) {
  Tensor out = allocateTensor(forwardLayout(input.meta(), u));
  dispatchDType(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
    const T* src = reinterpret_cast<const T*>(input.data());
    T* dst = out.dataAs<T>();
    forEachOutput<T, C>(u, input.sizes(), input.strides(), out.sizes(), out.strides(), [&](int64_t o, auto i, auto wt) {
      if (!u.bilinear) return void(dst[o] = src[i[0]]);
      const auto at = [&](int k) { return static_cast<C>(static_cast<OpMath<T>>(src[i[k]])); };
      const C top = at(0) * wt[2] + at(1) * wt[3], bottom = at(2) * wt[2] + at(3) * wt[3];
      dst[o] = T(top * wt[0] + bottom * wt[1]);
    });
  });
  return out;
}

Tensor backwardKernel(const Tensor& grad, const SymIntList& inputSize, const Upsample& u) {
  Tensor out = allocateTensor(backwardLayout(grad.meta(), inputSize, u));
  dispatchDType(grad.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
    const T* g = reinterpret_cast<const T*>(grad.data());
    T* dst = out.dataAs<T>();
    const auto add = [&](int64_t i, C v) { dst[i] = T(static_cast<C>(static_cast<OpMath<T>>(dst[i])) + v); };
    forEachOutput<T, C>(u, out.sizes(), out.strides(), grad.sizes(), grad.strides(), [&](int64_t o, auto i, auto wt) {
      const C v = static_cast<C>(static_cast<OpMath<T>>(g[o]));
      if (!u.bilinear) return add(i[0], v);
      add(i[0], wt[0] * wt[2] * v), add(i[1], wt[0] * wt[3] * v), add(i[2], wt[1] * wt[2] * v), add(i[3], wt[1] * wt[3] * v);
    });
  });
  return out;
}

void addUpsample(OpRegistry& r, const std::string& name, bool bilinear) {
  const std::string ac = bilinear ? "bool align_corners, " : "";
  (void)r.add(("aten::" + name + "(Tensor self, SymInt[2] output_size, " + ac + "float? scales_h=None, float? scales_w=None) -> Tensor").c_str(),
              [bilinear](const ValueList& a) { return ValueList{forwardLayout(metaArg(a, 0), defaultArgs(a, bilinear, 1, 2))}; },
              [bilinear](const ValueList& a) { return ValueList{forwardKernel(tensorArg(a, 0), defaultArgs(a, bilinear, 1, 2))}; });
  (void)r.add(("aten::" + name + ".vec(Tensor input, SymInt[]? output_size, " + ac + "float[]? scale_factors) -> Tensor").c_str(),
              [bilinear](const ValueList& a) {
                return ValueList{forwardLayout(metaArg(a, 0), vecArgs(a, bilinear, 1, metaArg(a, 0).sizes))};
              },
              [bilinear](const ValueList& a) {
                return ValueList{forwardKernel(tensorArg(a, 0), vecArgs(a, bilinear, 1, tensorArg(a, 0).meta().sizes))};
              });
  (void)r.add(("aten::" + name + "_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, " + ac +
               "float? scales_h=None, float? scales_w=None) -> Tensor").c_str(),
              [bilinear](const ValueList& a) {
                return ValueList{backwardLayout(metaArg(a, 0), toSymIntList(a.at(2)), defaultArgs(a, bilinear, 1, 3))};
              },
              [bilinear](const ValueList& a) {
                Upsample u = defaultArgs(a, bilinear, 1, 3);
                return ValueList{backwardKernel(tensorArg(a, 0), toSymIntList(a.at(2)), u)};
              });
  // .vec backward: (grad_output, output_size?, input_size, [align_corners,] scale_factors?).
  auto vecBackward = [bilinear](const ValueList& a) {
    ValueList shifted{a.at(0), a.at(1)};  // input_size moves out of the way of vecArgs
    for (size_t i = 3; i < a.size(); ++i) shifted.push_back(a.at(i));
    return vecArgs(shifted, bilinear, 1, toSymIntList(a.at(2)));
  };
  (void)r.add(("aten::" + name + "_backward.vec(Tensor grad_output, SymInt[]? output_size, SymInt[] input_size, " + ac +
               "float[]? scale_factors) -> Tensor").c_str(),
              [vecBackward](const ValueList& a) { return ValueList{backwardLayout(metaArg(a, 0), toSymIntList(a.at(2)), vecBackward(a))}; },
              [vecBackward](const ValueList& a) {
                return ValueList{backwardKernel(tensorArg(a, 0), toSymIntList(a.at(2)), vecBackward(a))};
              });
}

}  // namespace

void registerUpsampleOps(OpRegistry& registry) {
  addUpsample(registry, "upsample_nearest2d", false);
  addUpsample(registry, "upsample_bilinear2d", true);
}

}  // namespace fathom
