// Tensors: layouts, views sharing storage, byte-size overflow checks and the memory limit.
#include "engine/tensor/Tensor.h"

#include <gtest/gtest.h>

namespace fathom {
namespace {

TEST(TensorTest, EmptyIsContiguousAndZeroed) {
  auto t = Tensor::empty({2, 3, 4}, DType::Float32);
  ASSERT_TRUE(t.ok()) << t.error().str();
  EXPECT_EQ(t->strides(), (IntList{12, 4, 1}));
  EXPECT_EQ(t->numel(), 24);
  EXPECT_TRUE(t->isContiguous());
  for (int64_t i = 0; i < 24; ++i) EXPECT_EQ(t->atLinear(i), 0.0);
}

// PyTorch gives size-0/1 dims the stride of a size-1 dim: contiguous strides of [2, 0, 3] are [3, 3, 1].
TEST(TensorTest, ContiguousStridesOfEmptyDims) {
  EXPECT_EQ(contiguousStrides(IntList{2, 0, 3}), (IntList{3, 3, 1}));
  EXPECT_EQ(contiguousStrides(IntList{}), (IntList{}));
}

TEST(TensorTest, ViewsShareStorage) {
  auto t = Tensor::empty({3, 4}, DType::Float32);
  ASSERT_TRUE(t.ok());
  for (int64_t i = 0; i < 12; ++i) t->setLinear(i, static_cast<double>(i));
  auto transposed = t->asStrided({4, 3}, {1, 4}, 0);
  ASSERT_TRUE(transposed.ok());
  EXPECT_TRUE(transposed->sharesStorageWith(*t));
  EXPECT_FALSE(transposed->isContiguous());
  EXPECT_EQ(transposed->at({1, 2}), 9.0);  // element [2][1] of the original
  auto row = t->asStrided({4}, {1}, 8);     // the last row, through the storage offset
  ASSERT_TRUE(row.ok());
  EXPECT_EQ(row->atLinear(0), 8.0);
  row->setLinear(0, 100.0);
  EXPECT_EQ(t->at({2, 0}), 100.0);  // writes through the view
  auto copy = transposed->contiguous();
  ASSERT_TRUE(copy.ok());
  EXPECT_EQ(copy->strides(), (IntList{3, 1}));
  EXPECT_EQ(copy->at({1, 2}), 9.0);
}

TEST(TensorTest, ViewOutsideStorageIsRefused) {
  auto t = Tensor::empty({4}, DType::Float32);
  ASSERT_TRUE(t.ok());
  EXPECT_FALSE(t->asStrided({4}, {1}, 1).ok());
  EXPECT_FALSE(t->asStrided({2}, {-1}, 3).ok());
}

TEST(TensorTest, BadGeometryIsAnErrorNotACrash) {
  EXPECT_FALSE(Tensor::empty({-1, 3}, DType::Float32).ok());
  EXPECT_FALSE(Tensor::empty({int64_t{1} << 32, int64_t{1} << 32, 4}, DType::Float32).ok());
  auto bytes = storageBytesFor({int64_t{1} << 62}, {1}, 0, DType::Float64);
  EXPECT_FALSE(bytes.ok());
  EXPECT_NE(bytes.error().message.find("overflow"), std::string::npos);
}

TEST(TensorTest, MemoryLimitRefusesBeforeAllocating) {
  const size_t old = memoryLimit();
  setMemoryLimit(size_t{1} << 20);
  auto big = Tensor::empty({1024, 1024}, DType::Float32);  // 4 MiB > 1 MiB
  setMemoryLimit(old);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().code, ErrorCode::OutOfMemory);
  EXPECT_NE(big.error().message.find("memory limit"), std::string::npos);
}

TEST(TensorTest, BytesInUseIsReleased) {
  const size_t before = bytesInUse();
  {
    auto t = Tensor::empty({256}, DType::Float64);
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(bytesInUse(), before + 2048);
  }
  EXPECT_EQ(bytesInUse(), before);
}

TEST(TensorTest, DtypeConversionsThroughDouble) {
  for (DType t : {DType::Bool, DType::UInt8, DType::Int8, DType::Int16, DType::Int32, DType::Int64,
                  DType::Float16, DType::BFloat16, DType::Float32, DType::Float64}) {
    auto x = Tensor::scalar(1.0, t);
    ASSERT_TRUE(x.ok());
    EXPECT_EQ(x->atLinear(0), 1.0) << dtypeName(t);
    EXPECT_EQ(x->dim(), 0);
    EXPECT_EQ(x->numel(), 1);
  }
}

TEST(TensorTest, FromMetaKeepsStridesAndOffset) {
  TensorMeta m;
  m.dtype = DType::Int32;
  m.sizes = {2, 3};
  m.strides = {1, 2};
  m.storageOffset = 5;
  auto t = Tensor::fromMeta(m);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->strides(), (IntList{1, 2}));
  EXPECT_EQ(t->storageOffset(), 5);
  EXPECT_EQ(t->storage()->nbytes(), (5u + 6u) * 4u);
}

}  // namespace
}  // namespace fathom
