// nn.Unfold and nn.Fold: aten.im2col.default and aten.col2im.default, as PyTorch 1.13's CPU
// kernels compute them (each is the other's derivative, NnDerivatives.cpp).
//
// im2col(self [N,] C, H, W) -> [N,] C * kh * kw, L: column l holds the patch sliding block l
// sees (zeros where it reads padding); col2im(self [N,] C * kh * kw, L, output_size) -> [N,]
// C, H, W adds each column back into the positions it was read from, in ATen's order (row by
// row of the column matrix, in the element type: float16 and bfloat16 round after every
// addition). Both read the input as its contiguous copy and return a contiguous result; the
// loops are convolution's own (cpu/ConvolutionIm2col.h). Dtypes: float32, float64, float16,
// bfloat16, as 1.13 dispatches them.
//
// Arguments are checked in 1.13's order and words (im2col: kernel, dilation, padding, stride;
// col2im: kernel, stride, dilation, padding), except where 1.13 does worse: a kernel whose
// area overflows is refused (1.13's col2im divides by the wrapped product, and crashes when it is
// 0), and the spatial size in im2col's message is the input's (1.13 prints its height twice).
#include <string>

#include "engine/core/Error.h"
#include "engine/ops/cpu/ConvolutionIm2col.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/families/NnFamilies.h"
#include "engine/ops/layout/NnLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

struct FoldParams {
  int64_t kh = 1, kw = 1, dh = 1, dw = 1, ph = 0, pw = 0, sh = 1, sw = 1;
};

// An int[2] argument: a single int stands for both dims; a list must have two (checked here,
// in ATen's words, since the schema lets lists of any length through).
IntList pairArg(const Value& v, const char* name) {
  const IntList l = v.is<SymInt>() ? IntList{v.as<SymInt>().hint(), v.as<SymInt>().hint()} : toIntList(v);
  FATHOM_CHECK(l.size() == 2, "It is expected ", name, " equals to 2, but got size ", l.size());
  return l;
}

// kernel_size, dilation, padding, stride: the last four arguments of both ops, from `at`.
FoldParams foldParams(const ValueList& a, size_t at) {
  const IntList k = pairArg(a.at(at), "kernel_size"), d = pairArg(a.at(at + 1), "dilation"),
                p = pairArg(a.at(at + 2), "padding"), s = pairArg(a.at(at + 3), "stride");
  return {k[0], k[1], d[0], d[1], p[0], p[1], s[0], s[1]};
}

void checkKernel(const FoldParams& p) {
  FATHOM_CHECK(p.kw > 0 && p.kh > 0, "kernel size should be greater than zero, but got kernel_height: ", p.kh,
               " kernel_width: ", p.kw);
}
void checkStride(const FoldParams& p) {
  FATHOM_CHECK(p.sw > 0 && p.sh > 0, "stride should be greater than zero, but got stride_height: ", p.sh,
               " stride_width: ", p.sw);
}
void checkDilation(const FoldParams& p) {
  FATHOM_CHECK(p.dw > 0 && p.dh > 0, "dilation should be greater than zero, but got dilation_height: ", p.dh,
               " dilation_width: ", p.dw);
}
void checkPadding(const FoldParams& p) {
  FATHOM_CHECK(p.pw >= 0 && p.ph >= 0, "padding should be non-negative, but got pad_height: ", p.ph,
               " pad_width: ", p.pw);
}

// The number of sliding blocks along a dim of `size`: div_rtn(size + 2 pad - span, stride) + 1.
SymInt blocks(const SymInt& size, int64_t k, int64_t d, int64_t p, int64_t s) {
  const SymInt span = SymInt(d) * SymInt(k - 1) + SymInt(1);
  return floorDiv(size + SymInt(2) * SymInt(p) - span, SymInt(s)) + SymInt(1);
}

void checkDtype(DType t, const char* kernel) {
  FATHOM_CHECK(t == DType::Float32 || t == DType::Float64 || t == DType::Float16 || t == DType::BFloat16, "\"",
               kernel, "\" not implemented for '", scalarTypeName(t), "'");
}

bool isZero(const SymInt& s) { return symEq(s, 0, "fold: empty dim"); }

// ---- im2col ------------------------------------------------------------------------------------

struct Im2colLayout {
  FoldParams p;
  TensorMeta out;
};

