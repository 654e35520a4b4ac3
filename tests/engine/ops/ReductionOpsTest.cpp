// sum and mean: reduced shapes (keepdim), contiguous outputs whatever the input layout, dtype
// rules (integers sum to int64, mean needs floating), values, and errors.
#include <cmath>

#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runOp;
using testing::valuesOf;

struct ReductionCase {
  const char* what;
  IntList sizes, strides;
  Value dims;  // None for sum.default
  bool keepdim;
  IntList outSizes, outStrides;
  std::vector<double> values;  // input is 0, 1, 2, ... in logical order
};

// Each row: sum over those dims; the output is always freshly contiguous (resize_reduction).
TEST(ReductionOpsTest, SumLayoutAndValues) {
  const ReductionCase cases[] = {
      {"all", {2, 3}, {}, Value(None{}), false, {}, {}, {15}},
      {"dim 1", {2, 3}, {}, Value(1), false, {2}, {1}, {3, 12}},
      {"dim 0 keepdim", {2, 3}, {}, Value(0), true, {1, 3}, {3, 1}, {3, 5, 7}},
      {"negative dims list", {2, 3, 4}, {}, Value(ValueList{-1, 0}), false, {3}, {1}, {60, 92, 124}},
      {"empty list reduces all", {2, 3}, {}, Value(ValueList{}), true, {1, 1}, {1, 1}, {15}},
      // A (3,2).t() layout (values still 0..5 in logical order): the output is contiguous anyway.
      {"transposed input", {2, 3}, {1, 2}, Value(1), true, {2, 1}, {1, 1}, {3, 12}},
      {"empty dim", {0, 3}, {}, Value(0), false, {3}, {1}, {0, 0, 0}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    Tensor x = makeTensor(DType::Float32, c.sizes, c.strides);
    Tensor out = c.dims.isNone() ? runOp("aten.sum.default", {x})
                                 : runOp("aten.sum.dim_IntList", {x, c.dims, c.keepdim});
    EXPECT_EQ(out.sizes(), c.outSizes);
    EXPECT_EQ(out.strides(), c.outStrides);
    EXPECT_EQ(out.dtype(), DType::Float32);
    EXPECT_EQ(valuesOf(out), c.values);
  }
}

// Integer and bool inputs sum to int64 by default; dtype= converts the input first.
TEST(ReductionOpsTest, SumDtypes) {
  Tensor b = makeTensor(DType::Bool, {4}, {}, {1, 0, 1, 1});
  Tensor s = runOp("aten.sum.default", {b});
  EXPECT_EQ(s.dtype(), DType::Int64);
  EXPECT_EQ(s.atLinear(0), 3);
  Tensor i = makeTensor(DType::Int32, {2}, {}, {2147483647, 1});
  EXPECT_EQ(runOp("aten.sum.default", {i}).atLinear(0), 2147483648.0);  // no int32 overflow
  Tensor f = makeTensor(DType::Float32, {3}, {}, {1.5, 2.5, 3.9});
  Tensor fi = runOp("aten.sum.default", {f}, {{"dtype", DType::Int64}});
  EXPECT_EQ(fi.dtype(), DType::Int64);
  EXPECT_EQ(fi.atLinear(0), 6);  // 1 + 2 + 3: each element truncates before summing
  Tensor d = runOp("aten.sum.dim_IntList", {f, ValueList{0}}, {{"dtype", DType::Float64}});
  EXPECT_EQ(d.dtype(), DType::Float64);
}

// mean divides by the number of reduced elements; the mean of nothing is NaN.
TEST(ReductionOpsTest, MeanValues) {
  Tensor x = makeTensor(DType::Float32, {2, 3});
  EXPECT_EQ(valuesOf(runOp("aten.mean.dim", {x, ValueList{1}})), (std::vector<double>{1, 4}));
  Tensor k = runOp("aten.mean.dim", {x, ValueList{0, 1}, true});
  EXPECT_EQ(k.sizes(), (IntList{1, 1}));
  EXPECT_DOUBLE_EQ(k.atLinear(0), 2.5);
  Tensor e = runOp("aten.mean.dim", {makeTensor(DType::Float32, {0, 2}), ValueList{0}});
  EXPECT_TRUE(std::isnan(e.atLinear(0)));
}

TEST(ReductionOpsTest, ErrorsAreReportedNotThrown) {
  Tensor x = makeTensor(DType::Float32, {2, 3});
  expectOpError("aten.sum.dim_IntList", {x, ValueList{2}},
                "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  expectOpError("aten.sum.dim_IntList", {x, ValueList{1, -1}}, "dim 1 appears multiple times in the list of dims");
  expectOpError("aten.mean.dim", {makeTensor(DType::Int64, {2}), ValueList{0}},
                "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
                "Got: Long");
}

}  // namespace
}  // namespace fathom
