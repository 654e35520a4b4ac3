// mm, addmm, bmm, baddbmm: values against hand-computed products for every operand layout GEMM
// handles (row-major, column-major through the transpose flag, strided copies), dtypes, ATen's
// bfloat16 rounding paths, symbolic sizes, and errors.
#include <algorithm>
#include <cmath>
#include <memory>

#include <cblas.h>

#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::OpOutcome;
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

// Enough batches to split over threads (gemmBatched, OpenBLAS single-threaded meanwhile): each
// batch equals its own mm, and OpenBLAS's thread count is restored afterwards.
TEST(MatmulOpsTest, BmmManyBatchesOverThreads) {
  const int blasThreads = openblas_get_num_threads();
  std::vector<double> small;  // exact products and sums
  for (int i = 0; i < 16 * 32 * 16; ++i) small.push_back(i % 7 - 3);
  Tensor a = makeTensor(DType::Float32, {16, 32, 16}, {}, small);
  Tensor b = makeTensor(DType::Float32, {16, 16, 16}, {1, 16, 256}, small);  // batch stride 1: a permuted view
  Tensor out = runOp("aten.bmm.default", {a, b});
  EXPECT_EQ(out.strides(), (IntList{512, 16, 1}));
  for (int64_t n = 0; n < 16; ++n) {
    Tensor an = runOp("aten.select.int", {a, 0, n}), bn = runOp("aten.select.int", {b, 0, n});
    EXPECT_EQ(valuesOf(runOp("aten.select.int", {out, 0, n})), valuesOf(runOp("aten.mm.default", {an, bn})));
  }
  EXPECT_EQ(openblas_get_num_threads(), blasThreads);
}

// Empty contraction gives zeros (addmm: beta * self).
TEST(MatmulOpsTest, EmptyInnerDimension) {
  Tensor a = makeTensor(DType::Float32, {2, 0});
  Tensor b = makeTensor(DType::Float32, {0, 3});
  EXPECT_EQ(valuesOf(runOp("aten.mm.default", {a, b})), std::vector<double>(6, 0.0));
}

// baddbmm = beta * broadcast(self) + alpha * batch1 @ batch2, in batch2's dtype whatever self's
// (self is converted, as ATen's copy_ does); beta = 0 ignores NaN in self.
TEST(MatmulOpsTest, BaddbmmConvertsAndBroadcastsSelf) {
  Tensor self = makeTensor(DType::Float64, {2}, {}, {0.5, -1});
  Tensor a = makeTensor(DType::Float32, {3, 2, 4});
  Tensor b = makeTensor(DType::Float32, {3, 4, 2}, {8, 1, 4});  // each batch column-major
  Tensor out = runOp("aten.baddbmm.default", {self, a, b}, {{"beta", 2.0}, {"alpha", 0.5}});
  EXPECT_EQ(out.dtype(), DType::Float32);
  EXPECT_EQ(out.strides(), (IntList{4, 2, 1}));
  for (int64_t n = 0; n < 3; ++n) {
    Tensor an = runOp("aten.select.int", {a, 0, n}), bn = runOp("aten.select.int", {b, 0, n});
    std::vector<double> expected = product(an, bn);
    for (size_t i = 0; i < expected.size(); ++i) expected[i] = 0.5 * expected[i] + 2.0 * (i % 2 ? -1 : 0.5);
    EXPECT_EQ(valuesOf(runOp("aten.select.int", {out, 0, n})), expected);
  }
  Tensor nan = makeTensor(DType::Float32, {1}, {}, {std::nan("")});
  Tensor ab = runOp("aten.bmm.default", {a, b});
  EXPECT_EQ(valuesOf(runOp("aten.baddbmm.default", {nan, a, b}, {{"beta", 0.0}})), valuesOf(ab));
}

// bfloat16 rounds as ATen 1.13's CPU GEMM does, which depends on the layouts: 1 + 3 * 2^-9 is
// 1 when each step rounds (mat2 row-major), 1 + 2^-7 when a float dot product rounds once (mat2
// a transposed view).
TEST(MatmulOpsTest, Bfloat16RoundingFollowsAtenPath) {
  const double t = std::ldexp(1.0, -9);
  Tensor a = makeTensor(DType::BFloat16, {1, 4}, {}, {1, t, t, t});
  Tensor rowMajor = makeTensor(DType::BFloat16, {4, 2}, {}, std::vector<double>(8, 1.0));
  Tensor colMajor = makeTensor(DType::BFloat16, {4, 2}, {1, 4}, std::vector<double>(8, 1.0));
  EXPECT_EQ(valuesOf(runOp("aten.mm.default", {a, rowMajor})), (std::vector<double>{1, 1}));
  const double up = 1 + std::ldexp(1.0, -7);
  EXPECT_EQ(valuesOf(runOp("aten.mm.default", {a, colMajor})), (std::vector<double>{up, up}));
}