// im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride)
Im2colLayout im2colLayout(const ValueList& margs) {
  const TensorMeta& x = metaArg(margs, 0);
  const FoldParams p = foldParams(margs, 1);
  checkKernel(p), checkDilation(p), checkPadding(p), checkStride(p);
  const int64_t ndim = x.dim();
  // 1.13 reads sizes 1 and 2 before it looks at the rank (an IndexError for rank < 3).
  const SymInt &d1 = x.sizes.at(static_cast<size_t>(wrapDim(1, ndim))), &d2 = x.sizes.at(static_cast<size_t>(wrapDim(2, ndim)));
  const bool validDims = !isZero(d1) && !isZero(d2);
  FATHOM_CHECK((ndim == 3 && !isZero(x.sizes[0]) && validDims) || (ndim == 4 && validDims && !isZero(x.sizes[3])),
               "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, "
               "but got: ", sizesText(x.sizes));
  const SymInt &h = x.sizes[ndim - 2], &w = x.sizes[ndim - 1];
  const SymInt oh = blocks(h, p.kh, p.dh, p.ph, p.sh), ow = blocks(w, p.kw, p.dw, p.pw, p.sw);
  FATHOM_CHECK(!symLt(oh, 1, "im2col: blocks >= 1") && !symLt(ow, 1, "im2col: blocks >= 1"),
               "Given input with spatial size (", h.str(), ", ", w.str(), "), kernel_size=(", p.kh, ", ", p.kw,
               "), dilation=(", p.dh, ", ", p.dw, "), padding=(", p.ph, ", ", p.pw,
               "), calculated shape of the array of sliding blocks as (", oh.str(), ", ", ow.str(),
               "), but its components must be at least one.");
  SymIntList sizes;
  if (ndim == 4) sizes.push_back(x.sizes[0]);
  sizes.push_back(x.sizes[ndim - 3] * SymInt(p.kh) * SymInt(p.kw));
  sizes.push_back(oh * ow);
  checkDtype(x.dtype, "im2col_out_cpu");
  return {p, newTensorMeta(x, x.dtype, std::move(sizes), SuggestedFormat::Contiguous)};
}

// The geometry of one sample: input [c, h, w], blocks [oh, ow], as convolution's im2col reads it.
ConvGeometry geometry(const FoldParams& p, int64_t c, int64_t h, int64_t w, int64_t oh, int64_t ow) {
  ConvGeometry g;
  g.c = g.cg = c, g.h = h, g.w = w, g.oh = oh, g.ow = ow, g.kh = p.kh, g.kw = p.kw;
  g.sh = p.sh, g.sw = p.sw, g.ph = p.ph, g.pw = p.pw, g.dh = p.dh, g.dw = p.dw;
  return g;
}

ValueList im2colKernel(const ValueList& args) {
  const Im2colLayout l = im2colLayout(metaArgs(args));
  Tensor out = allocateTensor(l.out);
  const Tensor x = contiguousOf(tensorArg(args, 0));
  const int64_t nd = x.dim(), n = nd == 4 ? x.size(0) : 1;
  const FoldParams& p = l.p;
  const int64_t h = x.size(nd - 2), w = x.size(nd - 1);
  const ConvGeometry g = geometry(p, x.size(nd - 3), h, w, blocks(h, p.kh, p.dh, p.ph, p.sh).hint(),
                                  blocks(w, p.kw, p.dw, p.pw, p.sw).hint());
  dispatchDType(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>>) {
      for (int64_t i = 0; i < n; ++i) im2col(x.dataAs<T>() + i * g.c * h * w, g, out.dataAs<T>() + i * g.k() * g.p(), true);
    }
  });
  return {out};
}

// ---- col2im ------------------------------------------------------------------------------------

struct Col2imLayout {
  FoldParams p;
  int64_t oh = 0, ow = 0;  // output_size
  TensorMeta out;
};

