// 3-d convolution beyond the oracle fixtures: inexact values against a direct double-precision
// reference on the video models' kernel shapes (r3d/mc3 stems, (2+1)-d factorized kernels,
// 1x1x1 shortcuts, grouped, depthwise, dilated), gradients and transposed convolutions checked
// by the adjoint identity <conv(x, w), g> = <x, grad_input> = <w, grad_weight>, contiguous
// results for channels_last_3d inputs, and symbolic sizes in the meta function.
#include <cmath>

#include "tests/engine/HintSymbol.h"
#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::makeTensor;
using testing::runOp;
using testing::valuesOf;

struct Conv3 {
  IntList x, w;  // [n, c, d, h, w], [o, c / groups, kd, kh, kw]
  IntList stride{1, 1, 1}, padding{0, 0, 0}, dilation{1, 1, 1};
  int64_t groups = 1;
  int64_t out(int i) const {
    return (x[i + 2] + 2 * padding[i] - dilation[i] * (w[i + 2] - 1) - 1) / stride[i] + 1;
  }
};

ValueList list(const IntList& v) {
  ValueList l;
  for (int64_t x : v) l.emplace_back(x);
  return l;
}

// Deterministic inexact values in [-1, 1).
Tensor input(DType t, const IntList& sizes, int seed, bool channelsLast3d = false) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(std::sin(0.37 * static_cast<double>(i) + seed) * 0.999);
  IntList strides;
  if (channelsLast3d) {
    const int64_t c = sizes[1], d = sizes[2], h = sizes[3], w = sizes[4];
    strides = {c * d * h * w, 1, h * w * c, w * c, c};
  }
  return makeTensor(t, sizes, strides, v);
}

ValueList args(const Tensor& x, const Tensor& w, Value bias, const Conv3& p, bool transposed = false) {
  return {x, w, std::move(bias), list(p.stride), list(p.padding), list(p.dilation), transposed, list({0, 0, 0}),
          p.groups};
}

// Direct convolution in double, row-major [n, o, od, oh, ow].
std::vector<double> reference(const Tensor& x, const Tensor& w, const Tensor& b, const Conv3& p) {
  std::vector<double> out;
  const int64_t cg = p.x[1] / p.groups, og = p.w[0] / p.groups;
  for (int64_t n = 0; n < p.x[0]; ++n)
    for (int64_t o = 0; o < p.w[0]; ++o)
      for (int64_t oz = 0; oz < p.out(0); ++oz)
        for (int64_t oy = 0; oy < p.out(1); ++oy)
          for (int64_t ox = 0; ox < p.out(2); ++ox) {
            double s = b.at({o});
            for (int64_t ci = 0; ci < cg; ++ci)
              for (int64_t kz = 0; kz < p.w[2]; ++kz)
                for (int64_t ky = 0; ky < p.w[3]; ++ky)
                  for (int64_t kx = 0; kx < p.w[4]; ++kx) {
                    const int64_t iz = oz * p.stride[0] - p.padding[0] + kz * p.dilation[0];
                    const int64_t iy = oy * p.stride[1] - p.padding[1] + ky * p.dilation[1];
                    const int64_t ix = ox * p.stride[2] - p.padding[2] + kx * p.dilation[2];
                    if (iz < 0 || iz >= p.x[2] || iy < 0 || iy >= p.x[3] || ix < 0 || ix >= p.x[4]) continue;
                    s += x.at({n, (o / og) * cg + ci, iz, iy, ix}) * w.at({o, ci, kz, ky, kx});
                  }
            out.push_back(s);
          }
  return out;
}

double dot(const Tensor& a, const Tensor& b) {
  const std::vector<double> va = valuesOf(a), vb = valuesOf(b);
  EXPECT_EQ(va.size(), vb.size());
  double s = 0;
  for (size_t i = 0; i < va.size() && i < vb.size(); ++i) s += va[i] * vb[i];
  return s;
}

struct Case3 {
  const char* what;
  Conv3 p;
};

