// clone, _to_copy and the *_like factories: memory_format semantics (preserve keeps dense
// strides, infers dense strides otherwise), dtypes, values, and fresh storage.
#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runOp;
using testing::valuesOf;

struct LikeCase {
  const char* what;
  IntList sizes, strides;
  Value memoryFormat;
  IntList outStrides;
};

// Each row: clone's output strides (and the same for empty_like / zeros_like / _to_copy).
TEST(FactoryOpsTest, PreserveFormatLayouts) {
  const LikeCase cases[] = {
      {"contiguous", {2, 3}, {}, Value(None{}), {3, 1}},
      // Dense but transposed: preserve keeps the strides exactly.
      {"transposed", {2, 3}, {1, 2}, Value(None{}), {1, 2}},
      {"transposed, contiguous_format", {2, 3}, {1, 2}, Value(MemoryFormat::Contiguous), {3, 1}},
      // (6,4).t() sliced every other column: not dense; dim 0 (stride 1) stays fastest.
      {"strided transposed slice", {4, 3}, {1, 8}, Value(None{}), {1, 4}},
      // Expanded (stride 0): zero strides do not move in the sort -> row-major dense.
      {"expanded", {3, 4}, {0, 1}, Value(None{}), {4, 1}},
      // Channels-last input stays channels-last; channels_last requested on NCHW too.
      {"channels last", {2, 3, 4, 5}, {60, 1, 15, 3}, Value(None{}), {60, 1, 15, 3}},
      {"to channels_last", {2, 3, 4, 5}, {}, Value(MemoryFormat::ChannelsLast), {60, 1, 15, 3}},
      // A sliced tensor with offset: dense strides, offset 0 in the copy.
      {"offset slice", {2, 3}, {6, 1}, Value(None{}), {3, 1}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    Tensor x = makeTensor(DType::Float32, c.sizes, c.strides);
    Tensor y = runOp("aten.clone.default", {x}, {{"memory_format", c.memoryFormat}});
    EXPECT_EQ(y.strides(), c.outStrides);
    EXPECT_EQ(y.storageOffset(), 0);
    EXPECT_FALSE(y.sharesStorageWith(x));
    EXPECT_EQ(valuesOf(y), valuesOf(x));
    for (const char* op : {"aten.empty_like.default", "aten.zeros_like.default", "aten.ones_like.default"})
      EXPECT_EQ(runOp(op, {x}, {{"memory_format", c.memoryFormat}}).strides(), c.outStrides) << op;
    EXPECT_EQ(runOp("aten._to_copy.default", {x}, {{"memory_format", c.memoryFormat}}).strides(), c.outStrides);
  }
}

// _to_copy converts values; *_like take a dtype; full infers its dtype from the fill value.
TEST(FactoryOpsTest, DtypesAndValues) {
  Tensor x = makeTensor(DType::Float32, {3}, {}, {1.7, -2.5, 0});
  Tensor i = runOp("aten._to_copy.default", {x}, {{"dtype", DType::Int32}});
  EXPECT_EQ(i.dtype(), DType::Int32);
  EXPECT_EQ(valuesOf(i), (std::vector<double>{1, -2, 0}));
  Tensor b = runOp("aten._to_copy.default", {x}, {{"dtype", DType::Bool}});
  EXPECT_EQ(valuesOf(b), (std::vector<double>{1, 1, 0}));
  EXPECT_EQ(valuesOf(runOp("aten.ones_like.default", {x}, {{"dtype", DType::Int64}})), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(valuesOf(runOp("aten.zeros_like.default", {x})), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(runOp("aten.full.default", {ValueList{2, 2}, 1.5}).dtype(), DType::Float32);
  EXPECT_EQ(runOp("aten.full.default", {ValueList{2}, int64_t{3}}).dtype(), DType::Int64);
  Tensor t = runOp("aten.full.default", {ValueList{2}, true});
  EXPECT_EQ(t.dtype(), DType::Bool);
  EXPECT_EQ(valuesOf(t), (std::vector<double>{1, 1}));
}

TEST(FactoryOpsTest, ErrorsAreReportedNotThrown) {
  expectOpError("aten.clone.default", {makeTensor(DType::Float32, {2, 3})},
                "required rank 4 tensor to use channels_last format", {{"memory_format", MemoryFormat::ChannelsLast}});
}

}  // namespace
}  // namespace fathom
