// Math, activation and comparison ops: argument errors with PyTorch's messages, NaN handling,
// and integer corner cases the fixtures only sample.
#include <gtest/gtest.h>

#include <cmath>

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