// col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride)
Col2imLayout col2imLayout(const ValueList& margs) {
  const TensorMeta& x = metaArg(margs, 0);
  const Value& sizeArg = margs.at(1);
  const SymIntList size = sizeArg.is<SymInt>() ? SymIntList{sizeArg.as<SymInt>(), sizeArg.as<SymInt>()} : toSymIntList(sizeArg);
  FATHOM_CHECK(size.size() == 2, "It is expected output_size equals to 2, but got size ", size.size());
  const FoldParams p = foldParams(margs, 2);
  checkKernel(p), checkStride(p), checkDilation(p), checkPadding(p);
  const int64_t ndim = x.dim();
  FATHOM_CHECK((ndim == 2 && !isZero(x.sizes[0]) && !isZero(x.sizes[1])) ||
                   (ndim == 3 && !isZero(x.sizes[1]) && !isZero(x.sizes[2])),
               "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for "
               "input, but got: ", sizesText(x.sizes));
  int64_t area = 0;
  FATHOM_CHECK(!__builtin_mul_overflow(p.kh, p.kw, &area), "Given kernel_width = ", p.kw, " and kernel_height = ", p.kh,
               " the product of kernel_width and kernel_height overflowed.");
  const SymInt& planes = x.sizes[ndim - 2];
  FATHOM_CHECK(symEq(mod(planes, SymInt(area)), 0, "col2im: channels divisible by the kernel area"),
               "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
               "input.size(1)=", planes.str(), " and kernel_size=(", p.kh, ", ", p.kw, ").");
  const SymInt bh = blocks(size[0], p.kh, p.dh, p.ph, p.sh), bw = blocks(size[1], p.kw, p.dw, p.pw, p.sw);
  const SymInt& length = x.sizes[ndim - 1];
  const auto given = [&] {
    return "Given output_size=(" + size[0].str() + ", " + size[1].str() + "), kernel_size=(" + std::to_string(p.kh) +
           ", " + std::to_string(p.kw) + "), dilation=(" + std::to_string(p.dh) + ", " + std::to_string(p.dw) +
           "), padding=(" + std::to_string(p.ph) + ", " + std::to_string(p.pw) + "), stride=(" + std::to_string(p.sh) +
           ", " + std::to_string(p.sw) + "), ";
  };
  FATHOM_CHECK(symEq(length, bh * bw, "col2im: blocks match the input"), given(),
               "expected size of input's dimension 2 to match the calculated number of sliding blocks ", bh.str(), " * ",
               bw.str(), " = ", (bh * bw).str(), ", but got input.size(2)=", length.str(), ".");
  FATHOM_CHECK(!symLt(bh, 1, "col2im: blocks >= 1") && !symLt(bw, 1, "col2im: blocks >= 1"), given(),
               "calculated shape of the array of sliding blocks as (", bh.str(), ", ", bw.str(),
               "), which is too small (non-positive)");
  FATHOM_CHECK(!symLt(size[0], 1, "col2im: output size >= 1") && !symLt(size[1], 1, "col2im: output size >= 1"),
               "Expected output spatial size to be positive, but got: output_size=(", size[0].str(), ", ", size[1].str(), ").");
  SymIntList sizes;
  if (ndim == 3) sizes.push_back(x.sizes[0]);
  sizes.insert(sizes.end(), {floorDiv(planes, SymInt(area)), size[0], size[1]});
  checkDtype(x.dtype, "col2im_out_cpu");
  return {p, size[0].hint(), size[1].hint(), newTensorMeta(x, x.dtype, std::move(sizes), SuggestedFormat::Contiguous)};
}

ValueList col2imKernel(const ValueList& args) {
  const Col2imLayout l = col2imLayout(metaArgs(args));
  Tensor out = allocateTensor(l.out);  // zero-filled: col2im adds into zeros
  const Tensor x = contiguousOf(tensorArg(args, 0));
  const int64_t nd = x.dim(), n = nd == 3 ? x.size(0) : 1;
  const FoldParams& p = l.p;
  const ConvGeometry g = geometry(p, x.size(nd - 2) / (p.kh * p.kw), l.oh, l.ow, blocks(l.oh, p.kh, p.dh, p.ph, p.sh).hint(),
                                  blocks(l.ow, p.kw, p.dw, p.pw, p.sw).hint());
  dispatchDType(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>>) {
      for (int64_t i = 0; i < n; ++i) col2imAdd(x.dataAs<T>() + i * g.k() * g.p(), g, out.dataAs<T>() + i * g.c * g.h * g.w);
    }
  });
  return {out};
}

}  // namespace

void registerFoldOps(OpRegistry& registry) {
  (void)registry.add("aten::im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor",
                     [](const ValueList& a) { return ValueList{im2colLayout(a).out}; }, im2colKernel);
  (void)registry.add(
      "aten::col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, "
      "int[2] stride) -> Tensor",
      [](const ValueList& a) { return ValueList{col2imLayout(a).out}; }, col2imKernel);
}

}  // namespace fathom
