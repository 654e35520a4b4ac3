// An inferred meta in use: a graph traced through it on symbolic sizes (the rule's assumptions
// become guards of stage infer-meta), re-checked by the debug interpreter at other real sizes,
// and a kernel that breaks the rule reported as a mismatch naming the rule.
#include <gtest/gtest.h>

#include "engine/graph/GraphBuilder.h"
#include "engine/interp/DebugInterpreter.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/ops/OpOverride.h"
#include "engine/ops/infer/InferMeta.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom::infer {
namespace {

// Installs `name`'s meta inferred from its kernel (the op's own meta set aside) while it lives.
class InferredMetaInstalled {
 public:
  InferredMetaInstalled(std::string name, const ValueList& example) : name_(std::move(name)) {
    const OpDef& op = *OpRegistry::global().find(name_);
    auto m = inferMeta(op, example);
    EXPECT_TRUE(m.ok()) << m.error().str();
    if (m.ok()) original_ = OpRegistry::global().replaceMeta(name_, m->asMetaFn());
  }
  ~InferredMetaInstalled() {
    if (original_) OpRegistry::global().replaceMeta(name_, original_);
  }

 private:
  std::string name_;
  OpFn original_;
};

Value realTensor(const IntList& sizes, uint64_t seed) {
  ExampleInput in;
  in.meta = fakeTensor(DType::Float32, SymIntList(sizes.begin(), sizes.end()));
  in.seed = seed;
  return (*materializeInputs({in}))[0];
}

// cat(x[s0, s1], y[s0, s2], dim 1) traced through the inferred meta, under no duck sizing: the
// rule's "in1.d0 equals in0.d0" is a guard of stage infer-meta at node cat.
Graph traceCat(const std::shared_ptr<sym::ShapeEnv>& env) {
  GraphBuilder b;
  b.setBeforeMeta([&](const Node& n) { env->setContext({"trace", n.name, n.target, "test", "", {}}); });
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {env->createSize(4, "x.size(0)"), env->createSize(6, "x.size(1)")}));
  NodeRef y = b.input("y", fakeTensor(DType::Float32, {env->createSize(4, "y.size(0)"), env->createSize(3, "y.size(1)")}));
  NodeRef c = b.call("aten.cat.default", {Value(ValueList{Value(x), Value(y)}), Value(1)});
  b.output({c});
  auto g = b.finish();
  EXPECT_TRUE(g.ok()) << g.error().str();
  return g.ok() ? std::move(*g) : Graph{};
}

TEST(InferMetaTracing, CatTracesOnSymbolicSizesAndChecksAtOtherSizes) {
  InferredMetaInstalled inferred("aten.cat.default",
                                 {Value(ValueList{fakeTensor(DType::Float32, {4, 6}), fakeTensor(DType::Float32, {4, 3})}), Value(1)});
  auto env = sym::ShapeEnv::create({.duckSizing = false});
  Graph g = traceCat(env);
  const Node& cat = g.node(*g.find("cat"));
  EXPECT_EQ(cat.val.as<TensorMeta>().str(), "f32[s0, s1 + s3] [s1 + s3, 1]");
  ASSERT_EQ(env->guards().size(), 1u);
  EXPECT_EQ(env->guards()[0].expr.str(), "Eq(s2, s0)");
  EXPECT_EQ(env->guards()[0].where.stage, kInferMetaStage);
  EXPECT_EQ(env->guards()[0].where.node, "cat");

  DebugInterpreter d(g);
  ASSERT_TRUE(d.run({realTensor({5, 7}, 1), realTensor({5, 2}, 2)}).ok());
  EXPECT_TRUE(d.mismatches().empty()) << d.mismatches()[0].expected;
  EXPECT_EQ(d.checkedNodes(), 3u);
}

// A kernel whose layout breaks the inferred rule (column-major where the rule says dense like
// in0) is a strides mismatch at the node, naming the rule it broke.
TEST(InferMetaTracing, AKernelThatBreaksTheRuleIsAMismatchNamingIt) {
  InferredMetaInstalled inferred("aten.add.Tensor",
                                 {fakeTensor(DType::Float32, {4, 6}), fakeTensor(DType::Float32, {4, 6}), Value(1)});
  auto env = sym::ShapeEnv::create();
  GraphBuilder b;
  const SymIntList sizes{env->createSize(4, "x.size(0)"), env->createSize(6, "x.size(1)")};
  NodeRef x = b.input("x", fakeTensor(DType::Float32, sizes));
  b.output({b.call("aten.add.Tensor", {x, x})});
  Graph g = *b.finish();
  KernelOverride columnMajor("aten.add.Tensor", [](const ValueList& args, const OpFn& original) {
    const Tensor t = original(args)[0].as<Tensor>();
    Tensor out = *Tensor::emptyStrided(t.sizes(), {1, t.size(0)}, t.dtype());
    for (int64_t i = 0; i < t.numel(); ++i) out.setLinear(i, t.atLinear(i));
    return ValueList{Value(out)};
  });
  DebugInterpreter d(g);
  ASSERT_TRUE(d.run({realTensor({5, 7}, 1)}).ok());
  ASSERT_EQ(d.mismatches().size(), 1u);
  const Mismatch& m = d.mismatches()[0];
  EXPECT_EQ(m.field, "strides");
  EXPECT_TRUE(m.origin);
  EXPECT_EQ(m.actual, "[1, 5]");
  EXPECT_EQ(m.expected, "[s1, 1] = [7, 1] (assumed by infer-meta: out0 = [in0.d0, in0.d1], dense like in0)");
}

}  // namespace
}  // namespace fathom::infer
