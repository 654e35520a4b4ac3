// Pointwise ops: output layout per TensorIterator's rules, type promotion, values, errors, and
// guards recorded by the meta function on symbolic sizes.
#include <cmath>
#include <limits>

#include "engine/core/Error.h"
#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runOp;
using testing::valuesOf;

struct LayoutCase {
  const char* what;
  IntList aSizes, aStrides, bSizes, bStrides;
  IntList outSizes, outStrides;
};

// Expected strides derived by hand from TensorIterator (fast setup, else reorder_dimensions +
// allocate); the comment on each row says which rule decides.
const LayoutCase kLayoutCases[] = {
    // All contiguous, same shape: fast setup, contiguous.
    {"contiguous", {3, 4}, {4, 1}, {3, 4}, {4, 1}, {3, 4}, {4, 1}},
    // a = (4,3).t(): dense, strides differ from b's -> general path; a (first input) orders the
    // dims (stride 3 > 1 -> swap), so the output is laid out like a: strides (1, 3).
    {"transposed first", {3, 4}, {1, 3}, {3, 4}, {4, 1}, {3, 4}, {1, 3}},
    // b first now: its strides say row-major, so the output is contiguous.
    {"transposed second", {3, 4}, {4, 1}, {3, 4}, {1, 3}, {3, 4}, {4, 1}},
    // Both transposed the same way: fast setup "non-overlapping and dense" copies the strides.
    {"both transposed", {3, 4}, {1, 3}, {3, 4}, {1, 3}, {3, 4}, {1, 3}},
    // Outer-product broadcast: every comparison has a 0 stride, nothing swaps -> contiguous.
    {"outer broadcast", {3, 1}, {1, 1}, {1, 4}, {4, 1}, {3, 4}, {4, 1}},
    // x.t() + bias: the bias abstains (stride 0 on dim 0), x orders the dims -> (1, 3).
    {"transposed plus bias", {3, 4}, {1, 3}, {4}, {1}, {3, 4}, {1, 3}},
    // Expanded input (stride 0, not dense) beside a contiguous one: general path, b decides.
    {"expanded first", {3, 4}, {0, 1}, {3, 4}, {4, 1}, {3, 4}, {4, 1}},
    // Both channels-last (N, C, H, W) = (2, 3, 4, 5): fast setup keeps channels-last.
    {"channels last", {2, 3, 4, 5}, {60, 1, 15, 3}, {2, 3, 4, 5}, {60, 1, 15, 3}, {2, 3, 4, 5}, {60, 1, 15, 3}},
    // 3-d permuted (2,3,4).permute(2,0,1) plus a broadcast row: the output follows a's order.
    {"permuted 3d", {4, 2, 3}, {1, 12, 4}, {3}, {1}, {4, 2, 3}, {1, 12, 4}},
    // Rank broadcast: (2,3) with (4,1,3) -> (4,2,3), contiguous.
    {"rank broadcast", {2, 3}, {3, 1}, {4, 1, 3}, {3, 3, 1}, {4, 2, 3}, {6, 3, 1}},
};

// Each row: add(a, b) layout from the rules above, same from the meta function and the kernel.
TEST(PointwiseOpsTest, AddOutputLayoutFollowsTensorIterator) {
  for (const auto& c : kLayoutCases) {
    SCOPED_TRACE(c.what);
    Tensor a = makeTensor(DType::Float32, c.aSizes, c.aStrides);
    Tensor b = makeTensor(DType::Float32, c.bSizes, c.bStrides);
    Tensor out = runOp("aten.add.Tensor", {a, b});
    EXPECT_EQ(out.sizes(), c.outSizes);
    EXPECT_EQ(out.strides(), c.outStrides);
    EXPECT_EQ(out.storageOffset(), 0);
    // Values do not depend on the layout: out[i, j] = a[i, j] + b[i, j] with broadcasting.
    for (int64_t i = 0; i < out.numel(); ++i) {
      IntList idx(out.dim());
      for (int64_t d = out.dim() - 1, r = i; d >= 0; --d) { idx[d] = r % out.size(d); r /= out.size(d); }
      auto at = [&](const Tensor& t) {
        IntList sub(idx.end() - t.dim(), idx.end());
        for (int64_t d = 0; d < t.dim(); ++d) if (t.size(d) == 1) sub[d] = 0;
        return t.at(sub);
      };
      ASSERT_EQ(out.atLinear(i), at(a) + at(b)) << "element " << i;
    }
  }
}

