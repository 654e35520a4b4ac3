// NodeIndexByName: Graph's name -> node index table, which reads names from the nodes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/graph/Graph.h"
#include "engine/graph/NodeIndexByName.h"

namespace fathom {
namespace {

struct Names {
  std::vector<std::string> names;
  std::string_view operator()(int32_t i) const { return names[static_cast<size_t>(i)]; }
};

TEST(NodeIndexByName, FindsEveryNameThroughGrowth) {
  Names n;
  NodeIndexByName index;
  EXPECT_EQ(index.find("x", n), -1);  // empty
  for (int i = 0; i < 5000; ++i) {
    n.names.push_back("node_" + std::to_string(i * 7919 % 5003));
    ASSERT_TRUE(index.insert(i, n));
  }
  EXPECT_EQ(index.size(), 5000u);
  for (int i = 0; i < 5000; ++i) ASSERT_EQ(index.find(n.names[static_cast<size_t>(i)], n), i);
  EXPECT_EQ(index.find("node_5003", n), -1);
  EXPECT_EQ(index.find("", n), -1);
}

TEST(NodeIndexByName, RepeatedNameKeepsTheFirst) {
  Names n{{"a", "b", "a"}};
  NodeIndexByName index;
  EXPECT_TRUE(index.insert(0, n));
  EXPECT_TRUE(index.insert(1, n));
  EXPECT_FALSE(index.insert(2, n));
  EXPECT_EQ(index.size(), 2u);
  EXPECT_EQ(index.find("a", n), 0);
}

TEST(NodeIndexByName, ReserveThenInsertKeepsLookups) {
  Names n;
  NodeIndexByName index;
  index.reserve(1000, n);
  for (int i = 0; i < 1000; ++i) {
    n.names.push_back(std::string(static_cast<size_t>(i % 40), 'x') + std::to_string(i));  // long and short
    ASSERT_TRUE(index.insert(i, n));
  }
  index.reserve(10, n);  // smaller than present: no effect
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(index.find(n.names[static_cast<size_t>(i)], n), i);
}

// Graph uses it: find() after the node vector has moved (append past its capacity, copies).
TEST(NodeIndexByName, GraphFindSurvivesMovesAndCopies) {
  Graph g;
  for (int i = 0; i < 300; ++i) {
    Node node;
    node.name = "n" + std::to_string(i);
    node.kind = NodeKind::Placeholder;
    g.append(std::move(node));
  }
  Graph copy = g;
  Graph moved = std::move(copy);
  for (int i = 0; i < 300; ++i) {
    ASSERT_EQ(g.find("n" + std::to_string(i))->index, i);
    ASSERT_EQ(moved.find("n" + std::to_string(i))->index, i);
  }
  EXPECT_FALSE(moved.find("n300"));
}

}  // namespace
}  // namespace fathom
