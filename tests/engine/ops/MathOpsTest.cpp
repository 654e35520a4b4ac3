// Math, activation and comparison ops: argument errors with PyTorch's messages, NaN handling,
// and integer corner cases the fixtures only sample.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/ops/AtenVersion.h"
#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runOp;
using testing::valuesOf;

TEST(MathOpsTest, ArgumentErrors) {
  Tensor f = makeTensor(DType::Float32, {3});
  Tensor i = makeTensor(DType::Int64, {3});
  expectOpError("aten.clamp.default", {f}, "torch.clamp: At least one of 'min' or 'max' must not be None");
  expectOpError("aten.pow.Tensor_Scalar", {i, int64_t{-1}}, "Integers to negative integer powers are not allowed.");
  expectOpError("aten.gelu.default", {f}, "approximate argument must be either none or tanh.",
                {{"approximate", std::string("fast")}});
  expectOpError("aten.where.self", {f, f, f},
                "where expected condition to be a boolean tensor, but got a tensor with dtype Float");
  expectOpError("aten.hardtanh.default", {makeTensor(DType::Bool, {2})}, "Bool inputs not supported for hardtanh");
  expectOpError("aten.tanh_backward.default", {i, i}, "\"tanh_backward_cpu\" not implemented for 'Long'");
  expectOpError("aten.rsub.Scalar", {makeTensor(DType::Bool, {2}), true},
                "Subtraction, the `-` operator, with a bool tensor is not supported.");
}

// maximum/minimum propagate NaN from either side; clamp propagates NaN from the input, ignores
// a NaN bound given alone, and fills with NaN when both bounds are given and one is NaN.
TEST(MathOpsTest, NanHandling) {
  Tensor a = makeTensor(DType::Float32, {3}, {}, {NAN, 1, 2});
  Tensor b = makeTensor(DType::Float32, {3}, {}, {0, NAN, 1});
  auto isNan = [](const std::vector<double>& v) {
    std::vector<bool> out;
    for (double x : v) out.push_back(std::isnan(x));
    return out;
  };
  EXPECT_EQ(isNan(valuesOf(runOp("aten.maximum.default", {a, b}))), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(isNan(valuesOf(runOp("aten.minimum.default", {a, b}))), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(isNan(valuesOf(runOp("aten.clamp.default", {a, 0.0, 1.5}))), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(valuesOf(runOp("aten.clamp.default", {b, NAN, Value()}))[2], 1.0);
  EXPECT_EQ(isNan(valuesOf(runOp("aten.clamp.default", {b, NAN, 1.0}))), (std::vector<bool>{true, true, true}));
}

// Integer pow squares with wrap-around products; abs of the most negative value is itself.
TEST(MathOpsTest, IntegerCorners) {
  Tensor i = makeTensor(DType::Int32, {3}, {}, {2, 3, -3});
  EXPECT_EQ(valuesOf(runOp("aten.pow.Tensor_Scalar", {i, int64_t{31}})),
            (std::vector<double>{-2147483648.0, 1264544299, -1264544299}));
  Tensor j = makeTensor(DType::Int8, {2}, {}, {-128, -5});
  EXPECT_EQ(valuesOf(runOp("aten.abs.default", {j})), (std::vector<double>{-128, 5}));
  // A bool tensor to an int power promotes to int64.
  Tensor b = makeTensor(DType::Bool, {2}, {}, {1, 0});
  EXPECT_EQ(runOp("aten.pow.Tensor_Scalar", {b, int64_t{2}}).dtype(), DType::Int64);
}

// Comparisons convert a Python number into the tensor's dtype first, wrapping like PyTorch.
TEST(MathOpsTest, ComparisonWithWrappedNumber) {
  Tensor u = makeTensor(DType::UInt8, {4}, {}, {0, 1, 2, 3});
  Tensor eq = runOp("aten.eq.Scalar", {u, int64_t{258}});
  EXPECT_EQ(eq.dtype(), DType::Bool);
  EXPECT_EQ(valuesOf(eq), (std::vector<double>{0, 0, 1, 0}));
  EXPECT_EQ(valuesOf(runOp("aten.lt.Scalar", {u, 1.5})), (std::vector<double>{1, 1, 0, 0}));
}

// gelu's two forms and its backward at a few points, against the formulas in double.
// clamp_min (torch.ops.aten.clamp_min.default, PyTorch 1.13 and 2.14 alike unless said): x's
// NaN stays, a NaN bound fills with NaN, a float bound makes an integer input float32; float16
// has a kernel from torch 2.x on, bool in neither (the kernels' names differ).
TEST(MathOpsTest, ClampMin) {
  const Tensor x = makeTensor(DType::Float32, {2, 3}, {}, {-1.5, 0.5, NAN, 2, -0.25, 1});
  std::vector<double> v = valuesOf(runOp("aten.clamp_min.default", {x, 0.25}));
  EXPECT_EQ(v[0], 0.25);
  EXPECT_TRUE(std::isnan(v[2]));
  EXPECT_EQ(v[4], 0.25);
  for (double e : valuesOf(runOp("aten.clamp_min.default", {x, double{NAN}}))) EXPECT_TRUE(std::isnan(e));
  // clamp_min(x.t(), 0.0): the transposed layout stays.
  const Tensor xt = makeTensor(DType::Float32, {3, 2}, {1, 3}, {-1.5, 2, 0.5, -0.25, NAN, 1});
  Tensor t = runOp("aten.clamp_min.default", {xt, 0.0});
  EXPECT_EQ(t.strides(), (IntList{1, 3}));
  EXPECT_EQ(valuesOf(t)[3], 0.0);
  Tensor f = runOp("aten.clamp_min.default", {makeTensor(DType::Int64, {3}, {}, {-3, 0, 5}), 0.5});
  EXPECT_EQ(f.dtype(), DType::Float32);
  EXPECT_EQ(valuesOf(f), (std::vector<double>{0.5, 0.5, 5}));
  expectOpError("aten.clamp_min.default", {makeTensor(DType::Int8, {3}), int64_t{300}},
                "value cannot be converted to type int8_t without overflow");
  const Tensor h = makeTensor(DType::Float16, {2, 3}, {}, {-1.5, 0.5, NAN, 2, -0.25, 1});
  expectOpError("aten.clamp_min.default", {h, 0.1}, "\"clamp_min_cpu\" not implemented for 'Half'");
  ScopedAtenVersion torch2({2, 14});
  v = valuesOf(runOp("aten.clamp_min.default", {h, 0.1}));
  EXPECT_EQ(v[0], 0.0999755859375);
  EXPECT_EQ(v[1], 0.5);
  expectOpError("aten.clamp_min.default", {makeTensor(DType::Bool, {2}), true},
                "\"clamp_min_scalar_cpu\" not implemented for 'Bool'");
}

TEST(MathOpsTest, GeluValues) {
  Tensor x = makeTensor(DType::Float64, {4}, {}, {-3, -0.5, 0.25, 2});
  const auto exact = valuesOf(runOp("aten.gelu.default", {x}));
  const auto tanhForm = valuesOf(runOp("aten.gelu.default", {x}, {{"approximate", std::string("tanh")}}));
  for (size_t k = 0; k < 4; ++k) {
    const double v = x.atLinear(static_cast<int64_t>(k));
    EXPECT_NEAR(exact[k], v * 0.5 * (1 + std::erf(v / std::sqrt(2.0))), 1e-15);
    EXPECT_NEAR(tanhForm[k], 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))), 1e-15);
  }
}

}  // namespace
}  // namespace fathom