const std::vector<Case3>& cases() {
  static const std::vector<Case3> all = {
      {"r3d stem (3,7,7)", {{1, 3, 4, 16, 16}, {8, 3, 3, 7, 7}, {1, 2, 2}, {1, 3, 3}}},
      {"r2plus1d spatial (1,3,3)", {{2, 4, 4, 6, 6}, {6, 4, 1, 3, 3}, {1, 2, 2}, {0, 1, 1}}},
      {"r2plus1d temporal (3,1,1)", {{2, 4, 4, 6, 6}, {6, 4, 3, 1, 1}, {2, 1, 1}, {1, 0, 0}}},
      {"1x1x1 shortcut, stride 2", {{2, 4, 4, 5, 5}, {6, 4, 1, 1, 1}, {2, 2, 2}}},
      {"1x1x1", {{2, 4, 3, 5, 5}, {6, 4, 1, 1, 1}}},
      {"grouped", {{2, 4, 3, 5, 5}, {6, 2, 3, 3, 3}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, 2}},
      {"depthwise", {{1, 4, 3, 5, 5}, {4, 1, 3, 3, 3}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, 4}},
      {"dilated", {{1, 4, 5, 7, 7}, {6, 4, 2, 3, 3}, {1, 2, 1}, {1, 0, 1}, {2, 2, 2}}},
  };
  return all;
}

// Each row runs on inexact float32 and float64 values (float32 also from a channels_last_3d
// input); results match the direct reference and are contiguous, as 1.13's.
TEST(Convolution3dOpsTest, ForwardMatchesDirectReference) {
  for (const Case3& c : cases()) {
    for (DType t : {DType::Float32, DType::Float64}) {
      for (bool cl : {false, true}) {
        const Tensor x = input(t, c.p.x, 1, cl), w = input(t, c.p.w, 2), b = input(t, {c.p.w[0]}, 3);
        const Tensor y = runOp("aten.convolution.default", args(x, w, b, c.p));
        ASSERT_EQ(y.dim(), 5) << c.what;
        EXPECT_EQ(y.strides(), contiguousStrides(y.sizes())) << c.what;
        const std::vector<double> want = reference(x, w, b, c.p), got = valuesOf(y);
        ASSERT_EQ(got.size(), want.size()) << c.what;
        const double tol = t == DType::Float32 ? 1e-5 : 1e-12;
        for (size_t i = 0; i < got.size(); ++i)
          ASSERT_NEAR(got[i], want[i], tol * (1 + std::fabs(want[i]))) << c.what << " at " << i;
      }
    }
  }
}

// The gradients are the adjoints of the (linear) convolution: <conv(x, w), g> equals
// <x, grad_input> and <w, grad_weight>; grad_bias sums g per channel.
TEST(Convolution3dOpsTest, BackwardIsTheAdjoint) {
  for (const Case3& c : cases()) {
    const Tensor x = input(DType::Float64, c.p.x, 1), w = input(DType::Float64, c.p.w, 2);
    const Tensor y = runOp("aten.convolution.default", args(x, w, None{}, c.p));
    const Tensor g = input(DType::Float64, y.sizes(), 4);
    ValueList a = {g, x, w, list({c.p.w[0]}), list(c.p.stride), list(c.p.padding), list(c.p.dilation), false,
                   list({0, 0, 0}), c.p.groups, ValueList{true, true, true}};
    auto r = testing::runBoth("aten.convolution_backward.default", a);
    ASSERT_TRUE(r.kernel.ok()) << c.what << ": " << r.kernel.error().str();
    const Tensor &gi = (*r.kernel)[0].as<Tensor>(), &gw = (*r.kernel)[1].as<Tensor>(), &gb = (*r.kernel)[2].as<Tensor>();
    const double want = dot(y, g);
    EXPECT_NEAR(dot(x, gi), want, 1e-9 * (1 + std::fabs(want))) << c.what;
    EXPECT_NEAR(dot(w, gw), want, 1e-9 * (1 + std::fabs(want))) << c.what;
    double gsum = 0;
    for (double v : valuesOf(g)) gsum += v;
    double bsum = 0;
    for (double v : valuesOf(gb)) bsum += v;
    EXPECT_NEAR(bsum, gsum, 1e-9 * (1 + std::fabs(gsum))) << c.what;
  }
}

