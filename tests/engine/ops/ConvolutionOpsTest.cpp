// convolution / convolution_backward beyond the oracle fixtures: larger problems with inexact
// values against a direct double-precision reference (every kernel path: im2col + GEMM with the
// batch in parallel, 1x1 without im2col, depthwise, grouped, channels_last results), gradients
// against their defining sums, output_mask, integer wrap-around, errors, symbolic sizes.
#include <cmath>
#include <memory>

#include "engine/core/Parallel.h"
#include "tests/engine/ops/OpTestUtil.h"
#include "tests/engine/HintSymbol.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runBoth;
using testing::runOp;
using testing::valuesOf;

struct Conv {
  int64_t n, c, h, w, o, kh, kw;
  IntList stride{1, 1}, padding{0, 0}, dilation{1, 1};
  int64_t groups = 1;
  int64_t outH() const { return (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) / stride[0] + 1; }
  int64_t outW() const { return (w + 2 * padding[1] - dilation[1] * (kw - 1) - 1) / stride[1] + 1; }
  // Input row iy of output row oy and kernel row ky (may lie in the padding).
  int64_t inY(int64_t oy, int64_t ky) const { return oy * stride[0] - padding[0] + ky * dilation[0]; }
  int64_t inX(int64_t ox, int64_t kx) const { return ox * stride[1] - padding[1] + kx * dilation[1]; }
};

ValueList list(const IntList& v) {
  ValueList l;
  for (int64_t x : v) l.emplace_back(x);
  return l;
}

ValueList convArgs(const Tensor& x, const Tensor& w, Value bias, const Conv& p) {
  return {x, w, std::move(bias), list(p.stride), list(p.padding), list(p.dilation), false, list({0, 0}), p.groups};
}

// Deterministic inexact values in [-1, 1).
std::vector<double> values(int64_t n, int seed) {
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(std::sin(0.37 * static_cast<double>(i) + seed) * 0.999);
  return v;
}

Tensor input(DType t, IntList sizes, int seed, bool channelsLast = false) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  IntList strides;
  if (channelsLast) strides = {sizes[1] * sizes[2] * sizes[3], 1, sizes[3] * sizes[1], sizes[1]};
  return makeTensor(t, sizes, strides, values(n, seed));
}

// Direct convolution in double, row-major [n, o, oh, ow].
std::vector<double> reference(const Tensor& x, const Tensor& w, const Tensor* b, const Conv& p) {
  std::vector<double> out;
  const int64_t cg = p.c / p.groups, og = p.o / p.groups;
  for (int64_t n = 0; n < p.n; ++n)
    for (int64_t o = 0; o < p.o; ++o)
      for (int64_t oy = 0; oy < p.outH(); ++oy)
        for (int64_t ox = 0; ox < p.outW(); ++ox) {
          double s = b ? b->at({o}) : 0;
          for (int64_t ci = 0; ci < cg; ++ci)
            for (int64_t ky = 0; ky < p.kh; ++ky)
              for (int64_t kx = 0; kx < p.kw; ++kx) {
                const int64_t iy = p.inY(oy, ky), ix = p.inX(ox, kx);
                if (iy < 0 || iy >= p.h || ix < 0 || ix >= p.w) continue;
                s += x.at({n, (o / og) * cg + ci, iy, ix}) * w.at({o, ci, ky, kx});
              }
          out.push_back(s);
        }
  return out;
}

void expectNear(const std::vector<double>& got, const std::vector<double>& want, double tol, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], tol * (1 + std::fabs(want[i]))) << what << " at " << i;
}

struct ForwardCase {
  const char* what;
  Conv p;
  bool channelsLast = false;
  bool bias = true;
};

