// diffGraphs on hand-made pairs: equal graphs; a node renamed but the same op on the same inputs
// (matched, same); a changed op, argument and meta; inputs named differently matched through
// their users; added and removed nodes; a graph before and after cutting it down (what the
// minifier does): the kept nodes are the same, the rest removed.
#include "engine/graph/GraphDiff.h"

#include <gtest/gtest.h>

#include "engine/graph/GraphBuilder.h"
#include "tests/engine/TestGraphs.h"

namespace fathom {
namespace {

using testing::diffChain;

const NodeDiff* find(const GraphDiff& d, const std::string& a, const std::string& b) {
  for (const auto& n : d.nodes)
    if (n.a == a && n.b == b) return &n;
  return nullptr;
}

TEST(GraphDiff, EqualGraphsAreEqual) {
  const GraphDiff d = diffGraphs(diffChain(), diffChain());
  EXPECT_TRUE(d.equal());
  EXPECT_EQ(d.summary.same, 6);
}

TEST(GraphDiff, RenamedNodeMatchesByOpAndInputs) {
  const GraphDiff d = diffGraphs(diffChain("relu"), diffChain("relu_7"));
  EXPECT_TRUE(d.equal()) << "the renamed relu is the same op on the same input";
  ASSERT_NE(find(d, "relu", "relu_7"), nullptr);
  EXPECT_EQ(find(d, "relu", "relu_7")->state, NodeDiffState::Same);
  EXPECT_EQ(find(d, "relu", "relu_7")->ia, 2) << "indices of the pair in each graph";
  EXPECT_EQ(find(d, "relu", "relu_7")->ib, 2);
}

TEST(GraphDiff, ChangedArgumentAndOp) {
  const GraphDiff d = diffGraphs(diffChain("relu", 2.0), diffChain("relu", 3.0, "aten.sub.Tensor"));
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
  Graph b = diffChain();
  b.mutableNodes()[2].val.as<TensorMeta>().strides = {1, 4};  // the relu's recorded strides
  const GraphDiff d = diffGraphs(diffChain(), b);
  ASSERT_EQ(d.summary.changed, 1);
  const NodeDiff* relu = find(d, "relu", "relu");
  ASSERT_NE(relu, nullptr);
  EXPECT_NE(relu->changes.at(0).find("meta: fake(f32[4, 8] [8, 1]) -> fake(f32[4, 8] [1, 4])"), std::string::npos) << relu->changes[0];
}

// An export that names its inputs by position and has one more (PyTorch's %primals_N with a
// num_batches_tracked buffer) against a trace naming them by parameter: each input is matched
// through the argument it feeds of the matched call, not by position, and the extra is removed.
TEST(GraphDiff, PlaceholdersMatchThroughTheirUsers) {
  GraphBuilder ga;
  ga.input("primals_1", fakeTensor(DType::Int64, {}));
  NodeRef w = ga.input("primals_2", fakeTensor(DType::Float32, {8, 4}));
  NodeRef x = ga.input("primals_3", fakeTensor(DType::Float32, {2, 8}));
  ga.output({ga.call("aten.mm.default", {x, w}, {}, "mm")});
  auto a = ga.finish();
  GraphBuilder gb;
  NodeRef x2 = gb.input("x", fakeTensor(DType::Float32, {2, 8}));
  NodeRef w2 = gb.input("fc.weight", fakeTensor(DType::Float32, {8, 4}));
  gb.output({gb.call("aten.mm.default", {x2, w2}, {}, "mm")});
  auto b = gb.finish();
  ASSERT_TRUE(a.ok() && b.ok());
  const GraphDiff d = diffGraphs(*a, *b);
  EXPECT_EQ(d.summary.same, 4);  // x, the weight, mm, output
  EXPECT_EQ(d.summary.removed, 1);
  ASSERT_NE(find(d, "primals_2", "fc.weight"), nullptr);
  ASSERT_NE(find(d, "primals_3", "x"), nullptr);
  EXPECT_EQ(find(d, "primals_3", "x")->state, NodeDiffState::Same);
  ASSERT_NE(find(d, "primals_1", ""), nullptr);
  EXPECT_EQ(find(d, "primals_1", "")->state, NodeDiffState::Removed);
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
  const GraphDiff d = diffGraphs(diffChain(), *small);
  EXPECT_EQ(d.summary.same, 3);     // x, relu, mul
  EXPECT_EQ(d.summary.removed, 2);  // y, last
  EXPECT_EQ(d.summary.changed, 1);  // the output returns mul now
  EXPECT_EQ(d.summary.added, 0);
  const GraphDiff back = diffGraphs(*small, diffChain());
  EXPECT_EQ(back.summary.added, 2);
  EXPECT_EQ(find(back, "", "y")->ia, -1) << "an added node has no index on the left";
  EXPECT_EQ(find(back, "", "y")->ib, 1);
}

}  // namespace
}  // namespace fathom
