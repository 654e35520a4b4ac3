// FollowExpansion: following a run keeps open only the path to the node it is at, and whatever
// the user opened.
#include <gtest/gtest.h>

#include "tests/viz/VizTestDumps.h"
#include "viz/layout/LayoutCache.h"
#include "viz/model/FollowExpansion.h"
#include "viz/model/Grouping.h"

namespace fathom::viz {
namespace {

// Moving from a node of layer 0 to one of layer 1 closes layer 0 again; a group the user had open
// stays open; following over every node of the graph leaves few groups open.
TEST(FollowExpansion, KeepsOnlyThePathToTheNodeOpen) {
  auto dump = testing::tracedDump("bert", 2);
  ASSERT_TRUE(dump);
  auto model = GraphModel::build(*dump, "forward");
  ASSERT_TRUE(model.ok());
  const GroupTree tree = GroupTree::build(*model);
  ViewState view(*model, tree, std::make_shared<LayoutCache>());
  auto firstIn = [&](const std::string& module) {
    for (const NodeInfo& n : model->nodes())
      if (n.kind == NodeKind::Call && n.module.rfind(module, 0) == 0) return n.index;
    return -1;
  };
  const int32_t a = firstIn("encoder.layer.0.attention"), b = firstIn("encoder.layer.1.output");
  ASSERT_GE(a, 0);
  ASSERT_GE(b, 0);
  const int32_t groupA = tree.groupOfNode(a), groupB = tree.groupOfNode(b);
  ASSERT_NE(groupA, tree.root());
  const int32_t userOpened = tree.groupOfNode(firstIn("embeddings"));
  ASSERT_NE(userOpened, tree.root());
  view.setExpanded(userOpened, true);

  FollowExpansion follow;
  follow.follow(view, a);
  EXPECT_TRUE(view.isVisible(a));
  follow.follow(view, b);
  EXPECT_TRUE(view.isVisible(b));
  EXPECT_FALSE(view.isExpanded(groupA)) << "layer 0's group closes when the run leaves it";
  EXPECT_TRUE(view.isExpanded(groupB));
  EXPECT_TRUE(view.isExpanded(userOpened)) << "the user's group stays open";

  size_t most = 0;
  for (const NodeInfo& n : model->nodes()) {
    follow.follow(view, n.index);
    most = std::max(most, follow.opened().size());
  }
  size_t expanded = 0;
  for (size_t g = 0; g < tree.groups().size(); ++g) expanded += view.isExpanded(static_cast<int32_t>(g)) ? 1 : 0;
  EXPECT_LE(expanded, most + 2) << "the root, the user's group and the path to the last node";
}

}  // namespace
}  // namespace fathom::viz
