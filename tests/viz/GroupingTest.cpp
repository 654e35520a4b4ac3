// GroupTree: module-path groups; repeated blocks found without module paths (a traced BERT with
// its paths removed, a PyTorch export, synthetic blocks); sections never over the cap; every node
// in exactly one group; equal groups hash alike.
#include "viz/model/Grouping.h"

#include <gtest/gtest.h>

#include <map>

#include "tests/viz/SyntheticGraphs.h"
#include "tests/viz/VizTestDumps.h"
#include "viz/model/LayoutJob.h"
#include "viz/model/RepeatedBlocks.h"

namespace fathom::viz {
namespace {

// Each node is a child of exactly one group, the one groupOfNode names; no group over the cap.
void expectWellFormed(const GroupTree& t, const GraphModel& m, int32_t cap) {
  std::vector<int> seen(m.size(), 0);
  for (size_t g = 0; g < t.groups().size(); ++g) {
    const Group& grp = t.group(static_cast<int32_t>(g));
    EXPECT_LE(static_cast<int32_t>(grp.children.size()), cap) << t.title(static_cast<int32_t>(g));
    int32_t below = 0;
    for (GroupChild c : grp.children) {
      if (c.isGroup) {
        EXPECT_EQ(t.group(c.index).parent, static_cast<int32_t>(g));
        EXPECT_EQ(t.group(c.index).depth, grp.depth + 1);
        below += t.group(c.index).numNodes;
      } else {
        ++seen[static_cast<size_t>(c.index)];
        EXPECT_EQ(t.groupOfNode(c.index), static_cast<int32_t>(g));
        ++below;
      }
    }
    EXPECT_EQ(below, grp.numNodes);
  }
  for (size_t n = 0; n < seen.size(); ++n) EXPECT_EQ(seen[n], 1) << "node " << n;
  EXPECT_EQ(t.group(t.root()).numNodes, static_cast<int32_t>(m.size()));
}

std::shared_ptr<const Dump> withoutModules(std::shared_ptr<const Dump> dump) {
  auto copy = std::make_shared<Dump>(*dump);
  for (auto& g : copy->graphs)
    for (auto& n : g.graph.mutableNodes()) n.provenance.module.clear();
  return copy;
}

// Module paths make the groups: a 12-layer BERT's forward has "encoder.layer" with 12 layer
// groups that all hash alike, each with attention / intermediate / output.
TEST(GroupingTest, ModulePathGroups) {
  auto dump = testing::aotDump("bert", 12);
  ASSERT_TRUE(dump);
  auto m = GraphModel::build(*dump, "forward");
  ASSERT_TRUE(m.ok());
  const GroupTree t = GroupTree::build(*m);
  expectWellFormed(t, *m, 500);
  std::map<std::string, int32_t> byLabel;
  for (size_t g = 0; g < t.groups().size(); ++g) byLabel[t.group(static_cast<int32_t>(g)).label] = static_cast<int32_t>(g);
  ASSERT_TRUE(byLabel.count("encoder.layer"));
  const Group& layers = t.group(byLabel["encoder.layer"]);
  ASSERT_EQ(layers.children.size(), 12u);
  for (int k = 0; k < 12; ++k) {
    const std::string label = "encoder.layer." + std::to_string(k);
    ASSERT_TRUE(byLabel.count(label)) << label;
    const Group& layer = t.group(byLabel[label]);
    EXPECT_EQ(layer.kind, GroupKind::Module);
    EXPECT_EQ(layer.structuralHash, t.group(byLabel["encoder.layer.0"]).structuralHash) << label;
    EXPECT_TRUE(byLabel.count(label + ".attention"));
  }
  EXPECT_NE(t.group(byLabel["encoder.layer.0"]).structuralHash, t.group(byLabel["encoder.layer.0.attention"]).structuralHash);
  EXPECT_EQ(t.title(byLabel["encoder.layer.3"]), "encoder.layer.3 (" + std::to_string(t.group(byLabel["encoder.layer.3"]).numNodes) + " nodes)");
  // A parameter sits in its module's group.
  const int32_t w = m->find("encoder.layer.3.attention.self.query.weight");
  ASSERT_GE(w, 0);
  EXPECT_TRUE(t.within(t.groupOfNode(w), byLabel["encoder.layer.3"]));
}

// A joint graph splits into forward and backward sides first.
TEST(GroupingTest, JointSplitsIntoSides) {
  auto dump = testing::loadTestDump("tests/data/mlp-aot.fathom.json");
  auto m = GraphModel::build(*dump, "joint");
  ASSERT_TRUE(m.ok());
  const GroupTree t = GroupTree::build(*m);
  expectWellFormed(t, *m, 500);
  int sides = 0;
  for (GroupChild c : t.group(t.root()).children)
    if (c.isGroup && t.group(c.index).kind == GroupKind::Side) ++sides;
  EXPECT_EQ(sides, 2);
  EXPECT_EQ(t.group(t.groupOfNode(m->find("output"))).kind, GroupKind::Root);
}

// Without module paths, the 12 layers of a BERT are found as 12 equal blocks, forward and
// backward (each side has its own period).
TEST(GroupingTest, RepeatedBlocksInBertWithoutModulePaths) {
  auto dump = withoutModules(testing::aotDump("bert", 12));
  auto m = GraphModel::build(*dump, "joint");
  ASSERT_TRUE(m.ok());
  const GroupTree t = GroupTree::build(*m);
  expectWellFormed(t, *m, 500);
  for (GroupChild side : t.group(t.root()).children) {
    if (!side.isGroup) continue;
    std::vector<const Group*> blocks;
    for (GroupChild c : t.group(side.index).children)
      if (c.isGroup && t.group(c.index).kind == GroupKind::Block) blocks.push_back(&t.group(c.index));
    ASSERT_EQ(blocks.size(), 12u) << t.group(side.index).label;
    for (const Group* b : blocks) {
      EXPECT_EQ(b->structuralHash, blocks[0]->structuralHash);
      EXPECT_EQ(b->numNodes, blocks[0]->numNodes);
      EXPECT_EQ(b->repeatCount, 12);
    }
    EXPECT_GT(blocks[0]->numNodes, 40);  // whole layers, not a sub-pattern
  }
}

// Synthetic repeated blocks (40 calls each) without module paths: every block found, period exact.
TEST(GroupingTest, RepeatedBlocksInSyntheticGraph) {
  Dump dump;
  dump.graphs.push_back({"forward", testing::repeatedBlockGraph(30, 40, false)});
  auto m = GraphModel::build(dump, "forward");
  ASSERT_TRUE(m.ok());
  const GroupTree t = GroupTree::build(*m);
  expectWellFormed(t, *m, 500);
  int blocks = 0;
  for (const Group& g : t.groups())
    if (g.kind == GroupKind::Block) {
      ++blocks;
      EXPECT_EQ(g.numNodes, 40);
    }
  EXPECT_EQ(blocks, 30);
}

// findRepeatRun on a plain sequence: period, count, and a phase that cuts no edge.
TEST(GroupingTest, FindRepeatRunPhase) {
  // prologue 5, then 6 x [a b c d e f g h i j], epilogue 3; edges chain within a block only,
  // except the block's first op reads the previous block's last.
  std::vector<int32_t> ops;
  for (int i = 0; i < 5; ++i) ops.push_back(100 + i);
  for (int b = 0; b < 6; ++b)
    for (int i = 0; i < 10; ++i) ops.push_back(i);
  for (int i = 0; i < 3; ++i) ops.push_back(200 + i);
  std::vector<std::vector<int32_t>> inputs(ops.size());
  for (size_t i = 1; i < ops.size(); ++i) inputs[i].push_back(static_cast<int32_t>(i - 1));
  for (int b = 0; b < 6; ++b) {  // a skip edge inside each block: 2 -> 8
    inputs[static_cast<size_t>(5 + b * 10 + 8)].push_back(5 + b * 10 + 2);
  }
  const RepeatRun run = findRepeatRun(ops, inputs);
  EXPECT_EQ(run.period, 10);
  EXPECT_EQ(run.count, 6);
  EXPECT_EQ(run.begin, 5);
}

// Without repeats or module paths: sections of at most maxChildren nodes, nested when needed.
TEST(GroupingTest, SectionsNeverOverTheCap) {
  Dump dump;
  Graph g;
  // A random-ish chain with no period: op names from a counter's digits.
  for (int i = 0; i < 3000; ++i) {
    Node n;
    n.name = "n" + std::to_string(i);
    n.kind = i == 0 ? NodeKind::Placeholder : NodeKind::Call;
    n.target = i == 0 ? "" : "aten.op" + std::to_string((i * 7919) % 1009) + ".default";
    if (i > 0) n.args.push_back(Value(NodeRef{i - 1}));
    g.append(std::move(n));
  }
  dump.graphs.push_back({"forward", std::move(g)});
  auto m = GraphModel::build(dump, "forward");
  ASSERT_TRUE(m.ok());
  for (int32_t cap : {500, 40, 10}) {
    GroupingOptions o;
    o.maxChildren = cap;
    const GroupTree t = GroupTree::build(*m, o);
    expectWellFormed(t, *m, cap);
    int sections = 0;
    for (const Group& grp : t.groups()) sections += grp.kind == GroupKind::Section;
    EXPECT_GE(sections, 3000 / cap) << cap;
  }
}

// A PyTorch export (no module paths, 17-41 nodes) stays flat: no group is needed.
TEST(GroupingTest, SmallExportStaysFlat) {
  auto dump = testing::loadTestDump("tests/data/torch-mlp-aot.fathom.json");
  auto m = GraphModel::build(*dump, "forward");
  ASSERT_TRUE(m.ok());
  const GroupTree t = GroupTree::build(*m);
  expectWellFormed(t, *m, 500);
  EXPECT_EQ(t.groups().size(), 1u);
}


// Children come in an order data flows along: every edge between a group's children goes from
// an earlier child to a later one unless it closes a cycle, so layouts draw it downward. Sorted
// by first node, BERT's "attention" (its parameters open the graph) came before hidden_states,
// which feeds it; every edge into it was drawn upward.
// Edges between children that point back (to an earlier child) without closing a cycle: an
// order could have avoided them. Groups that feed each other both ways need one back edge.
size_t avoidableBackEdges(const GraphModel& model, const GroupTree& tree) {
  size_t avoidable = 0;
  for (size_t g = 0; g < tree.groups().size(); ++g) {
    const auto edges = childEdges(model, tree, static_cast<int32_t>(g));
    std::vector<std::vector<int32_t>> next(tree.group(static_cast<int32_t>(g)).children.size());
    for (const LayoutEdge& e : edges) next[static_cast<size_t>(e.from)].push_back(e.to);
    for (const LayoutEdge& e : edges) {
      if (e.from < e.to) continue;
      std::vector<uint8_t> seen(next.size(), 0);  // is e.from reachable from e.to?
      std::vector<int32_t> stack{e.to};
      bool cycle = false;
      while (!stack.empty() && !cycle) {
        const int32_t v = stack.back();
        stack.pop_back();
        for (int32_t w : next[static_cast<size_t>(v)]) {
          if (w == e.from) cycle = true;
          if (!seen[static_cast<size_t>(w)]) {
            seen[static_cast<size_t>(w)] = 1;
            stack.push_back(w);
          }
        }
      }
      avoidable += cycle ? 0 : 1;
    }
  }
  return avoidable;
}

TEST(GroupingTest, ChildrenFollowTheDataFlow) {
  auto bert = testing::loadTestDump("samples/bert.fathom.json");
  ASSERT_TRUE(bert);
  auto model = GraphModel::build(*bert, "forward");
  ASSERT_TRUE(model.ok());
  const GroupTree tree = GroupTree::build(*model);
  EXPECT_EQ(avoidableBackEdges(*model, tree), 0u);
  // The module group comes after the input that feeds it.
  const Group& root = tree.group(tree.root());
  int attention = -1, hidden = -1;
  for (size_t i = 0; i < root.children.size(); ++i) {
    const GroupChild c = root.children[i];
    if (c.isGroup && tree.group(c.index).label == "attention") attention = static_cast<int>(i);
    if (!c.isGroup && model->node(c.index).name == "hidden_states") hidden = static_cast<int>(i);
  }
  ASSERT_GE(attention, 0);
  ASSERT_GE(hidden, 0);
  EXPECT_LT(hidden, attention);

  // A whole AOT training step, joint and both partitions.
  auto aot = testing::aotDump("bert", 2);
  ASSERT_TRUE(aot);
  for (const char* graph : {"joint", "forward", "backward"}) {
    SCOPED_TRACE(graph);
    auto m = GraphModel::build(*aot, graph);
    ASSERT_TRUE(m.ok());
    const GroupTree t = GroupTree::build(*m);
    expectWellFormed(t, *m, 500);  // breaking cycles loses or repeats no child
    EXPECT_EQ(avoidableBackEdges(*m, t), 0u);
  }
}

}  // namespace
}  // namespace fathom::viz
