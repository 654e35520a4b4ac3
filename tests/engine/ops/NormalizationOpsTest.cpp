// softmax, log_softmax and layer_norm, with their backward: what the oracle fixture
// (tests/oracle/cases/reductions.py) cannot record - None results of layer_norm_backward,
// long rows through the vectorized float32 paths, and the checks stricter than PyTorch 1.13.
#include <cmath>

#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runBoth;
using testing::runOp;
using testing::valuesOf;

std::vector<double> ramp(size_t n, double scale) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * std::sin(static_cast<double>(i) * 0.37);
  return v;
}

// Rows with -inf, NaN or inf, through the float32 row path, the float64 one and a non-last dim:
// -inf alone is fine (exp gives 0), everything else turns the whole row NaN, as in PyTorch 1.13.
TEST(NormalizationOpsTest, SoftmaxNonFiniteRows) {
  const double inf = INFINITY, nan = NAN;
  const std::vector<double> v{1, -inf, 2, 0, -inf, -inf, -inf, -inf, nan, 1, 2, 3, inf, 1, 2, 3};
  const std::vector<double> first{0.2447284758090973, 0.0, 0.6652409434318542, 0.09003057330846786};
  const std::vector<double> firstLog{-1.4076058864593506, -inf, -0.40760594606399536, -2.4076058864593506};
  for (DType t : {DType::Float32, DType::Float64}) {
    for (bool transposed : {false, true}) {
      SCOPED_TRACE(std::string(dtypeName(t)) + (transposed ? " dim 0" : " dim 1"));
      // transposed: the same rows as columns of a [4, 4] tensor, softmax over dim 0
      std::vector<double> in(16);
      for (int i = 0; i < 16; ++i) in[i] = transposed ? v[(i % 4) * 4 + i / 4] : v[i];
      Tensor x = makeTensor(t, {4, 4}, {}, in);
      const int64_t dim = transposed ? 0 : 1;
      for (bool log : {false, true}) {
        const auto y = valuesOf(runOp(log ? "aten._log_softmax.default" : "aten._softmax.default", {x, dim, false}));
        for (int row = 0; row < 4; ++row) {
          for (int k = 0; k < 4; ++k) {
            const double got = y[transposed ? k * 4 + row : row * 4 + k];
            if (row > 0) EXPECT_TRUE(std::isnan(got)) << row << "," << k;
            else if (log && k == 1) EXPECT_EQ(got, -inf);
            else EXPECT_NEAR(got, log ? firstLog[k] : first[k], 1e-6) << k;
          }
        }
      }
    }
  }
}

// The vectorized float32 row path (long rows, a tail) agrees with the double-precision one.
TEST(NormalizationOpsTest, FloatSoftmaxRowsMatchDouble) {
  const IntList sizes{3, 1001};
  const auto v = ramp(3 * 1001, 30);
  for (const char* op : {"aten._softmax.default", "aten._log_softmax.default"}) {
    SCOPED_TRACE(op);
    const auto f = valuesOf(runOp(op, {makeTensor(DType::Float32, sizes, {}, v), 1, false}));
    const auto d = valuesOf(runOp(op, {makeTensor(DType::Float64, sizes, {}, v), 1, false}));
    for (size_t i = 0; i < f.size(); ++i) ASSERT_NEAR(f[i], d[i], 1e-5 + 1e-6 * std::fabs(d[i])) << i;
  }
}

TEST(NormalizationOpsTest, FloatLayerNormRowsMatchDouble) {
  const IntList sizes{4, 777};
  const auto v = ramp(4 * 777, 3);
  const auto w = ramp(777, 1.5), b = ramp(777, 0.5);
  auto run = [&](DType t) {
    auto r = runBoth("aten.native_layer_norm.default",
                     {makeTensor(t, sizes, {}, v), ValueList{777}, makeTensor(t, {777}, {}, w),
                      makeTensor(t, {777}, {}, b), 1e-5});
    EXPECT_TRUE(r.kernel.ok());
    return r.kernel.ok() ? valuesOf((*r.kernel)[0].as<Tensor>()) : std::vector<double>{};
  };
  const auto f = run(DType::Float32), d = run(DType::Float64);
  ASSERT_EQ(f.size(), d.size());
  for (size_t i = 0; i < f.size(); ++i) ASSERT_NEAR(f[i], d[i], 1e-5 + 1.3e-6 * std::fabs(d[i])) << i;
}

