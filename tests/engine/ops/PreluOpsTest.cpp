// PReLU beyond the oracle fixtures: torch 2.x's _prelu_kernel and _prelu_kernel_backward (not in
// 1.13, so no fixtures) against 1.13's prelu and prelu_backward, which compute the same values:
// 2.x's composite prelu reshapes the weight to [1, C, 1, ...] and calls _prelu_kernel, and its
// autograd sums _prelu_kernel_backward's grad_weight (of self's shape) to the weight's.
#include "engine/ops/layout/MemoryLayout.h"
#include "tests/engine/HintSymbol.h"
#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using namespace testing;  // makeTensor, runOp, runBoth, valuesOf, expectOpError, opNamed

std::vector<double> ramp(int64_t n, double start, double step) {
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(start + step * static_cast<double>(i));
  return v;
}

// _prelu_kernel with the weight shaped [1, C, 1, 1] gives prelu's values; its result takes
// self's layout (empty_like), channels_last here.
TEST(PreluOpsTest, KernelMatchesPrelu) {
  const Tensor x = makeTensor(DType::Float32, {2, 3, 2, 2}, {12, 1, 6, 3}, ramp(24, -3.0, 0.25));
  const Tensor w = makeTensor(DType::Float32, {3}, {}, {0.5, -0.25, 2.0});
  const Tensor w4 = makeTensor(DType::Float32, {1, 3, 1, 1}, {}, {0.5, -0.25, 2.0});
  const Tensor a = runOp("aten.prelu.default", {x, w});
  const Tensor b = runOp("aten._prelu_kernel.default", {x, w4});
  EXPECT_EQ(valuesOf(a), valuesOf(b));
  EXPECT_EQ(b.strides(), x.strides());
  EXPECT_EQ(a.strides(), x.strides());  // 1.13: self's suggested format, channels_last
  // x = -3 at [0, 0, 0, 0] (weight 0.5), x = -2 at [0, 1, 0, 0] (weight -0.25)
  EXPECT_EQ(a.at({0, 0, 0, 0}), -1.5);
  EXPECT_EQ(a.at({0, 1, 0, 0}), 0.5);
}

// _prelu_kernel_backward's grad_weight, summed over all but the channel dim, is prelu_backward's;
// both give the same grad_input. Its results have the broadcast shape.
TEST(PreluOpsTest, KernelBackwardSumsToPreluBackward) {
  const Tensor x = makeTensor(DType::Float64, {2, 3, 4}, {}, ramp(24, -3.0, 0.25));
  const Tensor g = makeTensor(DType::Float64, {2, 3, 4}, {}, ramp(24, 1.0, -0.125));
  const Tensor w = makeTensor(DType::Float64, {3}, {}, {0.5, -0.25, 2.0});
  const Tensor w3 = makeTensor(DType::Float64, {1, 3, 1}, {}, {0.5, -0.25, 2.0});
  auto old = runBoth("aten.prelu_backward.default", {g, x, w});
  auto now = runBoth("aten._prelu_kernel_backward.default", {g, x, w3});
  ASSERT_TRUE(old.kernel.ok() && now.kernel.ok());
  const Tensor &gi = (*old.kernel)[0].as<Tensor>(), &gw = (*old.kernel)[1].as<Tensor>();
  const Tensor &gi2 = (*now.kernel)[0].as<Tensor>(), &gwFull = (*now.kernel)[1].as<Tensor>();
  EXPECT_EQ(valuesOf(gi), valuesOf(gi2));
  ASSERT_EQ(gwFull.sizes(), (IntList{2, 3, 4}));
  ASSERT_EQ(gw.sizes(), (IntList{3}));
  for (int64_t c = 0; c < 3; ++c) {
    double sum = 0;
    for (int64_t n = 0; n < 2; ++n)
      for (int64_t i = 0; i < 4; ++i) sum += gwFull.at({n, c, i});
    EXPECT_DOUBLE_EQ(gw.at({c}), sum) << "channel " << c;
  }
  ASSERT_TRUE(now.meta.ok());
  EXPECT_EQ((*now.meta)[1].as<TensorMeta>().str(), gwFull.meta().str());
}

// A weight that does not broadcast to self's sizes is refused by _prelu_kernel (its output is
// empty_like(self)); dtypes must agree; integers have no kernel.
TEST(PreluOpsTest, KernelErrorsNameTheProblem) {
  const Tensor x = makeTensor(DType::Float32, {2, 3});
  expectOpError("aten._prelu_kernel.default", {x, makeTensor(DType::Float32, {2, 1, 3})},
                         "output with shape [2, 3] doesn't match the broadcast shape [2, 2, 3]");
  expectOpError("aten._prelu_kernel.default", {x, makeTensor(DType::Float64, {1})},
                         "prelu_cpu: expected tensors of one dtype");
  expectOpError("aten._prelu_kernel.default", {makeTensor(DType::Int64, {2}), makeTensor(DType::Int64, {1})},
                         "\"prelu_cpu\" not implemented for 'Long'");
  expectOpError("aten.prelu_backward.default",
                         {makeTensor(DType::Float32, {2, 4}), x, makeTensor(DType::Float32, {3})},
                         "prelu_backward: expected grad_output of self's size [2, 3], but got [2, 4]");
}

// prelu's meta function works on symbolic sizes: the channel check becomes a guard and the
// result keeps the symbols.
TEST(PreluOpsTest, MetaKeepsSymbolicSizes) {
  const SymInt s0(testing::hintSymbol("s0", 2)), s1(testing::hintSymbol("s1", 5));
  TensorMeta x;
  x.sizes = {s0, 3, s1};
  x.strides = contiguousStrides(x.sizes);
  TensorMeta w;
  w.sizes = {3};
  w.strides = {1};
  auto out = callMeta(opNamed("aten.prelu.default"), {Value(x), Value(w)});
  ASSERT_TRUE(out.ok()) << out.error().str();
  EXPECT_EQ((*out)[0].as<TensorMeta>().sizes[2].str(), "s1");
}

}  // namespace
}  // namespace fathom