// Each row runs one kernel path on inexact float32 and float64 values; results match the
// direct reference, and the meta function agrees with the kernel on the layout.
TEST(ConvolutionOpsTest, ForwardMatchesDirectReferenceOnEveryPath) {
  const ForwardCase cases[] = {
      {"im2col + GEMM, batch in parallel", {3, 5, 9, 8, 7, 3, 3, {2, 1}, {1, 1}, {1, 2}}},
      {"one sample, parallel im2col", {1, 3, 20, 20, 8, 7, 7, {2, 2}, {3, 3}}},
      {"1x1 without im2col", {2, 6, 5, 5, 4, 1, 1}, false, false},
      {"grouped", {2, 6, 7, 7, 9, 3, 2, {1, 1}, {1, 0}, {1, 1}, 3}},
      {"depthwise, channels_last", {2, 8, 9, 9, 8, 3, 3, {2, 2}, {1, 1}, {1, 1}, 8}, true},
      {"depthwise with a multiplier", {2, 3, 6, 6, 6, 3, 3, {1, 1}, {2, 2}, {2, 2}, 3}},
      {"channels_last GEMM result", {2, 4, 6, 6, 5, 3, 3}, true},
  };
  for (const auto& c : cases) {
    for (DType t : {DType::Float32, DType::Float64}) {
      const Conv& p = c.p;
      const Tensor x = input(t, {p.n, p.c, p.h, p.w}, 1, c.channelsLast);
      const Tensor w = input(t, {p.o, p.c / p.groups, p.kh, p.kw}, 2);
      const Tensor b = input(t, {p.o}, 3);
      const Tensor out = runOp("aten.convolution.default", convArgs(x, w, c.bias ? Value(b) : Value(None{}), p));
      ASSERT_TRUE(out.defined()) << c.what;
      expectNear(valuesOf(out), reference(x, w, c.bias ? &b : nullptr, p), t == DType::Float32 ? 2e-5 : 1e-12, c.what);
    }
  }
}

// Integer convolutions wrap around like PyTorch's: int8 sums are taken modulo 256.
TEST(ConvolutionOpsTest, IntegerConvolutionWrapsAround) {
  const Tensor x = makeTensor(DType::Int8, {1, 2, 2, 2}, {}, {100, 100, 100, 100, 100, 100, 100, 100});
  const Tensor w = makeTensor(DType::Int8, {1, 2, 2, 2}, {}, {1, 1, 1, 1, 1, 1, 1, 1});
  const Tensor out = runOp("aten.convolution.default", convArgs(x, w, None{}, {1, 2, 2, 2, 1, 2, 2}));
  ASSERT_TRUE(out.defined());
  EXPECT_EQ(valuesOf(out), std::vector<double>{static_cast<double>(static_cast<int8_t>(800 % 256))});
}

// The result does not depend on how many threads run the batch.
TEST(ConvolutionOpsTest, ResultIndependentOfThreadCount) {
  const Conv p{4, 3, 6, 6, 5, 3, 3, {1, 1}, {1, 1}};
  const Tensor x = input(DType::Float32, {4, 3, 6, 6}, 4), w = input(DType::Float32, {5, 3, 3, 3}, 5);
  const int before = numThreads();
  setNumThreads(1);
  const auto serial = valuesOf(runOp("aten.convolution.default", convArgs(x, w, None{}, p)));
  setNumThreads(4);
  const auto parallel = valuesOf(runOp("aten.convolution.default", convArgs(x, w, None{}, p)));
  setNumThreads(before);
  EXPECT_EQ(serial, parallel);
}

ValueList backwardArgs(const Tensor& go, const Tensor& x, const Tensor& w, const Conv& p, std::array<bool, 3> mask) {
  return {go, x, w, list({p.o}), list(p.stride), list(p.padding), list(p.dilation), false, list({0, 0}), p.groups,
          ValueList{mask[0], mask[1], mask[2]}};
}

