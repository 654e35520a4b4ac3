// linalg_vector_norm (engine/ops/families/VectorNormOps.cpp): every ord, dim=None / [] / lists,
// keepdim, contiguous results for permuted and channels-last inputs, dtype=, empty and zero-dim
// inputs, NaN and infinities, where PyTorch 1.13 and 2.x round differently, and the messages.
// Every number is PyTorch's: torch.ops.aten.linalg_vector_norm.default on CPU, 1.13
// (/usr/bin/python3) and 2.14 alike unless a test says otherwise.
#include <cmath>

#include "engine/ops/AtenVersion.h"
#include "tests/engine/HintSymbol.h"

#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runOp;
using testing::valuesOf;

// (arange(12).reshape(3,4) - 5) / 4: -1.25 .. 1.5.
Tensor quarters() {
  std::vector<double> v;
  for (int k = 0; k < 12; ++k) v.push_back((k - 5) / 4.0);
  return makeTensor(DType::Float32, {3, 4}, {}, v);
}

struct OrdCase {
  double ord;
  double all;                      // dim=None
  std::vector<double> perRow;      // dim=[1]
};

// Each row: one ord over every element and over each row of quarters().
TEST(VectorNormOpsTest, EveryOrd) {
  const OrdCase cases[] = {
      {2, 3.020761489868164, {1.837117314338684, 0.6123724579811096, 2.3184046745300293}},
      {1, 9.0, {3.5, 1.0, 4.5}},
      {INFINITY, 1.5, {1.25, 0.5, 1.5}},
      {-INFINITY, 0.0, {0.5, 0.0, 0.75}},
      {0, 11.0, {4.0, 3.0, 4.0}},
      {3, 2.183223009109497, {1.5182944536209106, 0.5386086702346802, 1.8898816108703613}},
      {0.5, 92.2959213256836, {13.624707221984863, 2.9142136573791504, 17.714033126831055}},
      {-1, 0.0, {0.19480520486831665, 0.0, 0.2631578743457794}},  // a zero makes the harmonic sum infinite
  };
  const Tensor x = quarters();
  for (const auto& c : cases) {
    SCOPED_TRACE(c.ord);
    Tensor all = runOp("aten.linalg_vector_norm.default", {x, c.ord});
    EXPECT_EQ(all.sizes(), IntList{});
    EXPECT_FLOAT_EQ(all.atLinear(0), c.all);
    Tensor rows = runOp("aten.linalg_vector_norm.default", {x, c.ord, ValueList{1}});
    EXPECT_EQ(rows.sizes(), (IntList{3}));
    for (size_t i = 0; i < c.perRow.size(); ++i) EXPECT_FLOAT_EQ(rows.atLinear(static_cast<int64_t>(i)), c.perRow[i]);
  }
  // An int ord reads as its value; True as 1.
  EXPECT_EQ(runOp("aten.linalg_vector_norm.default", {x, int64_t{1}}).atLinear(0), 9.0);
  EXPECT_EQ(runOp("aten.linalg_vector_norm.default", {x, true}).atLinear(0), 9.0);
}

struct LayoutCase {
  const char* what;
  Tensor x;
  Value dims;
  bool keepdim;
  IntList outSizes, outStrides;
  std::vector<double> values;
};

