// mm, addmm, bmm: values against hand-computed products for every operand layout GEMM handles
// (row-major, column-major through the transpose flag, strided copies), dtypes, and errors.
#include <cmath>

#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runOp;
using testing::valuesOf;

// Reference product of two row-major logical matrices.
std::vector<double> product(const Tensor& a, const Tensor& b) {
  std::vector<double> out;
  for (int64_t i = 0; i < a.size(0); ++i)
    for (int64_t j = 0; j < b.size(1); ++j) {
      double s = 0;
      for (int64_t k = 0; k < a.size(1); ++k) s += a.at({i, k}) * b.at({k, j});
      out.push_back(s);
    }
  return out;
}

struct MmCase {
  const char* what;
  IntList aSizes, aStrides, bSizes, bStrides;
  int64_t aOffset = 0;
};

// Each row: mm of that operand layout equals the reference product, output contiguous.
TEST(MatmulOpsTest, MmOperandLayouts) {
  const MmCase cases[] = {
      {"row-major", {2, 3}, {}, {3, 4}, {}},
      {"column-major a (a transposed view)", {2, 3}, {1, 2}, {3, 4}, {}},
      {"column-major b", {2, 3}, {}, {3, 4}, {1, 3}},
      {"padded rows (leading dim 5)", {2, 3}, {5, 1}, {3, 4}, {}},
      {"strided columns need a copy", {2, 3}, {6, 2}, {3, 4}, {}},
      {"expanded rows (stride 0) need a copy", {2, 3}, {0, 1}, {3, 4}, {}},
      {"single row with odd stride", {1, 3}, {7, 1}, {3, 2}, {}},
      {"offset operand", {2, 3}, {}, {3, 2}, {}, 4},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    for (DType dt : {DType::Float32, DType::Float64, DType::Int64, DType::Float16}) {
      Tensor a = makeTensor(dt, c.aSizes, c.aStrides, {}, c.aOffset);
      Tensor b = makeTensor(dt, c.bSizes, c.bStrides);
      Tensor out = runOp("aten.mm.default", {a, b});
      EXPECT_EQ(out.dtype(), dt);
      EXPECT_EQ(out.strides(), contiguousStrides(out.sizes()));
      EXPECT_EQ(valuesOf(out), product(a, b));
    }
  }
}

// addmm = beta * broadcast(self) + alpha * mat1 @ mat2; beta = 0 ignores NaN in self.
TEST(MatmulOpsTest, AddmmScalesAndBroadcasts) {
  Tensor bias = makeTensor(DType::Float32, {2}, {}, {10, 20});
  Tensor a = makeTensor(DType::Float32, {3, 4});
  Tensor w = makeTensor(DType::Float32, {2, 4});
  Tensor wt = runOp("aten.t.default", {w});
  Tensor out = runOp("aten.addmm.default", {bias, a, wt}, {{"beta", 2.0}, {"alpha", 0.5}});
  EXPECT_EQ(out.sizes(), (IntList{3, 2}));
  std::vector<double> expected = product(a, wt);
  for (size_t i = 0; i < expected.size(); ++i) expected[i] = 0.5 * expected[i] + 2.0 * (i % 2 ? 20 : 10);
  EXPECT_EQ(valuesOf(out), expected);
  Tensor nan = makeTensor(DType::Float32, {1}, {}, {std::nan("")});
  EXPECT_EQ(valuesOf(runOp("aten.addmm.default", {nan, a, wt}, {{"beta", 0.0}})), product(a, wt));
}

// bmm multiplies batch by batch, including a transposed batch operand.
TEST(MatmulOpsTest, BmmPerBatch) {
  Tensor a = makeTensor(DType::Float32, {2, 2, 3});
  Tensor b = makeTensor(DType::Float32, {2, 3, 2}, {6, 1, 3});
  Tensor out = runOp("aten.bmm.default", {a, b});
  EXPECT_EQ(out.sizes(), (IntList{2, 2, 2}));
  for (int64_t n = 0; n < 2; ++n) {
    Tensor an = runOp("aten.select.int", {a, 0, n}), bn = runOp("aten.select.int", {b, 0, n});
    Tensor on = runOp("aten.select.int", {out, 0, n});
    EXPECT_EQ(valuesOf(on), product(an, bn));
  }
}

// Empty contraction gives zeros (addmm: beta * self).
TEST(MatmulOpsTest, EmptyInnerDimension) {
  Tensor a = makeTensor(DType::Float32, {2, 0});
  Tensor b = makeTensor(DType::Float32, {0, 3});
  EXPECT_EQ(valuesOf(runOp("aten.mm.default", {a, b})), std::vector<double>(6, 0.0));
}

TEST(MatmulOpsTest, ErrorsAreReportedNotThrown) {
  expectOpError("aten.mm.default", {makeTensor(DType::Float32, {2, 3}), makeTensor(DType::Float32, {4, 5})},
                "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  expectOpError("aten.mm.default", {makeTensor(DType::Float32, {3}), makeTensor(DType::Float32, {3, 5})},
                "self must be a matrix");
  expectOpError("aten.mm.default", {makeTensor(DType::Float32, {2, 3}), makeTensor(DType::Float64, {3, 5})},
                "expected mat1 and mat2 to have the same dtype");
  expectOpError("aten.addmm.default",
                {makeTensor(DType::Float32, {3}), makeTensor(DType::Float32, {2, 3}), makeTensor(DType::Float32, {3, 2})},
                "The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 1");
  expectOpError("aten.bmm.default", {makeTensor(DType::Float32, {2, 2, 3}), makeTensor(DType::Float32, {3, 3, 2})},
                "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [3, 3].");
}

}  // namespace
}  // namespace fathom
