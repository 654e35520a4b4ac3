// Pooling beyond the oracle fixtures: NaN and -inf windows in max pooling, accumulation of
// overlapping windows in its backward, out-of-range indices and index -1, and integer average
// pooling.
#include <cmath>
#include <limits>

#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::makeTensor;
using testing::runBoth;
using testing::runOp;
using testing::valuesOf;

ValueList pair(int64_t a, int64_t b) { return {Value(a), Value(b)}; }

ValueList maxPool(const Tensor& x, int64_t k, int64_t s, int64_t pad) {
  return {x, pair(k, k), pair(s, s), pair(pad, pad), pair(1, 1), false};
}

// NaN wins a window (and keeps its index); an all -inf window reports its first element.
TEST(PoolingOpsTest, MaxPoolNanAndInfinity) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const Tensor x = makeTensor(DType::Float32, {1, 1, 2, 3}, {}, {1, nan, 3, -inf, -inf, -inf});
  auto r = runBoth("aten.max_pool2d_with_indices.default", maxPool(x, 2, 1, 0));
  ASSERT_TRUE(r.kernel.ok());
  const auto out = valuesOf((*r.kernel)[0].as<Tensor>()), idx = valuesOf((*r.kernel)[1].as<Tensor>());
  EXPECT_TRUE(std::isnan(out[0]) && std::isnan(out[1]));
  EXPECT_EQ(idx, (std::vector<double>{1, 1}));
  const Tensor all = makeTensor(DType::Float32, {1, 1, 2, 2}, {}, {-inf, -inf, -inf, -inf});
  auto r2 = runBoth("aten.max_pool2d_with_indices.default", maxPool(all, 2, 1, 1));
  ASSERT_TRUE(r2.kernel.ok());
  EXPECT_EQ(valuesOf((*r2.kernel)[1].as<Tensor>()), (std::vector<double>{0, 0, 1, 0, 0, 1, 2, 2, 3}));
}

// Overlapping windows that pick the same maximum add their gradients into it.
TEST(PoolingOpsTest, MaxPoolBackwardAccumulatesOverlaps) {
  const Tensor x = makeTensor(DType::Float32, {1, 1, 3, 3}, {}, {1, 2, 3, 4, 9, 5, 6, 7, 8});
  auto r = runBoth("aten.max_pool2d_with_indices.default", maxPool(x, 2, 1, 0));
  ASSERT_TRUE(r.kernel.ok());
  const Tensor go = makeTensor(DType::Float32, {1, 1, 2, 2}, {}, {1, 2, 3, 4});
  const Tensor gi = runOp("aten.max_pool2d_with_indices_backward.default",
                          {go, x, pair(2, 2), pair(1, 1), pair(0, 0), pair(1, 1), false, (*r.kernel)[1].as<Tensor>()});
  EXPECT_EQ(valuesOf(gi), (std::vector<double>{0, 0, 0, 0, 10, 0, 0, 0, 0}));
}

// An index outside the input plane is a kernel error (PyTorch 1.13 writes out of bounds); the
// meta function cannot see index values and succeeds.
TEST(PoolingOpsTest, MaxPoolBackwardRejectsOutOfRangeIndices) {
  const Tensor x = makeTensor(DType::Float32, {1, 1, 2, 2});
  const Tensor idx = makeTensor(DType::Int64, {1, 1, 1, 1}, {}, {4});
  auto r = runBoth("aten.max_pool2d_with_indices_backward.default",
                   {makeTensor(DType::Float32, {1, 1, 1, 1}), x, pair(2, 2), pair(2, 2), pair(0, 0), pair(1, 1), false, idx});
  EXPECT_TRUE(r.meta.ok());
  ASSERT_FALSE(r.kernel.ok());
  EXPECT_EQ(r.kernel.error().code, ErrorCode::InvalidInput);
  EXPECT_EQ(r.kernel.error().message, "max_pool2d_with_indices_backward: index 4 is out of range for an input plane of 2x2");
}

// Index -1 is skipped, as 1.13 skips it (its backward kernels test for it).
TEST(PoolingOpsTest, MaxPoolBackwardSkipsMinusOne) {
  const Tensor x = makeTensor(DType::Float32, {1, 1, 2, 2});
  const Tensor idx = makeTensor(DType::Int64, {1, 1, 1, 1}, {}, {-1});
  const Tensor gi = runOp("aten.max_pool2d_with_indices_backward.default",
                          {makeTensor(DType::Float32, {1, 1, 1, 1}, {}, {5}), x, pair(2, 2), pair(2, 2), pair(0, 0),
                           pair(1, 1), false, idx});
  EXPECT_EQ(valuesOf(gi), std::vector<double>(4, 0.0));
}

// Integer average pooling truncates toward zero; count_include_pad=False divides by the part of
// the window inside the input.
TEST(PoolingOpsTest, AvgPoolIntegerAndPadding) {
  const Tensor x = makeTensor(DType::Int64, {1, 1, 2, 2}, {}, {-1, -2, -3, -5});
  const Tensor padded = runOp("aten.avg_pool2d.default", {x, pair(2, 2), pair(2, 2), pair(1, 1), false, true, None{}});
  EXPECT_EQ(valuesOf(padded), (std::vector<double>{0, 0, 0, -1}));  // -1/4, -2/4, -3/4, -5/4
  const Tensor inside = runOp("aten.avg_pool2d.default", {x, pair(2, 2), pair(2, 2), pair(1, 1), false, false, None{}});
  EXPECT_EQ(valuesOf(inside), (std::vector<double>{-1, -2, -3, -5}));
}

}  // namespace
}  // namespace fathom
