// diffGraphs on hand-made pairs: equal graphs; a node renamed but the same op on the same inputs
// (matched, same); a changed op, argument and meta; added and removed nodes; a graph before and
// after cutting it down (what the minifier does): the kept nodes are the same, the rest removed.
#include "engine/graph/GraphDiff.h"

#include <gtest/gtest.h>

#include "engine/graph/GraphBuilder.h"

namespace fathom {
namespace {

// x -> relu -> mul(., 2) -> add(., y); the names and the mul's constant can be chosen.
Graph chain(const std::string& reluName = "relu", double factor = 2.0, const std::string& lastOp = "aten.add.Tensor") {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 8}));
  NodeRef y = b.input("y", fakeTensor(DType::Float32, {4, 8}));
  NodeRef r = b.call("aten.relu.default", {x}, {}, reluName);
  NodeRef m = b.call("aten.mul.Tensor", {r, factor}, {}, "mul");
  NodeRef s = b.call(lastOp, {m, y}, {}, "last");
  b.output({s});
  auto g = b.finish();
  EXPECT_TRUE(g.ok()) << g.error().str();
  return std::move(*g);
}

const NodeDiff* find(const GraphDiff& d, const std::string& a, const std::string& b) {
  for (const auto& n : d.nodes)
    if (n.a == a && n.b == b) return &n;
  return nullptr;
}

TEST(GraphDiff, EqualGraphsAreEqual) {
  const GraphDiff d = diffGraphs(chain(), chain());
  EXPECT_TRUE(d.equal());
  EXPECT_EQ(d.summary.same, 6);
}

TEST(GraphDiff, RenamedNodeMatchesByOpAndInputs) {
  const GraphDiff d = diffGraphs(chain("relu"), chain("relu_7"));
  EXPECT_TRUE(d.equal()) << "the renamed relu is the same op on the same input";
  ASSERT_NE(find(d, "relu", "relu_7"), nullptr);
  EXPECT_EQ(find(d, "relu", "relu_7")->state, NodeDiffState::Same);
}

TEST(GraphDiff, ChangedArgumentAndOp) {
  const GraphDiff d = diffGraphs(chain("relu", 2.0), chain("relu", 3.0, "aten.sub.Tensor"));
  EXPECT_FALSE(d.equal());
  EXPECT_EQ(d.summary.changed, 2);
  const NodeDiff* mul = find(d, "mul", "mul");
  ASSERT_NE(mul, nullptr);
  EXPECT_EQ(mul->state, NodeDiffState::Changed);
  ASSERT_EQ(mul->changes.size(), 1u);
  EXPECT_EQ(mul->changes[0], "args: (%relu, 2.0) -> (%relu, 3.0)");
  const NodeDiff* last = find(d, "last", "last");
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(last->changes.at(0), "op: aten.add.Tensor -> aten.sub.Tensor");
}

TEST(GraphDiff, ChangedMeta) {
  Graph b = chain();
  b.mutableNodes()[2].val.as<TensorMeta>().strides = {1, 4};  // the relu's recorded strides
  const GraphDiff d = diffGraphs(chain(), b);
  ASSERT_EQ(d.summary.changed, 1);
  const NodeDiff* relu = find(d, "relu", "relu");
  ASSERT_NE(relu, nullptr);
  EXPECT_NE(relu->changes.at(0).find("meta: fake(f32[4, 8] [8, 1]) -> fake(f32[4, 8] [1, 4])"), std::string::npos) << relu->changes[0];
}

// A cut-down graph (the minifier's kind of result): y and the add are gone, mul is returned.
TEST(GraphDiff, BeforeAndAfterCuttingDown) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 8}));
  NodeRef r = b.call("aten.relu.default", {x}, {}, "relu");
  NodeRef m = b.call("aten.mul.Tensor", {r, 2.0}, {}, "mul");
  b.output({m});
  auto small = b.finish();
  ASSERT_TRUE(small.ok());
  const GraphDiff d = diffGraphs(chain(), *small);
  EXPECT_EQ(d.summary.same, 3);     // x, relu, mul
  EXPECT_EQ(d.summary.removed, 2);  // y, last
  EXPECT_EQ(d.summary.changed, 1);  // the output returns mul now
  EXPECT_EQ(d.summary.added, 0);
  const GraphDiff back = diffGraphs(*small, chain());
  EXPECT_EQ(back.summary.added, 2);
}

}  // namespace
}  // namespace fathom
