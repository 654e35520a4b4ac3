// Graph::verify reports each broken invariant with the node it concerns.
#include "engine/graph/Graph.h"

#include <gtest/gtest.h>

#include "tests/engine/TestGraphs.h"

namespace fathom {
namespace {

Node placeholder(const std::string& name) {
  Node n;
  n.name = name;
  n.kind = NodeKind::Placeholder;
  n.val = fakeTensor(DType::Float32, {2, 2});
  return n;
}

Node call(const std::string& name, const std::string& op, ValueList args) {
  Node n;
  n.name = name;
  n.target = op;
  n.op = OpRegistry::global().find(op);
  n.args = std::move(args);
  return n;
}

Node output(ValueList values) {
  Node n;
  n.name = "output";
  n.kind = NodeKind::Output;
  n.args = {Value(std::move(values))};
  return n;
}

std::string verifyError(const Graph& g) {
  auto s = g.verify();
  return s.ok() ? "ok" : s.error().str();
}

TEST(GraphTest, BuiltGraphVerifies) {
  Graph g = testing::tinyLinearGraph();
  EXPECT_TRUE(g.verify().ok());
  EXPECT_EQ(g.placeholders().size(), 3u);
  ASSERT_NE(g.outputNode(), nullptr);
}

TEST(GraphTest, UseBeforeDefinition) {
  Graph g;
  g.append(placeholder("x"));
  g.append(call("a", "aten.relu.default", {NodeRef{2}}));
  g.append(call("b", "aten.relu.default", {NodeRef{0}}));
  g.append(output({NodeRef{1}}));
  EXPECT_EQ(verifyError(g), "%a: input %b used before its definition (move %b before %a)");
}

TEST(GraphTest, CycleIsNamed) {
  Graph g;
  g.append(placeholder("x"));
  g.append(call("a", "aten.add.Tensor", {NodeRef{0}, NodeRef{2}}));
  g.append(call("b", "aten.relu.default", {NodeRef{1}}));
  g.append(output({NodeRef{2}}));
  EXPECT_EQ(verifyError(g), "%a: input %b used before its definition (cycle: %a -> %b -> %a)");
}

TEST(GraphTest, StructuralErrors) {
  {
    Graph g;
    g.append(placeholder("x"));
    g.append(placeholder("x"));
    g.append(output({NodeRef{0}}));
    EXPECT_EQ(verifyError(g), "%x: duplicate node name");
  }
  {
    Graph g;
    g.append(placeholder("x"));
    EXPECT_EQ(verifyError(g), "graph has no output node");
  }
  {
    Graph g;
    g.append(placeholder("x"));
    g.append(call("r", "aten.relu.default", {NodeRef{0}}));
    g.append(placeholder("y"));
    g.append(output({NodeRef{1}}));
    EXPECT_EQ(verifyError(g), "%y: placeholder after a call node; inputs come first");
  }
  {
    Graph g;
    g.append(placeholder("x"));
    g.append(call("r", "aten.relu.default", {NodeRef{7}}));
    g.append(output({NodeRef{1}}));
    EXPECT_EQ(verifyError(g), "%r: refers to a node that does not exist");
  }
}

TEST(GraphTest, UnknownOpSuggestsNearNames) {
  Graph g;
  g.append(placeholder("x"));
  g.append(call("r", "aten.relu.defualt", {NodeRef{0}}));
  g.append(output({NodeRef{1}}));
  EXPECT_EQ(verifyError(g), "%r: unknown op 'aten.relu.defualt' (did you mean aten.relu.default, aten.elu.default, aten.gelu.default?)");
}

TEST(GraphTest, ArityAndTypesFollowTheSchema) {
  Graph g;
  g.append(placeholder("x"));
  g.append(call("r", "aten.relu.default", {NodeRef{0}, NodeRef{0}}));
  g.append(output({NodeRef{1}}));
  EXPECT_EQ(verifyError(g), "%r: aten.relu.default takes 1 positional arguments but 2 were given");

  Graph h;
  h.append(placeholder("x"));
  h.append(call("r", "aten.relu.default", {Value("text")}));
  h.append(output({NodeRef{1}}));
  EXPECT_EQ(verifyError(h), "%r: aten.relu.default argument 'self': expected Tensor but got str");
}

TEST(GraphTest, MultiOutputNodeIsNotATensor) {
  const char* op = testing::twoOutputsOp();
  Graph g;
  g.append(placeholder("x"));
  g.append(call("pair", op, {NodeRef{0}}));
  g.append(call("r", "aten.relu.default", {NodeRef{1}}));
  g.append(output({NodeRef{2}}));
  EXPECT_EQ(verifyError(g),
            "%r: argument 'self' must be a tensor but %pair is not one (use getitem to pick an element of a "
            "multi-output op)");
}

TEST(GraphTest, NegativeSizeInMeta) {
  Graph g;
  Node x = placeholder("x");
  x.val.as<TensorMeta>().sizes[0] = -3;
  g.append(std::move(x));
  g.append(output({NodeRef{0}}));
  EXPECT_EQ(verifyError(g), "%x: meta has negative size -3");
}

TEST(GraphTest, UsersAndUniqueNames) {
  Graph g = testing::tinyLinearGraph();
  auto users = g.users();
  auto x = g.find("x");
  ASSERT_TRUE(x);
  ASSERT_EQ(users[x->index].size(), 1u);
  EXPECT_EQ(g.nodes()[users[x->index][0]].target, "aten.addmm.default");
  EXPECT_EQ(g.uniqueName("x"), "x_1");
  EXPECT_EQ(g.uniqueName("fresh"), "fresh");
}

}  // namespace
}  // namespace fathom

namespace fathom {
namespace {

// Regression: uniqueName probed "add", "add_1", ... from the start for every node, so building
// the 100k-node benchmark graph took minutes. It now resumes where the last name of that base
// ended, and still skips names that were added directly.
TEST(GraphTest, UniqueNameIsLinearAndSkipsTakenNames) {
  Graph g;
  for (int i = 0; i < 20000; ++i) {
    Node n;
    n.name = g.uniqueName("add");
    n.kind = NodeKind::Placeholder;
    g.append(std::move(n));
  }
  EXPECT_EQ(g.nodes().back().name, "add_19999");
  Node taken;
  taken.name = "add_20000";
  g.append(std::move(taken));
  EXPECT_EQ(g.uniqueName("add"), "add_20001");
}

}  // namespace
}  // namespace fathom