// A symbolic size decides through a guard with a reason, and the output keeps the symbol.
class FixedNode : public SymNodeImpl {
 public:
  FixedNode(std::string text, int64_t hint, std::vector<std::string>* reasons)
      : text_(std::move(text)), hint_(hint), reasons_(reasons) {}
  int64_t hint() const override { return hint_; }
  std::string str() const override { return text_; }
  SymInt apply(SymOp, const SymInt&, bool) const override { return SymInt(int64_t{0}); }
  bool decide(SymRel rel, const SymInt& other, std::string_view reason) const override {
    reasons_->emplace_back(reason);
    return rel == SymRel::Eq ? hint_ == other.hint() : false;
  }

 private:
  std::string text_;
  int64_t hint_;
  std::vector<std::string>* reasons_;
};

TEST(MatmulOpsTest, SymbolicSizesKeepTheirSymbols) {
  std::vector<std::string> reasons;
  const SymInt s0(std::make_shared<FixedNode>("s0", 5, &reasons));
  TensorMeta a, b;
  a.sizes = {s0, 3};
  a.strides = {3, 1};
  b.sizes = {3, s0};
  b.strides = {1, 3};
  auto out = callMeta(testing::opNamed("aten.mm.default"), {a, b});
  ASSERT_TRUE(out.ok()) << out.error().str();
  const TensorMeta& m = (*out)[0].as<TensorMeta>();
  EXPECT_EQ(m.sizes[0].str(), "s0");
  EXPECT_EQ(m.sizes[1].str(), "s0");
  a.sizes = {2, s0};
  b.sizes = {s0, 4};
  ASSERT_TRUE(callMeta(testing::opNamed("aten.mm.default"), {a, b}).ok());
  EXPECT_NE(std::find(reasons.begin(), reasons.end(), "mm: inner dimensions match"), reasons.end());
}

TEST(MatmulOpsTest, ErrorsAreReportedNotThrown) {
  const auto f32 = [](IntList sizes) { return makeTensor(DType::Float32, sizes); };
  const auto f64 = [](IntList sizes) { return makeTensor(DType::Float64, sizes); };
  expectOpError("aten.mm.default", {f32({2, 3}), f32({4, 5})}, "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  expectOpError("aten.mm.default", {f32({3}), f32({3, 5})}, "self must be a matrix");
  expectOpError("aten.mm.default", {f32({2, 3}), f64({3, 5})}, "expected scalar type Float but found Double");
  expectOpError("aten.addmm.default", {f32({3}), f32({2, 3}), f32({3, 2})},
                "The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 1");
  expectOpError("aten.addmm.default", {f64({2}), f32({2, 3}), f32({3, 2})}, "self and mat2 must have the same dtype");
  expectOpError("aten.addmm.default", {f32({2}), f64({2, 3}), f32({3, 2})}, "mat1 and mat2 must have the same dtype");
  expectOpError("aten.bmm.default", {f32({2, 2, 3}), f32({3, 3, 2})},
                "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [3, 3].");
  expectOpError("aten.bmm.default", {f32({2, 2, 3}), f64({2, 3, 2})}, "expected scalar type Float but found Double");
  expectOpError("aten.bmm.default", {f32({2, 3}), f32({2, 3, 2})}, "batch1 must be a 3D tensor");
  // baddbmm expands self before it checks the batches, as ATen does.
  expectOpError("aten.baddbmm.default", {f32({2, 3, 5}), f32({3, 4}), f32({2, 4, 5})},
                "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1");
  expectOpError("aten.baddbmm.default", {f32({5}), f32({4}), f32({2, 4, 5})},
                "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  expectOpError("aten.baddbmm.default", {f32({1}), f32({2, 3, 4}), f32({2, 5, 5})},
                "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 5].");
  const auto b8 = [](IntList sizes) { return makeTensor(DType::Bool, sizes); };
  OpOutcome r = testing::runBoth("aten.baddbmm.default", {b8({2}), b8({1, 2, 2}), b8({1, 2, 2})});
  ASSERT_FALSE(r.kernel.ok());
  EXPECT_EQ(r.kernel.error().message, "\"baddbmm\" not implemented for 'Bool'");
}

}  // namespace
}  // namespace fathom
