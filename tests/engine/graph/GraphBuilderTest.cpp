// The builder records meta from each op's meta function, provenance from the caller, and
// reports the first failure at finish() instead of aborting.
#include "engine/graph/GraphBuilder.h"

#include <gtest/gtest.h>

#include "tests/engine/TestGraphs.h"

namespace fathom {
namespace {

TEST(GraphBuilderTest, RecordsMetaNamesAndProvenance) {
  Graph g = testing::tinyLinearGraph();
  auto addmm = g.find("addmm");
  ASSERT_TRUE(addmm);
  const Node& n = g.node(*addmm);
  const auto& m = n.val.as<TensorMeta>();
  EXPECT_EQ(m.str(), "f32[4, 2] [2, 1]");
  EXPECT_EQ(n.provenance.module, "fc");
  EXPECT_TRUE(n.provenance.source.starts_with("tests/engine/TestGraphs.h:")) << n.provenance.source;
  auto t = g.find("t");
  ASSERT_TRUE(t);
  EXPECT_EQ(g.node(*t).val.as<TensorMeta>().str(), "f32[3, 2] [1, 3]");  // a view: transposed strides
  EXPECT_TRUE(g.find("relu").has_value());
  EXPECT_EQ(g.node(*g.find("relu")).provenance.module, "");  // module scope ended
}

TEST(GraphBuilderTest, NamesAreMadeUnique) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {2}));
  NodeRef r1 = b.call("aten.relu.default", {x});
  NodeRef r2 = b.call("aten.relu.default", {r1});
  b.output({r2});
  auto g = b.finish();
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->node(r1).name, "relu");
  EXPECT_EQ(g->node(r2).name, "relu_1");
}

TEST(GraphBuilderTest, FirstErrorIsReportedAtFinish) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {2, 3}));
  NodeRef y = b.input("y", fakeTensor(DType::Float32, {4, 5}));
  NodeRef bad = b.call("aten.mm.default", {x, y});
  NodeRef after = b.call("aten.relu.default", {bad});  // ignored: the builder already failed
  b.output({after});
  auto g = b.finish();
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.error().message.find("mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"), std::string::npos)
      << g.error().str();
  EXPECT_TRUE(g.error().where.starts_with("%mm (tests/engine/graph/GraphBuilderTest.cpp:")) << g.error().where;
}

TEST(GraphBuilderTest, UnknownOpIsAnError) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {2}));
  b.output({b.call("aten.nope.default", {x})});
  auto g = b.finish();
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().message, "unknown op 'aten.nope.default'");
}

TEST(GraphBuilderTest, MultiOutputOpsAndGetitem) {
  const char* op = testing::twoOutputsOp();
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {3}));
  NodeRef pair = b.call(op, {x});
  NodeRef second = b.getitem(pair, 1);
  b.output({second});
  auto g = b.finish();
  ASSERT_TRUE(g.ok()) << g.error().str();
  EXPECT_EQ(g->node(pair).val.as<ValueList>().size(), 2u);
  EXPECT_EQ(g->node(second).name, "getitem");
  EXPECT_TRUE(g->node(second).val.is<TensorMeta>());
}

}  // namespace
}  // namespace fathom