// Each row (ord 2): the reduced shape, laid out contiguously whatever the input's strides.
TEST(VectorNormOpsTest, KeepdimAndContiguousResults) {
  // (arange(24).reshape(4,3,2) / 8 - 1).permute(2,1,0): sizes (2,3,4), strides (1,2,6).
  std::vector<double> p;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) p.push_back((k * 6 + j * 2 + i) / 8.0 - 1);
  const Tensor permuted = makeTensor(DType::Float32, {2, 3, 4}, {1, 2, 6}, p);
  std::vector<double> c;
  for (int k = 0; k < 16; ++k) c.push_back(k / 4.0 - 2);
  const Tensor channelsLast = makeTensor(DType::Float32, {1, 4, 2, 2}, {16, 1, 8, 4}, c);
  const LayoutCase cases[] = {
      {"dim=None keepdim", quarters(), Value(None{}), true, {1, 1}, {1, 1}, {3.020761489868164}},
      {"dim=[] keepdim: every dim", quarters(), Value(ValueList{}), true, {1, 1}, {1, 1}, {3.020761489868164}},
      {"dim=[0] keepdim", quarters(), Value(ValueList{0}), true, {1, 4}, {4, 1},
       {1.4790199995040894, 1.4142135381698608, 1.4790199995040894, 1.658312439918518}},
      {"dim=[-1] keepdim", quarters(), Value(ValueList{-1}), true, {3, 1}, {1, 1},
       {1.837117314338684, 0.6123724579811096, 2.3184046745300293}},
      {"dim=[0,1]", quarters(), Value(ValueList{0, 1}), false, {}, {}, {3.020761489868164}},
      {"permuted, dim=[1] keepdim", permuted, Value(ValueList{1}), true, {2, 1, 4}, {4, 4, 1},
       {1.346291184425354, 0.3535533845424652, 1.346291184425354, 2.6220221519470215, 1.1388041973114014,
        0.4145781099796295, 1.5562374591827393, 2.8367013931274414}},
      {"permuted, dim=[0,2] keepdim", permuted, Value(ValueList{0, 2}), true, {1, 3, 1}, {3, 1, 1},
       {2.4366986751556396, 2.6809513568878174, 3.072051525115967}},
      {"permuted, dim=None", permuted, Value(None{}), false, {}, {}, {4.75}},
      {"channels_last, dim=[1] keepdim (F.normalize)", channelsLast, Value(ValueList{1}), true, {1, 1, 2, 2},
       {4, 4, 2, 1}, {2.4494898319244385, 2.291287899017334, 2.2360680103302, 2.291287899017334}},
      {"expanded rows", makeTensor(DType::Float32, {2, 3}, {0, 1}, {1, 2, 2, 1, 2, 2}), Value(ValueList{1}), true,
       {2, 1}, {1, 1}, {3, 3}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    Tensor out = runOp("aten.linalg_vector_norm.default", {c.x, 2.0, c.dims, c.keepdim});
    EXPECT_EQ(out.sizes(), c.outSizes);
    EXPECT_EQ(out.strides(), c.outStrides);
    ASSERT_EQ(out.numel(), static_cast<int64_t>(c.values.size()));
    for (size_t i = 0; i < c.values.size(); ++i) EXPECT_FLOAT_EQ(out.atLinear(static_cast<int64_t>(i)), c.values[i]);
  }
  // The largest |x| of each permuted row: linalg_vector_norm(p, inf, [-1]) -> (2,3) strides (3,1).
  Tensor inf = runOp("aten.linalg_vector_norm.default", {permuted, INFINITY, ValueList{-1}});
  EXPECT_EQ(inf.strides(), (IntList{3, 1}));
  EXPECT_EQ(valuesOf(inf), (std::vector<double>{1.25, 1.5, 1.75, 1.375, 1.625, 1.875}));
}

// Empty inputs: identities where the norm has one; zero-dim inputs; NaN and infinities.
TEST(VectorNormOpsTest, EdgeValues) {
  const Tensor empty = makeTensor(DType::Float32, {0, 3});
  EXPECT_EQ(valuesOf(runOp("aten.linalg_vector_norm.default", {empty, 2.0})), (std::vector<double>{0}));
  EXPECT_EQ(valuesOf(runOp("aten.linalg_vector_norm.default", {empty, -1.0, ValueList{1}})), std::vector<double>{});
  Tensor kept = runOp("aten.linalg_vector_norm.default", {empty, INFINITY, ValueList{1}, true});
  EXPECT_EQ(kept.sizes(), (IntList{0, 1}));
  EXPECT_EQ(valuesOf(runOp("aten.linalg_vector_norm.default", {empty, 3.0, ValueList{0}})), (std::vector<double>{0, 0, 0}));
  const Tensor scalar = makeTensor(DType::Float32, {}, {}, {-2.5});
  EXPECT_EQ(valuesOf(runOp("aten.linalg_vector_norm.default", {scalar, 2.0, ValueList{0}})), (std::vector<double>{2.5}));
  EXPECT_EQ(runOp("aten.linalg_vector_norm.default", {scalar, 1.0, ValueList{-1}, true}).sizes(), IntList{});
  const Tensor nan = makeTensor(DType::Float32, {4}, {}, {1, NAN, 2, 0});
  EXPECT_TRUE(std::isnan(runOp("aten.linalg_vector_norm.default", {nan, INFINITY}).atLinear(0)));
  EXPECT_TRUE(std::isnan(runOp("aten.linalg_vector_norm.default", {nan, -INFINITY}).atLinear(0)));
  EXPECT_EQ(runOp("aten.linalg_vector_norm.default", {nan, 0.0}).atLinear(0), 3.0);  // NaN is nonzero
  const Tensor inf = makeTensor(DType::Float32, {3}, {}, {1, INFINITY, -2});
  EXPECT_EQ(runOp("aten.linalg_vector_norm.default", {inf, -INFINITY}).atLinear(0), 1.0);
  EXPECT_FLOAT_EQ(runOp("aten.linalg_vector_norm.default", {inf, -1.0}).atLinear(0), 0.6666666865348816);
  EXPECT_EQ(runOp("aten.linalg_vector_norm.default", {inf, 0.5}).atLinear(0), INFINITY);
  // The sum of squares overflows float32, as in ATen (no scaling): [3e20, 4e20] -> inf.
  EXPECT_EQ(runOp("aten.linalg_vector_norm.default", {makeTensor(DType::Float32, {2}, {}, {3e20, 4e20}), 2.0}).atLinear(0),
            INFINITY);
}

