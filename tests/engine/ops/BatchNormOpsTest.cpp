// native_batch_norm / native_batch_norm_backward beyond the oracle fixtures: the running-stat
// update on a hand-computed example, save_mean/save_invstd in evaluation, output_mask, and the
// checks Fathom adds where PyTorch 1.13 reads out of bounds or crashes.
#include <cmath>

#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runBoth;
using testing::valuesOf;

// x = [[1, 3], [5, 7]] per channel c: channel 0 holds {1, 5}, channel 1 {3, 7}. Means 3 and 5,
// biased variances 4, unbiased 8; running = 0.1 * batch + 0.9 * running, in place.
TEST(BatchNormOpsTest, TrainingUpdatesRunningStatsInPlace) {
  const Tensor x = makeTensor(DType::Float64, {2, 2}, {}, {1, 3, 5, 7});
  Tensor mean = makeTensor(DType::Float64, {2}, {}, {1, 1}), var = makeTensor(DType::Float64, {2}, {}, {2, 2});
  auto r = runBoth("aten.native_batch_norm.default", {x, None{}, None{}, mean, var, true, 0.1, 0.0});
  ASSERT_TRUE(r.kernel.ok()) << r.kernel.error().str();
  EXPECT_EQ(valuesOf(mean), (std::vector<double>{0.1 * 3 + 0.9 * 1, 0.1 * 5 + 0.9 * 1}));
  EXPECT_EQ(valuesOf(var), (std::vector<double>{0.1 * 8 + 0.9 * 2, 0.1 * 8 + 0.9 * 2}));
  const ValueList& outs = *r.kernel;
  EXPECT_EQ(valuesOf(outs[0].as<Tensor>()), (std::vector<double>{-1, -1, 1, 1}));
  EXPECT_EQ(valuesOf(outs[1].as<Tensor>()), (std::vector<double>{3, 5}));
  EXPECT_EQ(valuesOf(outs[2].as<Tensor>()), (std::vector<double>{0.5, 0.5}));
}

// Evaluation uses the running stats and returns empty save_mean / save_invstd.
TEST(BatchNormOpsTest, EvaluationUsesRunningStats) {
  const Tensor x = makeTensor(DType::Float32, {1, 2, 2}, {}, {1, 2, 3, 4});
  const Tensor mean = makeTensor(DType::Float32, {2}, {}, {1, 3}), var = makeTensor(DType::Float32, {2}, {}, {4, 16});
  auto r = runBoth("aten.native_batch_norm.default", {x, None{}, None{}, mean, var, false, 0.1, 0.0});
  ASSERT_TRUE(r.kernel.ok());
  EXPECT_EQ(valuesOf((*r.kernel)[0].as<Tensor>()), (std::vector<double>{0, 0.5, 0, 0.25}));
  EXPECT_EQ((*r.kernel)[1].as<Tensor>().sizes(), IntList{0});
  EXPECT_EQ(valuesOf(mean), (std::vector<double>{1, 3}));  // untouched
}

// bfloat16 input with float32 parameters: the stats come back in float32.
TEST(BatchNormOpsTest, MixedBFloat16KeepsFloatStats) {
  const Tensor x = makeTensor(DType::BFloat16, {2, 3}, {}, {1, 2, 3, 4, 5, 6});
  const Tensor w = makeTensor(DType::Float32, {3}, {}, {1, 1, 1});
  auto r = runBoth("aten.native_batch_norm.default", {x, w, None{}, None{}, None{}, true, 0.1, 1e-5});
  ASSERT_TRUE(r.kernel.ok());
  EXPECT_EQ((*r.kernel)[0].as<Tensor>().dtype(), DType::BFloat16);
  EXPECT_EQ((*r.kernel)[1].as<Tensor>().dtype(), DType::Float32);
  EXPECT_EQ((*r.meta)[2].as<TensorMeta>().dtype, DType::Float32);
}

// Where PyTorch 1.13 crashes or reads out of bounds, Fathom says what is missing or wrong.
TEST(BatchNormOpsTest, ErrorsWherePyTorchCrashes) {
  const Tensor x = makeTensor(DType::Float32, {2, 3, 4});
  expectOpError("aten.native_batch_norm.default", {x, None{}, None{}, None{}, None{}, false, 0.1, 1e-5},
                "running_mean and running_var must be defined in evaluation mode");
  expectOpError("aten.native_batch_norm.default",
                {x, makeTensor(DType::Float32, {4}), None{}, None{}, None{}, true, 0.1, 1e-5},
                "weight should contain 3 elements not 4");
  const ValueList mask{true, true, true};
  expectOpError("aten.native_batch_norm_backward.default",
                {x, x, None{}, None{}, None{}, None{}, None{}, true, 1e-5, mask},
                "save_mean and save_invstd must be defined when train=True");
  expectOpError("aten.native_batch_norm_backward.default",
                {makeTensor(DType::Float32, {2, 3, 2}), x, None{}, makeTensor(DType::Float32, {3}),
                 makeTensor(DType::Float32, {3}), None{}, None{}, false, 1e-5, mask},
                "batch_norm_backward: expected grad_out of the input's size [2, 3, 4], but got [2, 3, 2]");
}

// Backward: grad_weight = sum((x - mean) * grad_out) * invstd, grad_bias = sum(grad_out); masked
// gradients are None.
TEST(BatchNormOpsTest, BackwardGradientsAndMask) {
  const Tensor x = makeTensor(DType::Float64, {2, 1}, {}, {1, 3});
  const Tensor go = makeTensor(DType::Float64, {2, 1}, {}, {1, 2});
  const Tensor mean = makeTensor(DType::Float64, {1}, {}, {2}), invstd = makeTensor(DType::Float64, {1}, {}, {1});
  auto r = runBoth("aten.native_batch_norm_backward.default",
                   {go, x, None{}, None{}, None{}, mean, invstd, true, 0.0, ValueList{false, true, true}});
  ASSERT_TRUE(r.kernel.ok()) << r.kernel.error().str();
  EXPECT_TRUE((*r.kernel)[0].isNone());
  EXPECT_TRUE((*r.meta)[0].isNone());
  EXPECT_EQ(valuesOf((*r.kernel)[1].as<Tensor>()), std::vector<double>{1});  // (-1)*1 + 1*2
  EXPECT_EQ(valuesOf((*r.kernel)[2].as<Tensor>()), std::vector<double>{3});
}

}  // namespace
}  // namespace fathom
