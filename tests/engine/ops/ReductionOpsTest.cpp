// Reductions: reduced shapes (keepdim), contiguous outputs whatever the input layout, dtype
// rules (integers sum to int64, mean needs floating), values, and errors. The oracle fixture
// (tests/oracle/cases/reductions.py) sweeps layouts and dtypes; these cover what it cannot:
// large and parallel inputs, symbolic sizes, and messages.
#include <cmath>

#include "engine/core/Parallel.h"

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

// Reducing a size-0 dim has no identity for max-like reductions; the message names the dim.
TEST(ReductionOpsTest, MaxOfNothingIsAnError) {
  Tensor e = makeTensor(DType::Float32, {0, 3});
  expectOpError("aten.amax.default", {e, ValueList{-2}}, "amax(): Expected reduction dim -2 to have non-zero size.");
  expectOpError("aten.amax.default", {e}, "amax(): Expected reduction dim to be specified for input.numel() == 0.");
  expectOpError("aten.max.dim", {e, 0}, "max(): Expected reduction dim 0 to have non-zero size.");
  expectOpError("aten.argmax.default", {e}, "argmax(): Expected reduction dim to be specified");
  // Reducing the other dim is fine: an empty result.
  EXPECT_EQ(runOp("aten.amax.default", {e, ValueList{1}}).sizes(), (IntList{0}));
}

// max.dim returns the first maximum's index along the dim; argmax without a dim the flat index
// in row-major order, even for a transposed input.
TEST(ReductionOpsTest, MaxIndicesAreFirstInLogicalOrder) {
  // Logical [[1, 5], [5, 2], [0, 5]] stored transposed (column-major).
  Tensor x = makeTensor(DType::Float32, {3, 2}, {1, 3}, {1, 5, 5, 2, 0, 5});
  auto r = testing::runBoth("aten.max.dim", {x, 0});
  ASSERT_TRUE(r.kernel.ok());
  const ValueList& out = *r.kernel;
  EXPECT_EQ(valuesOf(out[0].as<Tensor>()), (std::vector<double>{5, 5}));
  EXPECT_EQ(valuesOf(out[1].as<Tensor>()), (std::vector<double>{1, 0}));
  EXPECT_EQ(runOp("aten.argmax.default", {x}).atLinear(0), 1);
}

// NaN wins a max, and the first NaN gives the index (values from PyTorch 1.13). The fixture
// cannot hold NaN inputs yet (the dump reader takes only numbers as inline data).
TEST(ReductionOpsTest, NanWinsMaxAtItsFirstIndex) {
  const double nan = std::nan("");
  Tensor x = makeTensor(DType::Float32, {3, 4}, {}, {1, nan, 3, nan, 2, 1, nan, 7, 1, 5, 5, 2});
  const auto amax = valuesOf(runOp("aten.amax.default", {x, ValueList{1}}));
  EXPECT_TRUE(std::isnan(amax[0]) && std::isnan(amax[1]));
  EXPECT_EQ(amax[2], 5);
  auto r = testing::runBoth("aten.max.dim", {x, 1});
  ASSERT_TRUE(r.kernel.ok());
  EXPECT_EQ(valuesOf((*r.kernel)[1].as<Tensor>()), (std::vector<double>{1, 2, 1}));
  EXPECT_EQ(valuesOf(runOp("aten.argmax.default", {x, 1})), (std::vector<double>{1, 2, 1}));
  EXPECT_EQ(runOp("aten.argmax.default", {x}).atLinear(0), 1);
}

// Large inputs split their groups over parallelFor chunks; results are those of a serial run.
TEST(ReductionOpsTest, ParallelGroupsMatchSerial) {
  std::vector<double> v(512 * 300);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>((i * 7919) % 1000) / 8;
  Tensor x = makeTensor(DType::Float32, {512, 300}, {}, v);
  const int threads = numThreads();
  setNumThreads(1);
  const auto serialMax = valuesOf(runOp("aten.amax.default", {x, ValueList{1}}));
  const auto serialVar = valuesOf(runOp("aten.var.correction", {x, ValueList{0}}, {{"correction", 1}}));
  const auto serialCum = valuesOf(runOp("aten.cumsum.default", {x, 0}));
  setNumThreads(std::max(threads, 2));
  EXPECT_EQ(valuesOf(runOp("aten.amax.default", {x, ValueList{1}})), serialMax);
  EXPECT_EQ(valuesOf(runOp("aten.var.correction", {x, ValueList{0}}, {{"correction", 1}})), serialVar);
  EXPECT_EQ(valuesOf(runOp("aten.cumsum.default", {x, 0})), serialCum);
  setNumThreads(threads);
}

// var divides by max(N - correction, 0): a zero divisor gives inf (or nan for 0 / 0).
TEST(ReductionOpsTest, VarCorrection) {
  Tensor x = makeTensor(DType::Float64, {4}, {}, {1, 2, 3, 4});
  EXPECT_DOUBLE_EQ(runOp("aten.var.correction", {x, None{}}).atLinear(0), 5.0 / 3);  // correction defaults to 1
  EXPECT_DOUBLE_EQ(runOp("aten.var.correction", {x, None{}}, {{"correction", 0}}).atLinear(0), 1.25);
  EXPECT_TRUE(std::isinf(runOp("aten.var.correction", {x, None{}}, {{"correction", 4}}).atLinear(0)));
  expectOpError("aten.var.correction", {makeTensor(DType::Int32, {4}), None{}},
                "std and var only support floating point and complex dtypes");
}

// cumsum accumulates float32 in double (ATen's acc_type), rounding each partial sum.
TEST(ReductionOpsTest, CumsumAccumulatesInDouble) {
  std::vector<double> v(4097, 1.0);
  v[0] = 16777216.0;  // 2^24: float32 alone could not count past it
  Tensor out = runOp("aten.cumsum.default", {makeTensor(DType::Float32, {4097}, {}, v), 0});
  EXPECT_EQ(out.atLinear(4096), static_cast<double>(static_cast<float>(16777216.0 + 4096)));
  // No float16 kernel in 1.13: the meta function accepts it (as PyTorch's does), the kernel not.
  auto half = testing::runBoth("aten.cumsum.default", {makeTensor(DType::Float16, {3}), 0});
  EXPECT_TRUE(half.meta.ok());
  ASSERT_FALSE(half.kernel.ok());
  EXPECT_EQ(half.kernel.error().message, "\"cumsum_out_cpu\" not implemented for 'Half'");
}

}  // namespace
}  // namespace fathom