// A Python scalar is a zero-dim operand: it disables the fast setup but never orders dims.
TEST(PointwiseOpsTest, ScalarOperandKeepsTheTensorsLayout) {
  Tensor a = makeTensor(DType::Float32, {3, 4}, {1, 3});
  Tensor out = runOp("aten.add.Scalar", {a, 2.0});
  EXPECT_EQ(out.strides(), (IntList{1, 3}));
  EXPECT_EQ(out.dtype(), DType::Float32);
  EXPECT_EQ(out.at({2, 1}), a.at({2, 1}) + 2.0);
}

// An input promoted to the common dtype is first copied with preserve_format strides, and the
// copy is what orders the dims: an expanded int64 (0, 1) becomes a contiguous float32
// temporary, which says "row-major" before the transposed float input is asked.
TEST(PointwiseOpsTest, PromotedInputIsSeenThroughItsTemporary) {
  Tensor a = makeTensor(DType::Int64, {3, 4}, {0, 1});
  Tensor b = makeTensor(DType::Float32, {3, 4}, {1, 3});
  Tensor out = runOp("aten.add.Tensor", {a, b});
  EXPECT_EQ(out.dtype(), DType::Float32);
  EXPECT_EQ(out.strides(), (IntList{4, 1}));
}

struct PromotionCase {
  DType a;
  int64_t aDim;  // 0 makes a zero-dim tensor
  Value b;       // a dtype-tagged tensor spec or a Python number
  DType expected;
};

// torch.result_type: dim tensors > zero-dim tensors > Python numbers, unless a lower category
// is floating and the higher one is not.
TEST(PointwiseOpsTest, TypePromotion) {
  auto tensorOf = [](DType t, int64_t dim) {
    return Value(makeTensor(t, dim ? IntList{3} : IntList{}, {}, dim ? std::vector<double>{1, 2, 3}
                                                                     : std::vector<double>{1}));
  };
  const std::vector<PromotionCase> cases = {
      {DType::Int64, 1, tensorOf(DType::Float32, 1), DType::Float32},
      {DType::Int32, 1, Value(2.5), DType::Float32},
      {DType::Int64, 1, Value(int64_t{2}), DType::Int64},
      {DType::Int32, 1, Value(int64_t{2}), DType::Int32},
      {DType::Float16, 1, tensorOf(DType::Float64, 0), DType::Float16},
      {DType::Int32, 1, tensorOf(DType::Int64, 0), DType::Int32},
      {DType::Int32, 1, tensorOf(DType::Float64, 0), DType::Float64},
      {DType::UInt8, 1, tensorOf(DType::Int8, 1), DType::Int16},
      {DType::Bool, 1, tensorOf(DType::Bool, 1), DType::Bool},
      {DType::Bool, 1, Value(true), DType::Bool},
      {DType::Float16, 1, tensorOf(DType::BFloat16, 1), DType::Float32},
      {DType::Int64, 0, tensorOf(DType::Int32, 0), DType::Int64},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(dtypeName(c.a)) + " with " + c.b.kindName());
    const std::string op = c.b.is<Tensor>() ? "aten.mul.Tensor" : "aten.mul.Scalar";
    Tensor out = runOp(op, {tensorOf(c.a, c.aDim), c.b});
    EXPECT_EQ(out.dtype(), c.expected);
  }
  // div promotes integers to the default float dtype.
  Tensor q = runOp("aten.div.Tensor", {makeTensor(DType::Int64, {2}, {}, {7, 1}), makeTensor(DType::Int64, {2}, {}, {2, 4})});
  EXPECT_EQ(q.dtype(), DType::Float32);
  EXPECT_EQ(valuesOf(q), (std::vector<double>{3.5, 0.25}));
}

// Values of the arithmetic ops, alpha included; integers wrap around like PyTorch's.
TEST(PointwiseOpsTest, ArithmeticValues) {
  Tensor a = makeTensor(DType::Float32, {4}, {}, {1, -2, 3.5, 0});
  Tensor b = makeTensor(DType::Float32, {4}, {}, {2, 2, -1, 4});
  EXPECT_EQ(valuesOf(runOp("aten.add.Tensor", {a, b}, {{"alpha", 2.0}})), (std::vector<double>{5, 2, 1.5, 8}));
  EXPECT_EQ(valuesOf(runOp("aten.sub.Tensor", {a, b})), (std::vector<double>{-1, -4, 4.5, -4}));
  EXPECT_EQ(valuesOf(runOp("aten.sub.Scalar", {a, 1.0, 3.0})), (std::vector<double>{-2, -5, 0.5, -3}));
  EXPECT_EQ(valuesOf(runOp("aten.mul.Tensor", {a, b})), (std::vector<double>{2, -4, -3.5, 0}));
  EXPECT_EQ(valuesOf(runOp("aten.div.Scalar", {a, 2.0})), (std::vector<double>{0.5, -1, 1.75, 0}));
  EXPECT_EQ(valuesOf(runOp("aten.neg.default", {a})), (std::vector<double>{-1, 2, -3.5, -0.0}));
  Tensor i = makeTensor(DType::Int32, {2}, {}, {2147483647, -5});
  EXPECT_EQ(valuesOf(runOp("aten.add.Scalar", {i, int64_t{1}})), (std::vector<double>{-2147483648.0, -4}));
  Tensor m = makeTensor(DType::Bool, {3}, {}, {1, 0, 0});
  Tensor n = makeTensor(DType::Bool, {3}, {}, {0, 0, 1});
  EXPECT_EQ(valuesOf(runOp("aten.add.Tensor", {m, n})), (std::vector<double>{1, 0, 1}));
  Tensor h = makeTensor(DType::Float16, {2}, {}, {1.5, 2048});
  EXPECT_EQ(valuesOf(runOp("aten.add.Scalar", {h, 1.0})), (std::vector<double>{2.5, 2048}));  // 2049 rounds to even
}

