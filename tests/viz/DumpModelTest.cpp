// DumpModel: a selection carried across forward, joint and backward stays meaningful - same
// names, the backward uses of a saved value, the forward sources of a backward node.
#include "viz/model/DumpModel.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/viz/VizTestDumps.h"

namespace fathom::viz {
namespace {

bool hasLink(const std::vector<NodeLink>& links, int32_t graph, int32_t node, LinkKind kind) {
  return std::any_of(links.begin(), links.end(),
                     [&](const NodeLink& l) { return l.graph == graph && l.node == node && l.kind == kind; });
}

// A saved forward node maps to the joint node of its name, to the backward placeholder, and to
// the backward nodes that read that placeholder.
TEST(VizDumpModel, SavedForwardNodeMapsAcrossGraphs) {
  auto dm = DumpModel::build(testing::loadTestDump("tests/data/mlp-aot.fathom.json"));
  ASSERT_TRUE(dm.ok()) << dm.error().str();
  const int32_t f = dm->graphIndex("forward"), b = dm->graphIndex("backward"), j = dm->graphIndex("joint");
  ASSERT_TRUE(f >= 0 && b >= 0 && j >= 0);
  const int32_t addmm = dm->graph(f).find("addmm");
  const auto links = dm->counterparts(f, addmm);
  EXPECT_TRUE(hasLink(links, j, dm->graph(j).find("addmm"), LinkKind::SameName));
  const int32_t placeholder = dm->graph(b).find("addmm");
  EXPECT_TRUE(hasLink(links, b, placeholder, LinkKind::SameName));
  ASSERT_FALSE(dm->graph(b).node(placeholder).users.empty());
  for (int32_t u : dm->graph(b).node(placeholder).users) EXPECT_TRUE(hasLink(links, b, u, LinkKind::SavedUse));
  EXPECT_EQ(links.front().kind, LinkKind::SameName);
  // Switching tab keeps the selection on the same-named node.
  EXPECT_EQ(dm->mapSelection(f, {addmm}, b), std::vector<int32_t>{placeholder});
  EXPECT_EQ(dm->mapSelection(f, {addmm}, j), std::vector<int32_t>{dm->graph(j).find("addmm")});
}

// A backward-only node has no forward counterpart by name: it maps to the forward nodes whose
// saved values it reads; to the joint it maps by name.
TEST(VizDumpModel, BackwardNodeMapsToSavedSources) {
  auto dm = DumpModel::build(testing::loadTestDump("tests/data/mlp-aot.fathom.json"));
  ASSERT_TRUE(dm.ok());
  const int32_t f = dm->graphIndex("forward"), b = dm->graphIndex("backward"), j = dm->graphIndex("joint");
  const GraphModel& bwd = dm->graph(b);
  // mm_2 reads the saved input x (the gradient of layers.0.weight).
  int32_t reader = -1;
  for (const NodeInfo& n : bwd.nodes())
    if (dm->graph(f).find(n.name) < 0 && n.kind == NodeKind::Call)
      for (int32_t i : n.inputs)
        if (bwd.node(i).role == PartitionRole::SavedInput) reader = n.index;
  ASSERT_GE(reader, 0);
  const auto mapped = dm->mapSelection(b, {reader}, f);
  ASSERT_FALSE(mapped.empty());
  for (int32_t n : mapped) EXPECT_EQ(dm->graph(f).node(n).role, PartitionRole::SavedForBackward);
  EXPECT_EQ(dm->mapSelection(b, {reader}, j), std::vector<int32_t>{dm->graph(j).find(bwd.node(reader).name)});
}

// On a traced BERT (joint ~500 nodes) every forward node has its joint counterpart, and every
// saved value reaches its backward users.
TEST(VizDumpModel, BertForwardNodesAllInJoint) {
  auto dm = DumpModel::build(testing::aotDump("bert", 2));
  ASSERT_TRUE(dm.ok());
  const int32_t f = dm->graphIndex("forward"), b = dm->graphIndex("backward"), j = dm->graphIndex("joint");
  for (const NodeInfo& n : dm->graph(f).nodes()) {
    if (n.kind == NodeKind::Output) continue;
    const auto links = dm->counterparts(f, n.index);
    EXPECT_TRUE(hasLink(links, j, dm->graph(j).find(n.name), LinkKind::SameName)) << n.name;
    if (n.role == PartitionRole::SavedForBackward) {
      const int32_t p = dm->graph(b).find(n.name);
      ASSERT_GE(p, 0) << n.name;
      EXPECT_EQ(dm->graph(b).node(p).role, PartitionRole::SavedInput);
    }
  }
}

}  // namespace
}  // namespace fathom::viz
