// nll_loss_forward / nll_loss_backward: hand-computed losses and gradients for each reduction
// with weights and ignore_index, the cascade sum on a long batch, and the element-type and
// range errors (including targets PyTorch's per-sample backward would write out of bounds).
#include <cmath>

#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runBoth;
using testing::runOp;
using testing::valuesOf;

ValueList forward(const Value& self, const Value& target, const Value& weight, int64_t reduction, int64_t ignore) {
  testing::OpOutcome r = runBoth("aten.nll_loss_forward.default", {self, target, weight, reduction, ignore});
  EXPECT_TRUE(r.kernel.ok()) << (r.kernel.ok() ? "" : r.kernel.error().str());
  return r.kernel.ok() ? *r.kernel : ValueList{};
}

double scalarOf(const Value& v) { return v.as<Tensor>().atLinear(0); }

// Rows 0..2 target classes 1, ignored, 2; weights 0.5, 2, 4 per class.
TEST(NllLossOpsTest, ForwardReductions) {
  Tensor self = makeTensor(DType::Float32, {3, 3}, {}, {-1, -2, -3, -4, -5, -6, -7, -8, -9});
  Tensor target = makeTensor(DType::Int64, {3}, {}, {1, -100, 2});
  Tensor weight = makeTensor(DType::Float32, {3}, {}, {0.5, 2, 4});
  ValueList none = forward(self, target, weight, 0, -100);
  EXPECT_EQ(valuesOf(none[0].as<Tensor>()), (std::vector<double>{4, 0, 36}));
  EXPECT_EQ(scalarOf(none[1]), 0);
  ValueList sum = forward(self, target, weight, 2, -100);
  EXPECT_EQ(scalarOf(sum[0]), 40);
  EXPECT_EQ(scalarOf(sum[1]), 6);
  ValueList mean = forward(self, target, weight, 1, -100);
  EXPECT_FLOAT_EQ(scalarOf(mean[0]), 40.0 / 6);
  // No weight: total_weight counts the rows not ignored; all ignored gives NaN for mean.
  EXPECT_EQ(scalarOf(forward(self, target, None{}, 1, -100)[1]), 2);
  EXPECT_TRUE(std::isnan(scalarOf(forward(self, makeTensor(DType::Int64, {3}, {}, {1, 1, 1}), None{}, 1, 1)[0])));
}

// 1000 samples run through all cascade levels; the sum stays within float rounding of exact.
TEST(NllLossOpsTest, ForwardCascadeSum) {
  std::vector<double> values, targets;
  double exact = 0;
  for (int i = 0; i < 1000; ++i) {
    values.push_back(-0.1 * (i % 7) - 0.01);
    values.push_back(-0.3);
    targets.push_back(0);
    exact += 0.1 * (i % 7) + 0.01;
  }
  Tensor self = makeTensor(DType::Float32, {1000, 2}, {}, values);
  ValueList r = forward(self, makeTensor(DType::Int64, {1000}, {}, targets), None{}, 2, -100);
  EXPECT_NEAR(scalarOf(r[0]), exact, 1e-6 * exact);
}

// grad_input is -weight * grad at each row's target (divided by total_weight for mean).
TEST(NllLossOpsTest, BackwardPlacesGradients) {
  Tensor self = makeTensor(DType::Float32, {3, 3});
  Tensor target = makeTensor(DType::Int64, {3}, {}, {1, -100, 2});
  Tensor weight = makeTensor(DType::Float32, {3}, {}, {0.5, 2, 4});
  Tensor total = makeTensor(DType::Float32, {}, {}, {8});
  Tensor g = makeTensor(DType::Float32, {}, {}, {2});
  EXPECT_EQ(valuesOf(runOp("aten.nll_loss_backward.default", {g, self, target, weight, 1, -100, total})),
            (std::vector<double>{0, -0.5, 0, 0, 0, 0, 0, 0, -1}));
  Tensor perSample = makeTensor(DType::Float32, {3}, {}, {1, 2, 3});
  EXPECT_EQ(valuesOf(runOp("aten.nll_loss_backward.default", {perSample, self, target, None{}, 0, -100, total})),
            (std::vector<double>{0, -1, 0, 0, 0, 0, 0, 0, -3}));
}

TEST(NllLossOpsTest, ErrorsNameTheProblem) {
  Tensor self = makeTensor(DType::Float32, {3, 3});
  Tensor total = makeTensor(DType::Float32, {}, {}, {1});
  const auto targets = [](std::vector<double> v, DType t = DType::Int64) {
    return makeTensor(t, {static_cast<int64_t>(v.size())}, {}, v);
  };
  // PyTorch's per-sample backward does not check targets and writes out of bounds.
  testing::OpOutcome r = runBoth("aten.nll_loss_backward.default",
                                 {makeTensor(DType::Float32, {3}), self, targets({0, 7, 1}), None{}, 0, -100, total});
  ASSERT_FALSE(r.kernel.ok());
  EXPECT_EQ(r.kernel.error().message, "Target 7 is out of bounds.");
  r = runBoth("aten.nll_loss_forward.default", {self, targets({0, 1, 1}, DType::Int32), None{}, 1, -100});
  ASSERT_FALSE(r.kernel.ok());
  EXPECT_EQ(r.kernel.error().message, "expected scalar type Long but found Int");
  r = runBoth("aten.nll_loss_forward.default", {makeTensor(DType::Float16, {3, 3}), targets({0, 1, 1}), None{}, 1, -100});
  ASSERT_FALSE(r.kernel.ok());
  EXPECT_EQ(r.kernel.error().message, "\"nll_loss_out_frame\" not implemented for 'Half'");
  expectOpError("aten.nll_loss_forward.default", {self, targets({0, 1}), None{}, 1, -100},
                "size mismatch (got input: [3, 3], target: [2])");
  expectOpError("aten.nll_loss_forward.default", {self, targets({0, 1, 2}), makeTensor(DType::Float32, {1, 3}), 1, -100},
                "weight tensor should be defined either for all 3 classes or no classes but got weight tensor of shape: [1, 3]");
  expectOpError("aten.nll_loss_backward.default", {makeTensor(DType::Float32, {2}), self, targets({0, 1, 2}), None{}, 1,
                                                   -100, total},
                "Expected a single element grad_output tensor, but got: [2]");
  expectOpError("aten.nll_loss_forward.default", {makeTensor(DType::Float32, {2, 3, 3}), targets({0, 1}), None{}, 1, -100},
                "input tensor should be 1D or 2D");
}

}  // namespace
}  // namespace fathom
