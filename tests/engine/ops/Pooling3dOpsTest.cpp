// 3-d pooling beyond the oracle fixtures: where PyTorch 1.13 reads out of bounds or crashes
// (grad_output with fewer batches than the input, indices outside the plane or not dense, an
// integer divisor that truncates to 0), Fathom refuses with a message instead; and index -1,
// which 1.13's max pooling backward skips.
#include <cmath>

#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::makeTensor;
using testing::runBoth;
using testing::runOp;
using testing::valuesOf;

ValueList ints(std::initializer_list<int64_t> v) {
  ValueList out;
  for (int64_t x : v) out.push_back(Value(x));
  return out;
}

// max_pool3d_with_indices_backward(grad, x, kernel 2, stride 2, padding 0, dilation 1, False, indices)
ValueList maxBackwardArgs(const Tensor& grad, const Tensor& x, const Tensor& indices) {
  return {grad, x, ints({2, 2, 2}), ints({2, 2, 2}), ints({0}), ints({1}), false, indices};
}

void expectInvalid(const testing::OpOutcome& r, bool metaToo, const std::string& text) {
  ASSERT_FALSE(r.kernel.ok());
  EXPECT_EQ(r.kernel.error().code, ErrorCode::InvalidInput);
  EXPECT_NE(r.kernel.error().message.find(text), std::string::npos) << r.kernel.error().message;
  EXPECT_EQ(r.meta.ok(), !metaToo);
}

TEST(Pooling3dOpsTest, MaxBackwardSkipsMinusOneAndRejectsOtherIndicesOutsideThePlane) {
  const Tensor x = makeTensor(DType::Float32, {1, 1, 2, 2, 2});
  const Tensor grad = makeTensor(DType::Float32, {1, 1, 1, 1, 1}, {}, {5});
  const Tensor skipped = runOp("aten.max_pool3d_with_indices_backward.default",
                               maxBackwardArgs(grad, x, makeTensor(DType::Int64, {1, 1, 1, 1, 1}, {}, {-1})));
  EXPECT_EQ(valuesOf(skipped), std::vector<double>(8, 0.0));
  auto r = runBoth("aten.max_pool3d_with_indices_backward.default",
                   maxBackwardArgs(grad, x, makeTensor(DType::Int64, {1, 1, 1, 1, 1}, {}, {8})));
  expectInvalid(r, false, "max_pool3d_with_indices_backward: index 8 is out of range for an input plane of 2x2x2");
}

// 1.13 checks grad_output's channels and pooled sizes but not its batch: a larger one is read in
// part (the oracle has that case), a smaller one would be read past its end.
TEST(Pooling3dOpsTest, BackwardsRejectGradOutputWithFewerBatches) {
  const Tensor x = makeTensor(DType::Float32, {2, 1, 2, 2, 2});
  const Tensor grad = makeTensor(DType::Float32, {1, 1, 1, 1, 1});
  const Tensor indices = makeTensor(DType::Int64, {1, 1, 1, 1, 1}, {}, {0});
  expectInvalid(runBoth("aten.max_pool3d_with_indices_backward.default", maxBackwardArgs(grad, x, indices)), true,
                "grad_output has 1 batches but the input has 2");
  expectInvalid(runBoth("aten.avg_pool3d_backward.default",
                        {grad, x, ints({2, 2, 2}), ints({2, 2, 2}), ints({0}), false, true, None{}}),
                true, "grad_output has 1 batches but the input has 2");
  expectInvalid(runBoth("aten._adaptive_avg_pool3d_backward.default", {grad, x}), true, "has fewer planes than the input");
}

// 1.13 reads indices by their raw pointer: dense ones in memory order (oracle cases), others not at all.
TEST(Pooling3dOpsTest, MaxBackwardRejectsIndicesThatAreNotDense) {
  const Tensor x = makeTensor(DType::Float32, {2, 1, 2, 2, 2});
  const Tensor grad = makeTensor(DType::Float32, {2, 1, 1, 1, 1});
  const Tensor expanded = makeTensor(DType::Int64, {2, 1, 1, 1, 1}, {0, 1, 1, 1, 1}, {0, 0});
  expectInvalid(runBoth("aten.max_pool3d_with_indices_backward.default", maxBackwardArgs(grad, x, expanded)), true,
                "are not dense");
}

// divisor_override is read as a 32-bit int, as 1.13 reads it: 2^32 is 0, which divides floats to
// inf (1.13 too) but would divide integers by zero.
TEST(Pooling3dOpsTest, AvgPoolDivisorTruncatedTo32Bits) {
  const int64_t twoTo32 = int64_t{1} << 32;
  const Tensor ones = makeTensor(DType::Float32, {1, 1, 2, 2, 2}, {}, std::vector<double>(8, 1.0));
  const Tensor inf = runOp("aten.avg_pool3d.default", {ones, ints({2}), ints({}), ints({0}), false, true, twoTo32});
  EXPECT_TRUE(std::isinf(valuesOf(inf)[0]));
  const Tensor longs = makeTensor(DType::Int64, {1, 1, 2, 2, 2});
  expectInvalid(runBoth("aten.avg_pool3d.default", {longs, ints({2}), ints({}), ints({0}), false, true, twoTo32}), true,
                "is 0 as a 32-bit int");
}

// 1.13's adaptive backward takes a 6-d self and fills only part of its gradient.
TEST(Pooling3dOpsTest, AdaptiveBackwardRejectsSelfOfRankSix) {
  auto r = runBoth("aten._adaptive_avg_pool3d_backward.default",
                   {makeTensor(DType::Float32, {1, 2, 3, 1, 1, 1}), makeTensor(DType::Float32, {1, 2, 3, 2, 2, 2})});
  expectInvalid(r, true, "Expected 4D or 5D tensor for self");
}

}  // namespace
}  // namespace fathom