// A transposed 3-d convolution is the adjoint of the plain one with the same weight:
// <convT(x, w), y> = <x, conv(y, w)>.
TEST(Convolution3dOpsTest, TransposedIsTheAdjointOfPlain) {
  // Plain: y [2, 4, 3, 6, 6] -> [2, 6, ...] with w [6, 2, 3, 3, 3], groups 2; transposed maps back.
  const Conv3 p{{2, 4, 3, 6, 6}, {6, 2, 3, 3, 3}, {1, 2, 2}, {1, 1, 1}, {1, 1, 1}, 2};
  const Tensor y = input(DType::Float64, p.x, 1), w = input(DType::Float64, p.w, 2);
  const Tensor cy = runOp("aten.convolution.default", args(y, w, None{}, p));
  const Tensor x = input(DType::Float64, cy.sizes(), 3);
  ValueList t = args(x, w, None{}, p, true);
  t[7] = list({0, 1, 1});  // output_padding: back to 6 x 6 from 3 x 3 at stride 2
  const Tensor tx = runOp("aten.convolution.default", t);
  ASSERT_EQ(tx.sizes(), y.sizes());
  EXPECT_EQ(tx.strides(), contiguousStrides(tx.sizes()));
  EXPECT_NEAR(dot(tx, y), dot(x, cy), 1e-9 * (1 + std::fabs(dot(x, cy))));
}

// The meta function keeps symbolic batch and depth: the output depth is an expression of it.
TEST(Convolution3dOpsTest, MetaKeepsSymbolicSizes) {
  const SymInt s0(testing::hintSymbol("s0", 2)), s1(testing::hintSymbol("s1", 8));
  TensorMeta x;
  x.sizes = {s0, 3, s1, 16, 16};
  x.strides = contiguousStrides(x.sizes);
  TensorMeta w;
  w.sizes = {8, 3, 3, 7, 7};
  w.strides = contiguousStrides(w.sizes);
  // Arguments in schema order, so no binding is needed.
  auto out = callMeta(testing::opNamed("aten.convolution.default"), {x, w, None{}, list({2, 2, 2}), list({1, 3, 3}),
                                                                   list({1, 1, 1}), false, list({0, 0, 0}), int64_t{1}});
  ASSERT_TRUE(out.ok()) << out.error().str();
  const TensorMeta& m = (*out)[0].as<TensorMeta>();
  EXPECT_EQ(m.sizes[2].hint(), 4);
  EXPECT_TRUE(m.sizes[2].isSymbolic());
  EXPECT_EQ(m.sizes[0].str(), "s0");
  EXPECT_EQ(m.sizes[3].hint(), 8);
  EXPECT_EQ(m.strides[4].hint(), 1);
}

// Errors name the problem: the backend's dtype and 1.13's refusals.
TEST(Convolution3dOpsTest, ErrorsNameTheProblem) {
  const Conv3 p{{1, 2, 3, 5, 5}, {3, 2, 2, 2, 2}};
  const Tensor xh = input(DType::Float16, p.x, 1), wh = input(DType::Float16, p.w, 2);
  testing::expectOpError("aten.convolution.default", args(xh, wh, None{}, p),
                         "\"compute_columns3d\" not implemented for 'Half'");
  Conv3 dilated = p;
  dilated.dilation = {2, 1, 1};
  const Tensor xi = makeTensor(DType::Int32, {1, 2, 5, 5, 5}), wi = makeTensor(DType::Int32, p.w);
  testing::expectOpError("aten.convolution.default", args(xi, wi, None{}, dilated),
                         "\"slow_conv_dilated<>\" not implemented for 'Int'");
  const Tensor xb = input(DType::BFloat16, {1, 3, 3, 5, 5}, 1), wb = input(DType::BFloat16, {3, 2, 2, 2, 2}, 2);
  testing::expectOpError("aten.convolution.default", args(xb, wb, None{}, p, true),
                         "aten.convolution: a bfloat16 transposed 3-d convolution is not supported");
}

}  // namespace
}  // namespace fathom