// dtype= converts the input first; float64 results.
TEST(VectorNormOpsTest, Dtypes) {
  Tensor d = runOp("aten.linalg_vector_norm.default", {quarters(), 2.0, ValueList{1}}, {{"dtype", DType::Float64}});
  EXPECT_EQ(d.dtype(), DType::Float64);
  EXPECT_DOUBLE_EQ(d.atLinear(0), 1.8371173070873836);
  // half(30) x 100 with dtype=float32: 300 (no float16 overflow).
  const Tensor h = makeTensor(DType::Float16, {100}, {}, std::vector<double>(100, 30.0));
  Tensor f = runOp("aten.linalg_vector_norm.default", {h, 2.0}, {{"dtype", DType::Float32}});
  EXPECT_EQ(f.dtype(), DType::Float32);
  EXPECT_EQ(f.atLinear(0), 300.0);
}

// PyTorch 1.13 folds float16 and bfloat16 in their own dtype and reads ord as a float; torch 2.14
// folds in float32 and keeps a float64 ord. Both measured: left 1.13, right 2.14.
TEST(VectorNormOpsTest, Torch113AndTorch2RoundDifferently) {
  const Tensor ones = makeTensor(DType::BFloat16, {300}, {}, std::vector<double>(300, 1.0));
  const Tensor halfs = makeTensor(DType::Float16, {100}, {}, std::vector<double>(100, 30.0));
  const Tensor pairs = makeTensor(DType::BFloat16, {300, 2}, {}, std::vector<double>(600, 1.0));
  const Tensor rows = makeTensor(DType::BFloat16, {2, 300}, {}, std::vector<double>(600, 1.0));
  const Tensor d = makeTensor(DType::Float64, {5}, {}, {0.5, 1.25, 2.0, 3.5, 0.75});
  struct Case {
    const char* what;
    Tensor x;
    double ord;
    Value dims;
    double torch113, torch2;
  };
  const Case cases[] = {
      {"bf16 sum of |x| stalls at 256", ones, 1, Value(None{}), 256, 300},
      {"bf16 count stalls at 256", ones, 0, Value(None{}), 256, 300},
      {"bf16 ord 3", ones, 3, Value(None{}), 6.375, 6.6875},
      {"bf16 ord 2, one contiguous run: float", ones, 2, Value(None{}), 17.375, 17.375},
      {"bf16 ord 2 down columns: bfloat16", pairs, 2, Value(ValueList{0}), 16, 17.375},
      {"bf16 ord 2 along rows: float", rows, 2, Value(ValueList{1}), 17.375, 17.375},
      {"f16 sum of squares overflows", halfs, 2, Value(None{}), INFINITY, 300},
      {"f64 with p = 0.1 (0.1f in 1.13)", d, 0.1, Value(None{}), 12684350.012310835, 12684353.049818333},
      {"f64 with p = 1e39 (inf as a float)", d, 1e39, Value(None{}), 3.5, INFINITY},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    const double v113 = runOp("aten.linalg_vector_norm.default", {c.x, c.ord, c.dims}).atLinear(0);
    ScopedAtenVersion torch2({2, 14});
    const double v2 = runOp("aten.linalg_vector_norm.default", {c.x, c.ord, c.dims}).atLinear(0);
    if (c.x.dtype() == DType::Float64) {
      EXPECT_DOUBLE_EQ(v113, c.torch113);
      EXPECT_DOUBLE_EQ(v2, c.torch2);
    } else {
      EXPECT_EQ(v113, c.torch113);
      EXPECT_EQ(v2, c.torch2);
    }
  }
  // A (300,2).t() view reduced along dim 1 has stride 2: not one contiguous run, so 16 in 1.13.
  const Tensor transposed = makeTensor(DType::BFloat16, {2, 300}, {1, 2}, std::vector<double>(600, 1.0));
  EXPECT_EQ(valuesOf(runOp("aten.linalg_vector_norm.default", {transposed, 2.0, ValueList{1}})),
            (std::vector<double>{16, 16}));
}

