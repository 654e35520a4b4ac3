// Contiguity and density queries follow c10's definitions (size-1 dims ignore strides).
#include "engine/tensor/TensorMeta.h"

#include <gtest/gtest.h>

#include "engine/core/Error.h"

namespace fathom {
namespace {

TensorMeta meta(SymIntList sizes, SymIntList strides, int64_t offset = 0) {
  TensorMeta m;
  m.sizes = std::move(sizes);
  m.strides = std::move(strides);
  m.storageOffset = offset;
  return m;
}

TEST(TensorMetaTest, Contiguity) {
  EXPECT_TRUE(isContiguous(meta({2, 3}, {3, 1})));
  EXPECT_FALSE(isContiguous(meta({2, 3}, {1, 2})));
  EXPECT_TRUE(isContiguous(meta({2, 1, 3}, {3, 99, 1})));  // size-1 dim: any stride
  EXPECT_TRUE(isContiguous(meta({0, 3}, {7, 7})));         // empty: contiguous
  EXPECT_TRUE(isContiguous(meta({}, {})));
}

TEST(TensorMetaTest, ChannelsLast) {
  SymIntList sizes = {2, 3, 4, 5};
  auto strides = channelsLastStrides(sizes);
  EXPECT_EQ(strides[0].hint(), 60);
  EXPECT_EQ(strides[1].hint(), 1);
  EXPECT_EQ(strides[2].hint(), 15);
  EXPECT_EQ(strides[3].hint(), 3);
  EXPECT_TRUE(isChannelsLastContiguous(meta(sizes, strides)));
  EXPECT_FALSE(isContiguous(meta(sizes, strides)));
  EXPECT_THROW(channelsLastStrides({2, 3}), OpError);
}

TEST(TensorMetaTest, NonOverlappingAndDense) {
  EXPECT_TRUE(isNonOverlappingAndDense(meta({2, 3}, {1, 2})));   // transposed: dense
  EXPECT_FALSE(isNonOverlappingAndDense(meta({2, 3}, {0, 1})));  // expanded: overlapping
  EXPECT_FALSE(isNonOverlappingAndDense(meta({2, 3}, {6, 1})));  // sliced rows: holes
  EXPECT_TRUE(isNonOverlappingAndDense(meta({5}, {1})));
  EXPECT_TRUE(isNonOverlappingAndDense(meta({1}, {7})));
}

TEST(TensorMetaTest, WrapDim) {
  EXPECT_EQ(wrapDim(-1, 3), 2);
  EXPECT_EQ(wrapDim(0, 0), 0);   // scalars accept dim 0 and -1
  EXPECT_EQ(wrapDim(-1, 0), 0);
  try {
    wrapDim(3, 3);
    FAIL() << "expected an error";
  } catch (const OpError& e) {
    EXPECT_STREQ(e.what(), "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  }
}

TEST(TensorMetaTest, Printing) {
  EXPECT_EQ(meta({8, 128}, {128, 1}).str(), "f32[8, 128] [128, 1]");
  EXPECT_EQ(meta({4}, {2}, 3).str(), "f32[4] [2] +3");
}

}  // namespace
}  // namespace fathom