// Gradients against their definitions: grad_input[x] = sum of grad_output * weight over the
// outputs x feeds, grad_weight[w] = sum of grad_output * input over the positions w meets,
// grad_bias = sum of grad_output per channel.
TEST(ConvolutionOpsTest, BackwardMatchesDefiningSums) {
  const Conv cases[] = {
      {2, 4, 7, 6, 6, 3, 2, {2, 1}, {1, 1}, {1, 2}, 2},
      {2, 4, 6, 6, 4, 3, 3, {1, 1}, {1, 1}, {1, 1}, 4},  // depthwise
      {2, 5, 4, 4, 3, 1, 1},                               // 1x1
  };
  for (const Conv& p : cases) {
    const Tensor x = input(DType::Float64, {p.n, p.c, p.h, p.w}, 6), w = input(DType::Float64, {p.o, p.c / p.groups, p.kh, p.kw}, 7);
    const Tensor go = input(DType::Float64, {p.n, p.o, p.outH(), p.outW()}, 8);
    auto r = runBoth("aten.convolution_backward.default", backwardArgs(go, x, w, p, {true, true, true}));
    ASSERT_TRUE(r.kernel.ok()) << r.kernel.error().str();
    const ValueList& outs = *r.kernel;
    std::vector<double> gx(static_cast<size_t>(x.numel()), 0.0), gw(static_cast<size_t>(w.numel()), 0.0), gb(p.o, 0.0);
    const int64_t cg = p.c / p.groups, og = p.o / p.groups;
    for (int64_t n = 0; n < p.n; ++n)
      for (int64_t o = 0; o < p.o; ++o)
        for (int64_t oy = 0; oy < p.outH(); ++oy)
          for (int64_t ox = 0; ox < p.outW(); ++ox) {
            const double g = go.at({n, o, oy, ox});
            gb[o] += g;
            for (int64_t ci = 0; ci < cg; ++ci)
              for (int64_t ky = 0; ky < p.kh; ++ky)
                for (int64_t kx = 0; kx < p.kw; ++kx) {
                  const int64_t iy = p.inY(oy, ky), ix = p.inX(ox, kx), c = (o / og) * cg + ci;
                  if (iy < 0 || iy >= p.h || ix < 0 || ix >= p.w) continue;
                  gx[((n * p.c + c) * p.h + iy) * p.w + ix] += g * w.at({o, ci, ky, kx});
                  gw[((o * cg + ci) * p.kh + ky) * p.kw + kx] += g * x.at({n, c, iy, ix});
                }
          }
    expectNear(valuesOf(outs[0].as<Tensor>()), gx, 1e-12, "grad_input");
    expectNear(valuesOf(outs[1].as<Tensor>()), gw, 1e-12, "grad_weight");
    expectNear(valuesOf(outs[2].as<Tensor>()), gb, 1e-12, "grad_bias");
  }
}

// output_mask leaves out gradients (None), and the ones kept are the same as with a full mask.
// This float32 batch of 2 runs on 1.13's oneDNN backend, whose backward computes grad_weight with
// grad_bias: asking for the bias returns the weight's gradient too.
TEST(ConvolutionOpsTest, OutputMaskLeavesOutGradients) {
  const Conv p{2, 3, 5, 5, 4, 3, 3};
  const Tensor x = input(DType::Float32, {2, 3, 5, 5}, 1), w = input(DType::Float32, {4, 3, 3, 3}, 2);
  const Tensor go = input(DType::Float32, {2, 4, 3, 3}, 3);
  auto full = runBoth("aten.convolution_backward.default", backwardArgs(go, x, w, p, {true, true, true}));
  ASSERT_TRUE(full.kernel.ok());
  for (std::array<bool, 3> mask : {std::array{false, true, false}, std::array{true, false, true}}) {
    auto r = runBoth("aten.convolution_backward.default", backwardArgs(go, x, w, p, mask));
    ASSERT_TRUE(r.kernel.ok() && r.meta.ok());
    for (size_t i = 0; i < 3; ++i) {
      const bool kept = mask[i] || (i == 1 && mask[2]);
      EXPECT_EQ((*r.kernel)[i].isNone(), !kept) << i;
      EXPECT_EQ((*r.meta)[i].isNone(), !kept) << i;
      if (kept) {
        EXPECT_EQ(valuesOf((*r.kernel)[i].as<Tensor>()), valuesOf((*full.kernel)[i].as<Tensor>())) << i;
      }
    }
  }
}