TEST(VectorNormOpsTest, ErrorsAreReportedNotThrown) {
  const std::string op = "aten.linalg_vector_norm.default";
  expectOpError(op, {makeTensor(DType::Int64, {2}, {}, {3, 4}), 2.0},
                "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long");
  expectOpError(op, {makeTensor(DType::Bool, {2}), 2.0},
                "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Bool");
  expectOpError(op, {makeTensor(DType::Int64, {2}), 2.0},
                "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long",
                {{"dtype", DType::Float32}});
  const Tensor empty = makeTensor(DType::Float32, {0, 3});
  expectOpError(op, {empty, INFINITY},
                "linalg.vector_norm cannot compute the inf norm on an empty tensor because the operation does not "
                "have an identity");
  expectOpError(op, {empty, int64_t{-1}, ValueList{}},
                "linalg.vector_norm cannot compute the -1 norm on an empty tensor");
  expectOpError(op, {empty, -INFINITY, ValueList{0}},
                "linalg.vector_norm cannot compute the -inf norm on the dimension 0because this dimension is empty "
                "and the operation does not have an identity");
  expectOpError(op, {empty, -2.5, ValueList{-2}}, "linalg.vector_norm cannot compute the -2.5 norm on the dimension -2because");
  const Tensor x = quarters();
  expectOpError(op, {makeTensor(DType::Float64, {3}), 2.0},
                "linalg.vector_norm: the dtype of the input (Double) should be convertible without narrowing to the "
                "specified dtype (Float)",
                {{"dtype", DType::Float32}});
  expectOpError(op, {makeTensor(DType::Float16, {3}), 2.0},
                "linalg.vector_norm: the dtype of the input (Half) should be convertible without narrowing to the "
                "specified dtype (BFloat16)",
                {{"dtype", DType::BFloat16}});
  expectOpError(op, {x, 2.0}, "linalg.vector_norm: dtype should be floating point or complex, but got Long",
                {{"dtype", DType::Int64}});
  expectOpError(op, {x, 2.0, ValueList{1, -1}}, "dim 1 appears multiple times in the list of dims");
  expectOpError(op, {x, 2.0, ValueList{2}}, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

// The meta function keeps a symbolic size, for ords with an identity and without.
TEST(VectorNormOpsTest, SymbolicSizes) {
  const SymInt s0(testing::hintSymbol("s0", 5));
  TensorMeta x;
  x.sizes = {s0, SymInt(8)};
  x.strides = contiguousStrides(x.sizes);
  const OpDef* op = OpRegistry::global().find("aten.linalg_vector_norm.default");
  ASSERT_NE(op, nullptr);
  for (double ord : {2.0, double{INFINITY}}) {
    auto bound = bindArguments(op->schema, {x, ord, ValueList{1}, true}, {});
    ASSERT_TRUE(bound.ok());
    auto out = callMeta(*op, *bound);
    ASSERT_TRUE(out.ok()) << out.error().str();
    const TensorMeta& m = (*out)[0].as<TensorMeta>();
    ASSERT_EQ(m.sizes.size(), 2u);
    EXPECT_EQ(m.sizes[0].str(), "s0");
    EXPECT_EQ(m.sizes[1].str(), "1");
  }
}

}  // namespace
}  // namespace fathom
