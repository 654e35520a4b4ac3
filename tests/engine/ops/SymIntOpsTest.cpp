// Size ops as FX records them (SymIntOps.cpp): torch 2's overload names next to 1.13's, strides,
// numel and offset, and the integer operators on concrete values.
#include <gtest/gtest.h>

#include "engine/graph/GraphBuilder.h"
#include "engine/interp/Interpreter.h"
#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::makeTensor;
using testing::opNamed;

int64_t intResult(const std::string& op, const ValueList& args) {
  auto out = callKernel(opNamed(op), args);
  EXPECT_TRUE(out.ok()) << op << ": " << (out.ok() ? "" : out.error().str());
  return out.ok() ? out->at(0).as<SymInt>().hint() : -1;
}

TEST(SymIntOpsTest, SizesStridesNumelAndOffsetOfAView) {
  const Tensor x = makeTensor(DType::Float32, {3, 4}, {1, 5}, {}, 2);  // a transposed view at offset 2
  EXPECT_EQ(intResult("aten.sym_size.default", {x, int64_t{1}}), 4);
  EXPECT_EQ(intResult("aten.sym_size.int", {x, int64_t{-2}}), 3);  // torch 2's name, negative dims wrap
  EXPECT_EQ(intResult("aten.sym_stride.int", {x, int64_t{1}}), 5);
  EXPECT_EQ(intResult("aten.sym_numel.default", {x}), 12);
  EXPECT_EQ(intResult("aten.sym_storage_offset.default", {x}), 2);
}

TEST(SymIntOpsTest, IntegerOperators) {
  EXPECT_EQ(intResult("operator.mod", {int64_t{17}, int64_t{5}}), 2);
  EXPECT_EQ(intResult("operator.neg", {int64_t{7}}), -7);
  EXPECT_EQ(intResult("operator.floordiv", {int64_t{17}, int64_t{5}}), 3);
  auto zero = callKernel(opNamed("operator.mod"), {int64_t{3}, int64_t{0}});
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error().message, "integer division or modulo by zero");
}

// torch 2.x's n-ary sum (shufflenet_v2's channel concatenation under dynamic=True): concrete
// values add up; over symbols the expression stays symbolic.
TEST(SymIntOpsTest, SymSumAddsAList) {
  const auto list = [](ValueList l) { return ValueList{Value(std::move(l))}; };
  EXPECT_EQ(intResult("torch.sym_sum", list({int64_t{3}, int64_t{4}, int64_t{5}})), 12);
  EXPECT_EQ(intResult("torch.sym_sum", list({})), 0);
  const OpDef& op = opNamed("torch.sym_sum");
  auto bound = bindArguments(op.schema, list({int64_t{2}, int64_t{-1}}), {});
  ASSERT_TRUE(bound.ok()) << bound.error().str();
  auto meta = callMeta(op, metaArgs(*bound));
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(meta->at(0).as<SymInt>().hint(), 1);
}

// A size ratio (torchvision's segmentation heads upsample by in / out under dynamic=True): a
// Python float, which FX passes to mul.Tensor where a tensor goes, as a wrapped number.
TEST(SymIntOpsTest, TrueDivisionGivesAFloatThatElementwiseOpsTake) {
  auto half = callKernel(opNamed("operator.truediv"), {int64_t{7}, int64_t{2}});
  ASSERT_TRUE(half.ok());
  EXPECT_EQ(half->at(0).as<double>(), 3.5);
  auto zero = callKernel(opNamed("operator.truediv"), {int64_t{7}, int64_t{0}});
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error().message, "division by zero");

  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4}));
  NodeRef n = b.call("aten.sym_size.int", {x, int64_t{0}});
  NodeRef ratio = b.call("operator.truediv", {n, int64_t{8}});
  b.output({b.call("aten.mul.Tensor", {x, ratio})});
  auto g = b.finish();
  ASSERT_TRUE(g.ok()) << g.error().str();  // verify() takes the float where a tensor goes
  auto out = Interpreter(*g).run({Value(makeTensor(DType::Float32, {4}, {}, {2, 4, 6, 8}))});
  ASSERT_TRUE(out.ok()) << out.error().str();
  const Tensor& t = out->at(0).as<Tensor>();
  EXPECT_EQ(t.dtype(), DType::Float32);  // a wrapped number does not promote
  EXPECT_EQ(testing::valuesOf(t), (std::vector<double>{1, 2, 3, 4}));
}

}  // namespace
}  // namespace fathom