// Errors say what is wrong: a transposed convolution's channels, gradients Fathom cannot compute, bad sizes.
TEST(ConvolutionOpsTest, ErrorsNameTheProblem) {
  const Tensor x = input(DType::Float32, {1, 2, 4, 4}, 1), w = input(DType::Float32, {3, 2, 3, 3}, 2);
  ValueList transposed = convArgs(x, w, None{}, {1, 2, 4, 4, 3, 3, 3});
  transposed[6] = true;
  expectOpError("aten.convolution.default", transposed,
                "Given transposed=1, weight of size [3, 2, 3, 3], expected input[1, 2, 4, 4] to have 3 channels, but got 2 "
                "channels instead");
  const Tensor x6 = input(DType::Float32, {1, 2, 3, 3, 3, 3}, 1), w6 = input(DType::Float32, {3, 2, 1, 1, 1, 1}, 2);
  expectOpError("aten.convolution.default",
                {x6, w6, None{}, list({1}), list({0}), list({1}), false, list({0}), int64_t{1}},
                "Fathom's convolution supports 1-d, 2-d and 3-d convolutions (3-d, 4-d or 5-d input); got 6-d input");
  const Conv p{1, 2, 4, 4, 3, 3, 3};
  const Tensor xi = makeTensor(DType::Int64, {1, 2, 4, 4}), wi = makeTensor(DType::Int64, {3, 2, 3, 3});
  expectOpError("aten.convolution_backward.default",
                backwardArgs(makeTensor(DType::Int64, {1, 3, 2, 2}), xi, wi, p, {true, true, true}),
                "\"slow_conv2d_cpu_grad_input\" not implemented for 'Long'");
  expectOpError("aten.convolution_backward.default",
                backwardArgs(input(DType::Float32, {1, 3, 3, 2}, 1), x, w, p, {true, true, true}),
                "convolution_backward: expected grad_output of size [1, 3, 2, 2] (the convolution's output), but got "
                "[1, 3, 3, 2]");
}

// The meta function works on symbolic batch and spatial sizes: the result keeps the symbols
// (output height is an expression of s1), with channels_last strides built from them.
TEST(ConvolutionOpsTest, MetaKeepsSymbolicSizes) {
  const SymInt s0(testing::hintSymbol("s0", 2)), s1(testing::hintSymbol("s1", 9));
  TensorMeta x;
  x.sizes = {s0, 4, s1, s1};
  x.strides = channelsLastStrides(x.sizes);
  TensorMeta w;
  w.sizes = {6, 4, 3, 3};
  w.strides = contiguousStrides(w.sizes);
  const OpDef& op = testing::opNamed("aten.convolution.default");
  auto bound = bindArguments(op.schema, {x, w, None{}, list({2, 2}), list({1, 1}), list({1, 1}), false, list({0, 0}), int64_t{1}}, {});
  ASSERT_TRUE(bound.ok());
  auto out = callMeta(op, *bound);
  ASSERT_TRUE(out.ok()) << out.error().str();
  const TensorMeta& m = (*out)[0].as<TensorMeta>();
  EXPECT_EQ(m.sizes[0].str(), "s0");
  EXPECT_TRUE(m.sizes[2].isSymbolic());
  EXPECT_EQ(m.sizes[2].hint(), 5);
  EXPECT_EQ(m.strides[1].hint(), 1);  // channels_last, as the input suggests
  EXPECT_NE(m.strides[0].str().find("s1"), std::string::npos);
}

}  // namespace
}  // namespace fathom
