// The training step's comparison (engine/aot/TrainingStep.h): a value apart beyond 1e-4 of its
// largest element is judged again by PyTorch's accuracy rule against the step in float64.
// timm's efficientnet_b0 under aot_jit: five batch-norm weight gradients, sums over N*H*W that
// the jit's fused reductions add in another order, were 1.2e-4 of their largest element apart
// from eager autograd and failed the step; each is as near the float64 truth as eager's.
#include <gtest/gtest.h>

#include "engine/aot/TrainingStep.h"
#include "engine/ops/Value.h"

namespace fathom::aot {
namespace {

Tensor vec(DType dtype, const std::vector<double>& v) {
  Tensor t = *Tensor::empty({static_cast<int64_t>(v.size())}, dtype);
  for (size_t i = 0; i < v.size(); ++i) t.setLinear(static_cast<int64_t>(i), v[i]);
  return t;
}

TrainingStep gradOnly(const Tensor& g) {
  TrainingStep s;
  s.grads = {Value(g)};
  return s;
}

TEST(StepFloat64Rule, RoundingInAnotherOrderPassesAWrongValueDoesNot) {
  PartitionInfo info;
  info.gradInputs = {"primals_5"};
  const TrainingStep truth = gradOnly(vec(DType::Float64, {1.0, 2.0, 3.0, 4.0}));
  const TrainingStep eager = gradOnly(vec(DType::Float32, {1.0, 2.0, 3.0, 4.0007}));  // PyTorch-like rounding
  // As far from the truth as eager, on the other side: apart by 1.4e-3 / 4 > 1e-4.
  const TrainingStep jit = gradOnly(vec(DType::Float32, {1.0, 2.0, 3.0, 3.9993}));
  auto diffs = compareSteps(jit, eager, info);
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_FALSE(diffs[0].ok);
  judgeByFloat64(diffs, jit, eager, truth);
  EXPECT_TRUE(diffs[0].byFloat64);
  EXPECT_TRUE(diffs[0].ok);
  EXPECT_NEAR(diffs[0].error, diffs[0].referenceError, 1e-6);

  // Ten times eager's error: a wrong value still fails.
  const TrainingStep wrong = gradOnly(vec(DType::Float32, {1.0, 2.0, 3.0, 3.993}));
  auto bad = compareSteps(wrong, eager, info);
  judgeByFloat64(bad, wrong, eager, truth);
  EXPECT_TRUE(bad[0].byFloat64);
  EXPECT_FALSE(bad[0].ok);
  EXPECT_GT(bad[0].error, bad[0].allowed);
}

TEST(StepFloat64Rule, ValuesAlreadyWithinRtolOrOfOtherSizesAreLeftAlone) {
  PartitionInfo info;
  info.gradInputs = {"a"};
  const TrainingStep eager = gradOnly(vec(DType::Float32, {1.0, 2.0}));
  auto same = compareSteps(eager, eager, info);
  judgeByFloat64(same, eager, eager, gradOnly(vec(DType::Float64, {1.0, 2.0})));
  EXPECT_TRUE(same[0].ok);
  EXPECT_FALSE(same[0].byFloat64);
  const TrainingStep longer = gradOnly(vec(DType::Float32, {1.0, 2.0, 3.0}));
  auto sizes = compareSteps(longer, eager, info);
  judgeByFloat64(sizes, longer, eager, gradOnly(vec(DType::Float64, {1.0, 2.0})));
  EXPECT_FALSE(sizes[0].ok);
  EXPECT_FALSE(sizes[0].byFloat64);
}

}  // namespace
}  // namespace fathom::aot
