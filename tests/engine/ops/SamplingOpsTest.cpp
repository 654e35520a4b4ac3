// col2im and grid_sampler_2d where PyTorch 1.13 goes wrong, so the oracle cannot record them
// (FoldOps.cpp, GridSamplerOps.cpp say what Fathom does instead): a kernel area that overflows,
// modes outside 0..2, a grad_output of another size, and a NaN coordinate in the bilinear
// backward with border or reflection padding.
#include <cmath>
#include <limits>

#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runBoth;
using testing::valuesOf;

ValueList pair(int64_t a, int64_t b) { return {Value(a), Value(b)}; }

// 1.13 divides by kh * kw wrapped around (and dies of SIGFPE when it wraps to 0).
TEST(SamplingOpsTest, Col2imRejectsAKernelAreaThatOverflows) {
  const int64_t big = int64_t{1} << 32;
  expectOpError("aten.col2im.default",
                {makeTensor(DType::Float32, {2, 6, 1}), pair(2, 3), pair(big, big), pair(1, 1), pair(0, 0), pair(1, 1)},
                "Given kernel_width = 4294967296 and kernel_height = 4294967296 the product of kernel_width and "
                "kernel_height overflowed.");
}

// 1.13 returns its output uninitialized for a mode it does not know.
TEST(SamplingOpsTest, GridSamplerRejectsUnknownModes) {
  const Tensor x = makeTensor(DType::Float32, {1, 2, 3, 4}), grid = makeTensor(DType::Float32, {1, 2, 3, 2});
  expectOpError("aten.grid_sampler_2d.default", {x, grid, 3, 0, false},
                "grid_sampler(): expected interpolation_mode to be 0 (bilinear), 1 (nearest) or 2 (bicubic), but got 3");
  expectOpError("aten.grid_sampler_2d.default", {x, grid, 0, -1, true},
                "grid_sampler(): expected padding_mode to be 0 (zeros), 1 (border) or 2 (reflection), but got -1");
  expectOpError("aten.grid_sampler_2d_backward.default",
                {makeTensor(DType::Float32, {1, 2, 2, 3}), x, grid, 0, 3, false, ValueList{true, true}},
                "grid_sampler(): expected padding_mode");
}

// 1.13 reads grad_output with the output's geometry whatever its sizes (past its end when smaller).
TEST(SamplingOpsTest, GridSamplerBackwardRejectsAGradOutputOfAnotherSize) {
  const Tensor x = makeTensor(DType::Float32, {1, 2, 3, 4}), grid = makeTensor(DType::Float32, {1, 2, 3, 2});
  for (const IntList& sizes : {IntList{1, 2, 2, 4}, IntList{1, 2, 1, 3}, IntList{1, 1, 2, 3}})
    expectOpError("aten.grid_sampler_2d_backward.default",
                  {makeTensor(DType::Float32, sizes), x, grid, 0, 0, false, ValueList{true, true}},
                  "grid_sampler_2d_backward: expected grad_output of size [1, 2, 2, 3] (the output's)");
}

// A NaN x coordinate: the forward clips it to 0 (border) or reflects and clips it to 0; 1.13's
// backward keeps the NaN and reads outside the input. Fathom's backward reads the forward's
// pixel: input [[1, 2], [3, 4]] at x = 0, y = 0.5 (grid y 0, align_corners=False).
TEST(SamplingOpsTest, GridSamplerBackwardTakesTheForwardsPixelForANanCoordinate) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor x = makeTensor(DType::Float32, {1, 1, 2, 2}, {}, {1, 2, 3, 4});
  const Tensor grid = makeTensor(DType::Float32, {1, 1, 1, 2}, {}, {nan, 0});
  for (int64_t padding : {1, 2}) {
    auto fwd = runBoth("aten.grid_sampler_2d.default", {x, grid, 0, padding, false});
    ASSERT_TRUE(fwd.kernel.ok()) << fwd.kernel.error().str();
    EXPECT_EQ(valuesOf((*fwd.kernel)[0].as<Tensor>()), (std::vector<double>{2}));
    auto bwd = runBoth("aten.grid_sampler_2d_backward.default",
                       {makeTensor(DType::Float32, {1, 1, 1, 1}, {}, {1}), x, grid, 0, padding, false, ValueList{true, true}});
    ASSERT_TRUE(bwd.kernel.ok()) << bwd.kernel.error().str();
    EXPECT_EQ(valuesOf((*bwd.kernel)[0].as<Tensor>()), (std::vector<double>{0.5, 0, 0.5, 0}));
    EXPECT_EQ(valuesOf((*bwd.kernel)[1].as<Tensor>()), (std::vector<double>{0, 2}));  // no gradient through the clip
  }
}

}  // namespace
}  // namespace fathom
