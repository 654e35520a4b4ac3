// fill, masked_fill, tril, triu: what the oracle fixtures cannot show - errors for inputs
// PyTorch 1.13 accepts in odd ways, extreme diagonals, and meta/kernel agreement on layouts.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::OpOutcome;
using testing::runBoth;
using testing::runOp;
using testing::valuesOf;

// PyTorch 1.13 reads a mask that is not bool as bytes, the first byte of each element: an int64
// mask of 0s and 1s works (256 reads as 0), a float 1.0 reads as 0, and a byte other than 0 or 1
// is an error.
TEST(FillOpsTest, MaskedFillReadsOtherMasksAsBytes) {
  Tensor x = makeTensor(DType::Float32, {4}, {}, {1, 2, 3, 4});
  Tensor ints = makeTensor(DType::Int64, {4}, {}, {1, 0, 256, 1});
  EXPECT_EQ(valuesOf(runOp("aten.masked_fill.Scalar", {x, ints, -1.0})), (std::vector<double>{-1, 2, 3, -1}));
  Tensor floats = makeTensor(DType::Float32, {4}, {}, {1, 0, 1, 0});
  EXPECT_EQ(valuesOf(runOp("aten.masked_fill.Scalar", {x, floats, -1.0})), (std::vector<double>{1, 2, 3, 4}));
  // Only the kernel sees the values: the meta function accepts any mask.
  Tensor twos = makeTensor(DType::Int32, {4}, {}, {0, 2, 0, 1});
  OpOutcome r = runBoth("aten.masked_fill.Scalar", {x, twos, 2.0});
  EXPECT_TRUE(r.meta.ok());
  ASSERT_FALSE(r.kernel.ok());
  EXPECT_EQ(r.kernel.error().message, "Mask tensor can take 0 and 1 values only");
}

// The mask broadcasts the input; the result is a contiguous clone of the broadcast input.
TEST(FillOpsTest, MaskedFillBroadcastsSelf) {
  Tensor x = makeTensor(DType::Int32, {2, 1}, {}, {5, 7});
  Tensor mask = makeTensor(DType::Bool, {3}, {}, {1, 0, 0});
  Tensor out = runOp("aten.masked_fill.Scalar", {x, mask, -2.7});
  EXPECT_EQ(out.sizes(), (IntList{2, 3}));
  EXPECT_EQ(out.strides(), (IntList{3, 1}));
  EXPECT_EQ(valuesOf(out), (std::vector<double>{-2, 5, 5, -2, 7, 7}));  // -2.7 truncates
}

// Out-of-range values are errors in the element type's C++ name, like c10::checked_convert.
TEST(FillOpsTest, ValuesThatOverflowTheDtype) {
  expectOpError("aten.fill.Scalar", {makeTensor(DType::UInt8, {2}), int64_t{256}},
                "value cannot be converted to type uint8_t without overflow");
  expectOpError("aten.fill.Scalar", {makeTensor(DType::BFloat16, {2}), 1e39},
                "value cannot be converted to type at::BFloat16 without overflow");
  EXPECT_EQ(valuesOf(runOp("aten.fill.Scalar", {makeTensor(DType::UInt8, {2}), int64_t{-1}})),
            (std::vector<double>{255, 255}));
  EXPECT_EQ(valuesOf(runOp("aten.fill.Scalar", {makeTensor(DType::Float16, {1}), INFINITY})),
            (std::vector<double>{INFINITY}));
}

// Diagonals far outside the matrix keep everything or nothing, without overflowing i + k.
TEST(FillOpsTest, ExtremeDiagonals) {
  Tensor x = makeTensor(DType::Float32, {2, 3}, {}, {1, 2, 3, 4, 5, 6});
  const int64_t big = std::numeric_limits<int64_t>::max(), small = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(valuesOf(runOp("aten.tril.default", {x, big})), valuesOf(x));
  EXPECT_EQ(valuesOf(runOp("aten.tril.default", {x, small})), (std::vector<double>(6, 0)));
  EXPECT_EQ(valuesOf(runOp("aten.triu.default", {x, small})), valuesOf(x));
  EXPECT_EQ(valuesOf(runOp("aten.triu.default", {x, big})), (std::vector<double>(6, 0)));
}

// tril reads any strided input (here a transposed batch) and writes a contiguous result.
TEST(FillOpsTest, TrilOfTransposedBatch) {
  Tensor x = makeTensor(DType::Int64, {2, 2, 3}, {6, 1, 2});
  Tensor out = runOp("aten.tril.default", {x});
  EXPECT_EQ(out.strides(), (IntList{6, 3, 1}));
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 3; ++j) EXPECT_EQ(out.at({b, i, j}), j <= i ? x.at({b, i, j}) : 0.0);
  expectOpError("aten.triu.default", {makeTensor(DType::Float32, {})},
                "Dimension specified as -2 but tensor has no dimensions");
}

}  // namespace
}  // namespace fathom