// relu keeps NaN and -0.0 (clamp_min semantics); threshold_backward masks by self <= threshold.
TEST(PointwiseOpsTest, ActivationValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Tensor x = makeTensor(DType::Float32, {5}, {}, {-1, 0, 2, nan, -0.0});
  auto r = valuesOf(runOp("aten.relu.default", {x}));
  EXPECT_EQ(r[0], 0);
  EXPECT_EQ(r[2], 2);
  EXPECT_TRUE(std::isnan(r[3]));
  EXPECT_TRUE(std::signbit(r[4]));
  Tensor grad = makeTensor(DType::Float32, {5}, {}, {10, 20, 30, 40, 50});
  EXPECT_EQ(valuesOf(runOp("aten.threshold_backward.default", {grad, x, 0.0})), (std::vector<double>{0, 0, 30, 40, 0}));
  Tensor e = runOp("aten.exp.default", {makeTensor(DType::Int64, {2}, {}, {0, 1})});
  EXPECT_EQ(e.dtype(), DType::Float32);
  EXPECT_FLOAT_EQ(static_cast<float>(e.atLinear(1)), std::exp(1.0f));
  EXPECT_FLOAT_EQ(static_cast<float>(runOp("aten.sigmoid.default", {makeTensor(DType::Float32, {1}, {}, {0})}).atLinear(0)), 0.5f);
}

// threshold_backward's TensorIterator sees self before grad_output: self's layout wins.
TEST(PointwiseOpsTest, ThresholdBackwardLayoutFollowsSelf) {
  Tensor grad = makeTensor(DType::Float32, {3, 4}, {4, 1});
  Tensor self = makeTensor(DType::Float32, {3, 4}, {1, 3});
  EXPECT_EQ(runOp("aten.threshold_backward.default", {grad, self, 0.0}).strides(), (IntList{1, 3}));
}

// Bad arguments come back as errors from both the meta function and the kernel.
TEST(PointwiseOpsTest, ErrorsAreReportedNotThrown) {
  Tensor a = makeTensor(DType::Float32, {2, 3});
  Tensor b = makeTensor(DType::Float32, {2, 4});
  expectOpError("aten.add.Tensor", {a, b},
                "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  Tensor m = makeTensor(DType::Bool, {2});
  expectOpError("aten.sub.Tensor", {m, m}, "Subtraction, the `-` operator, with two bool tensors is not supported.");
  expectOpError("aten.neg.default", {m}, "Negation, the `-` operator, on a bool tensor is not supported.");
  expectOpError("aten.relu.default", {m}, "Boolean inputs not supported for relu");
  Tensor i = makeTensor(DType::Int64, {2});
  expectOpError("aten.add.Tensor", {i, i}, "For integral input tensors, argument alpha must not be a floating point number.",
                {{"alpha", 0.5}});
}

// The kernel computes its layout itself: a faulty meta function (as tests inject) changes what
// the meta path reports, never what the kernel produces.
TEST(PointwiseOpsTest, KernelDoesNotUseTheRegisteredMeta) {
  auto& registry = OpRegistry::global();
  OpFn original = registry.replaceMeta("aten.add.Tensor", [](const ValueList&) -> ValueList {
    throwOpError("injected fault");
  });
  Tensor a = makeTensor(DType::Float32, {3, 4}, {1, 3});
  auto r = testing::runBoth("aten.add.Tensor", {a, a});
  registry.replaceMeta("aten.add.Tensor", original);
  EXPECT_FALSE(r.meta.ok());
  ASSERT_TRUE(r.kernel.ok());
  EXPECT_EQ((*r.kernel)[0].as<Tensor>().strides(), (IntList{1, 3}));
}

}  // namespace
}  // namespace fathom
