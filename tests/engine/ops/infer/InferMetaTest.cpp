// Meta inference on real ops used as "custom ops without a meta": each built-in op's OpDef is
// copied with its meta dropped, and the rule inferred from its kernel alone must be the one its
// meta function implements - and agree with that meta on sizes the inference never ran.
#include <gtest/gtest.h>

#include "engine/graph/GraphBuilder.h"
#include "engine/ops/infer/InferMeta.h"
#include "engine/ops/infer/MetaCheck.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom::infer {
namespace {

OpDef withoutMeta(std::string_view name) {
  const OpDef* op = OpRegistry::global().find(name);
  EXPECT_NE(op, nullptr) << name;
  OpDef copy = *op;
  copy.meta = {};
  return copy;
}

Value f32(const SymIntList& sizes) { return fakeTensor(DType::Float32, sizes); }

// The inferred rule's text; also checks that the rule, as a meta function, agrees with the op's
// own declared meta at the sizes and layouts of a declared-meta check.
std::string ruleOf(std::string_view name, const ValueList& example) {
  OpDef op = withoutMeta(name);
  auto m = inferMeta(op, example);
  if (!m.ok()) return "error: " + m.error().str();
  EXPECT_FALSE(m->specialized) << m->str();
  op.meta = m->asMetaFn();
  auto check = checkDeclaredMeta(op, example);
  EXPECT_TRUE(check.ok() && check->agrees()) << (check.ok() ? check->disagreement : check.error().str());
  EXPECT_TRUE(check.ok() && check->runs == 8) << name;  // the example, five fit and two check runs
  return m->ruleText();
}

// Elementwise: the output follows the first input's dimension order (TensorIterator).
TEST(InferMeta, ElementwiseAddIsDenseLikeItsFirstInput) {
  EXPECT_EQ(ruleOf("aten.add.Tensor", {f32({4, 6}), f32({4, 6}), Value(1)}), "out0 = [in0.d0, in0.d1], dense like in0");
}

TEST(InferMeta, UnaryReluKeepsAPermutedInputsOrder) {
  EXPECT_EQ(ruleOf("aten.relu.default", {f32({3, 4, 5})}), "out0 = [in0.d0, in0.d1, in0.d2], dense like in0");
}

// Reductions drop (or keep as 1) the reduced dim; the output is contiguous (resize_reduction).
TEST(InferMeta, SumOverADimDropsIt) {
  ValueList dims{Value(1)};
  EXPECT_EQ(ruleOf("aten.sum.dim_IntList", {f32({4, 6, 5}), Value(dims), Value(false), Value(None{})}),
            "out0 = [in0.d0, in0.d2], contiguous");
}

TEST(InferMeta, SumWithKeepdimKeepsASizeOneDim) {
  ValueList dims{Value(1)};
  EXPECT_EQ(ruleOf("aten.sum.dim_IntList", {f32({4, 6, 5}), Value(dims), Value(true), Value(None{})}),
            "out0 = [in0.d0, 1, in0.d2], contiguous");
}

// Concatenation: a sum of the inputs' cat dims; the other dims are one size variable.
TEST(InferMeta, CatAddsTheCatDims) {
  ValueList tensors{f32({4, 6}), f32({4, 3}), f32({4, 5})};
  EXPECT_EQ(ruleOf("aten.cat.default", {Value(tensors), Value(1)}),
            "out0 = [in0.d0, in0.d1 + in1.d1 + in2.d1], contiguous");
}

// Padding by constants: an input dim plus the pad.
TEST(InferMeta, ConstantPadAddsThePad) {
  ValueList pad{Value(1), Value(2), Value(0), Value(3)};
  EXPECT_EQ(ruleOf("aten.constant_pad_nd.default", {f32({4, 6}), Value(pad), Value(0.0)}),
            "out0 = [in0.d0 + 3, in0.d1 + 3], contiguous");
}

// Views: the input's strides permuted, its storage offset kept (found by the offset runs).
TEST(InferMeta, TransposeIsAPermutedViewOfItsInput) {
  EXPECT_EQ(ruleOf("aten.transpose.int", {f32({4, 6, 5}), Value(0), Value(2)}),
            "out0 = [in0.d2, in0.d1, in0.d0], a view of in0 dims [2, 1, 0]");
  EXPECT_EQ(ruleOf("aten.t.default", {f32({4, 6})}), "out0 = [in0.d1, in0.d0], a view of in0 dims [1, 0]");
}

// Pooling with a 2x2 window and stride 2: floor division, in the format the input suggests
// (channels-last stays channels-last).
TEST(InferMeta, PoolingHalvesTheSpatialDims) {
  ValueList two{Value(2), Value(2)};
  EXPECT_EQ(ruleOf("aten.avg_pool2d.default", {f32({2, 3, 8, 6}), Value(two), Value(ValueList{}),
                                                               Value(ValueList{Value(0), Value(0)}), Value(false), Value(true), Value(None{})}),
            "out0 = [in0.d0, in0.d1, in0.d2 // 2, in0.d3 // 2], memory format of in0");
}

}  // namespace
}  // namespace fathom::infer
