// Meta inference where no rule can be given: an output whose size depends on the data is refused
// (no meta function at all), and an output no rule fits gets a specialized meta that pins the
// input sizes with guards of stage infer-meta.
#include <gtest/gtest.h>

#include "engine/graph/GraphBuilder.h"
#include "engine/ops/infer/InferMeta.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom::infer {
namespace {

// A custom op from a schema and a kernel on a 1-d or n-d float tensor.
OpDef customOp(const char* schema, std::function<Tensor(const Tensor&)> body) {
  OpDef op;
  op.schema = *parseSchema(schema);
  op.name = op.schema.qualifiedName();
  op.kernel = [body](const ValueList& args) { return ValueList{Value(body(args[0].as<Tensor>()))}; };
  return op;
}

// nonzero's shape of result: the positions of the input's non-zero elements.
Tensor positionsOfNonzero(const Tensor& x) {
  std::vector<int64_t> at;
  for (int64_t i = 0; i < x.numel(); ++i)
    if (x.atLinear(i) != 0) at.push_back(i);
  Tensor out = *Tensor::empty({static_cast<int64_t>(at.size())}, DType::Int64);
  for (size_t i = 0; i < at.size(); ++i) out.setLinear(static_cast<int64_t>(i), static_cast<double>(at[i]));
  return out;
}

// Rows x rows + 1 elements: no shape the fitter tries (a product plus a constant).
Tensor squarePlusOne(const Tensor& x) { return *Tensor::empty({x.size(0) * x.size(0) + 1}, DType::Float32); }

TEST(InferMetaRefusal, AnOutputSizeThatDependsOnTheDataIsRefused) {
  OpDef op = customOp("test::positions(Tensor x) -> Tensor", positionsOfNonzero);
  auto m = inferMeta(op, {fakeTensor(DType::Float32, {4, 6})});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("output 0 dim 0 depends on the data"), std::string::npos) << m.error().str();
  EXPECT_NE(m.error().message.find("in0 [4, 6] contiguous"), std::string::npos) << m.error().str();
  EXPECT_EQ(m.error().where, "test.positions.default");
}

TEST(InferMetaRefusal, NoRuleFitsSoTheMetaSpecializesWithGuards) {
  OpDef op = customOp("test::square_plus_one(Tensor x) -> Tensor", squarePlusOne);
  auto m = inferMeta(op, {fakeTensor(DType::Float32, {4, 6})});
  ASSERT_TRUE(m.ok()) << m.error().str();
  ASSERT_TRUE(m->specialized);
  EXPECT_NE(m->whyNoRule.find("output 0 dim 0 is no simple expression of the input dims"), std::string::npos) << m->whyNoRule;

  // On symbolic sizes, each input size and stride is pinned to its hint by a guard of stage infer-meta.
  auto env = sym::ShapeEnv::create();
  TensorMeta x = fakeTensor(DType::Float32, {env->createSize(5, "x.size(0)"), env->createSize(7, "x.size(1)")});
  auto out = m->asMetaFn()({Value(x)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].as<TensorMeta>().str(), "f32[26] [1]");
  ASSERT_EQ(env->guards().size(), 2u);
  for (const auto& g : env->guards()) EXPECT_EQ(g.where.stage, kInferMetaStage) << g.expr.str();
  EXPECT_EQ(env->guards()[0].expr.str(), "Eq(s0, 5)");
  EXPECT_EQ(env->specializations().size(), 2u);
}

// The rule holds only for calls like the example: another constant argument is refused.
TEST(InferMetaRefusal, ACallWithOtherConstantsIsRefusedByTheMeta) {
  OpDef op = *OpRegistry::global().find("aten.transpose.int");
  auto m = inferMeta(op, {fakeTensor(DType::Float32, {4, 6, 5}), Value(0), Value(2)});
  ASSERT_TRUE(m.ok()) << m.error().str();
  op.meta = m->asMetaFn();
  auto other = callMeta(op, {fakeTensor(DType::Float32, {4, 6, 5}), Value(0), Value(1)});
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().message.find("inferred for argument 2 = 2, this call has 1"), std::string::npos)
      << other.error().message;
}

}  // namespace
}  // namespace fathom::infer