// output_mask chooses the results; the others are None. Values from PyTorch 1.13.
TEST(NormalizationOpsTest, LayerNormBackwardMaskAndNoneWeight) {
  Tensor x = makeTensor(DType::Float32, {2, 4}, {}, {0, 1, 2, 4, 1, -1, 3, 0.5});
  Tensor g = makeTensor(DType::Float32, {2, 4}, {}, {1, 0, -1, 2, 0.5, 0.5, 1, -2});
  Tensor mean = makeTensor(DType::Float32, {2, 1}, {}, {1.75, 0.875});
  Tensor rstd = makeTensor(DType::Float32, {2, 1}, {}, {0.6761218309402466, 0.6989615559577942});
  auto r = runBoth("aten.native_layer_norm_backward.default",
                   {g, x, ValueList{4}, mean, rstd, None{}, None{}, ValueList{true, false, false}});
  ASSERT_TRUE(r.meta.ok() && r.kernel.ok());
  EXPECT_TRUE((*r.meta)[1].isNone() && (*r.meta)[2].isNone());
  EXPECT_TRUE((*r.kernel)[1].isNone() && (*r.kernel)[2].isNone());
  const std::vector<double> want{0.6761202216148376, -0.19317834079265594, -1.0624768733978271, 0.5795350074768066,
                                 0.328138530254364,  0.669614315032959,    0.3361435532569885,  -1.3338963985443115};
  const auto got = valuesOf((*r.kernel)[0].as<Tensor>());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << i;

  Tensor bias = makeTensor(DType::Float32, {4}, {}, {0.5, 1, -1, 0});
  auto rb = runBoth("aten.native_layer_norm_backward.default",
                    {g, x, ValueList{4}, mean, rstd, None{}, bias, ValueList{false, false, true}});
  ASSERT_TRUE(rb.kernel.ok());
  EXPECT_TRUE((*rb.kernel)[0].isNone());
  EXPECT_EQ(valuesOf((*rb.kernel)[2].as<Tensor>()), (std::vector<double>{1.5, 0.5, 0, 0}));
}

// Where 1.13 reads out of bounds (or fails with "tensor does not have a device"), Fathom names
// the argument that is wrong.
TEST(NormalizationOpsTest, BackwardArgumentsAreChecked) {
  Tensor x = makeTensor(DType::Float32, {2, 4});
  Tensor stat = makeTensor(DType::Float32, {2, 1});
  const char* lnb = "aten.native_layer_norm_backward.default";
  expectOpError(lnb, {makeTensor(DType::Float32, {4, 2}), x, ValueList{4}, stat, stat, None{}, None{},
                      ValueList{true, false, false}},
                "native_layer_norm_backward: expected grad_out of the input's size [2, 4], but got [4, 2]");
  expectOpError(lnb, {x, x, ValueList{4}, makeTensor(DType::Float32, {3}), stat, None{}, None{},
                      ValueList{true, false, false}},
                "native_layer_norm_backward: expected mean with 2 elements");
  expectOpError(lnb, {x, x, ValueList{4}, stat, stat, None{}, None{}, ValueList{true, true, false}},
                "native_layer_norm_backward: output_mask[1] asks for the gradient of weight, but weight is None");
  expectOpError("aten._log_softmax_backward_data.default",
                {makeTensor(DType::Float32, {3, 4}), makeTensor(DType::Float32, {3, 5}), 1, DType::Float32},
                "Expected tensor for argument #1 'grad' to have same size as tensor for argument #2 'output'; but "
                "[3, 4] does not equal [3, 5] (while checking arguments for log_softmax_backward)");
}

// Kernels without a CPU implementation in 1.13 are refused by the kernel, not the meta function
// (PyTorch's metas accept them too), and only when there is something to compute.
TEST(NormalizationOpsTest, UnsupportedDtypesFailInTheKernel) {
  auto r = runBoth("aten._softmax.default", {makeTensor(DType::Float16, {2, 3}), 1, false});
  EXPECT_TRUE(r.meta.ok());
  ASSERT_FALSE(r.kernel.ok());
  EXPECT_EQ(r.kernel.error().message, "\"softmax_lastdim_kernel_impl\" not implemented for 'Half'");
  EXPECT_TRUE(runBoth("aten._softmax.default", {makeTensor(DType::Float16, {0, 3}), 1, false}).kernel.ok());
  auto ln = runBoth("aten.native_layer_norm.default",
                    {makeTensor(DType::Int64, {2, 3}), ValueList{3}, None{}, None{}, 1e-5});
  EXPECT_TRUE(ln.meta.ok());
  EXPECT_FALSE(ln.kernel.ok());
}

}  // namespace
}  // namespace fathom
