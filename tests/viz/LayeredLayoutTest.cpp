// LayeredLayout: the invariants every layout keeps (no overlap, edges point down in a DAG),
// crossings reported and reduced by the sweeps, long edges stubbed, aside nodes kept out of the
// flow, cycles reversed, cancellation.
#include "viz/layout/LayeredLayout.h"

#include <gtest/gtest.h>

#include "tests/viz/SyntheticGraphs.h"

namespace fathom::viz {
namespace {

// Boxes of a NN-like DAG of 2,000 nodes never overlap and every edge points down.
TEST(LayeredLayout, NnLikeDagKeepsInvariants) {
  const LayoutGraph g = testing::nnLikeDag(2000, 7);
  auto layout = layeredLayout(g);
  ASSERT_TRUE(layout.ok()) << layout.error().str();
  Status ok = checkLayout(g, *layout);
  EXPECT_TRUE(ok.ok()) << ok.error().str();
  EXPECT_GT(layout->layers, 10);
  EXPECT_GE(layout->bounds.x, 0);
  for (const Rect& r : layout->boxes) {
    EXPECT_GE(r.x, -1e-9);
    EXPECT_LE(r.right(), layout->bounds.right() + 1e-9);
  }
}

// Two layers wired as a "crossed ladder": the initial order crosses a lot, the sweeps untangle it.
TEST(LayeredLayout, SweepsReduceCrossings) {
  LayoutGraph g;
  const int32_t k = 30;
  g.nodes.resize(2 * k);
  for (int32_t i = 0; i < k; ++i) {  // top i -> bottom (k - 1 - i) and (k - 1 - i + 7) % k
    g.edges.push_back({i, k + (k - 1 - i), 1});
    g.edges.push_back({i, k + (2 * k - 1 - i + 7) % k, 1});
  }
  LayeredOptions none;
  none.sweeps = 0;
  auto before = layeredLayout(g, none);
  auto after = layeredLayout(g);
  ASSERT_TRUE(before.ok() && after.ok());
  EXPECT_GT(before->crossings, 100);
  EXPECT_LT(after->crossings, before->crossings * 6 / 10) << "before " << before->crossings;
  EXPECT_TRUE(checkLayout(g, *after).ok());
}

// On a NN-like DAG too the sweeps lower the crossings, and the reported count agrees in sign with
// the geometric count of the drawn polylines.
TEST(LayeredLayout, SweepsReduceCrossingsOnNnLikeDag) {
  const LayoutGraph g = testing::nnLikeDag(1000, 3);
  LayeredOptions none;
  none.sweeps = 0;
  auto before = layeredLayout(g, none);
  auto after = layeredLayout(g);
  ASSERT_TRUE(before.ok() && after.ok());
  EXPECT_LT(after->crossings, before->crossings);
  EXPECT_LT(countPolylineCrossings(g, *after), countPolylineCrossings(g, *before));
}

// An edge spanning more layers than maxSpan is Stubbed; shorter ones are polylines with bends.
TEST(LayeredLayout, LongEdgesBecomeStubs) {
  LayoutGraph g;
  g.nodes.resize(40);
  for (int32_t i = 0; i + 1 < 40; ++i) g.edges.push_back({i, i + 1, 1});
  g.edges.push_back({0, 39, 1});  // spans 39 layers
  g.edges.push_back({5, 10, 1});  // spans 5
  LayeredOptions o;
  o.maxSpan = 24;
  auto layout = layeredLayout(g, o);
  ASSERT_TRUE(layout.ok());
  EXPECT_EQ(layout->edges[39].route, EdgeRoute::Stubbed);
  EXPECT_TRUE(layout->edges[39].points.empty());
  EXPECT_EQ(layout->edges[40].route, EdgeRoute::Polyline);
  EXPECT_GE(layout->edges[40].points.size(), 6u);
  EXPECT_TRUE(checkLayout(g, *layout).ok());
}

// A node marked aside is not layered: it sits left of every other box, level with its first
// user, and its edges are Aside routes.
TEST(LayeredLayout, AsideNodesStayOutOfTheFlow) {
  LayoutGraph g = testing::nnLikeDag(200, 5);
  const auto param = static_cast<int32_t>(g.nodes.size());
  g.nodes.push_back({.width = 100, .height = 30, .aside = true});
  const size_t firstAsideEdge = g.edges.size();
  for (int32_t u = 50; u < 200; u += 10) g.edges.push_back({param, u, 1});
  auto layout = layeredLayout(g);
  ASSERT_TRUE(layout.ok());
  EXPECT_TRUE(checkLayout(g, *layout).ok());
  const Rect& box = layout->boxes[static_cast<size_t>(param)];
  for (int32_t v = 0; v < 200; ++v) EXPECT_LT(box.right(), layout->boxes[static_cast<size_t>(v)].x);
  EXPECT_NEAR(box.y, layout->boxes[50].y, 1e-6);
  for (size_t j = firstAsideEdge; j < g.edges.size(); ++j) EXPECT_EQ(layout->edges[j].route, EdgeRoute::Aside);
}

// A cycle is laid out with one edge reversed; boxes still do not overlap.
TEST(LayeredLayout, CyclesAreReversed) {
  LayoutGraph g;
  g.nodes.resize(3);
  g.edges = {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}};
  auto layout = layeredLayout(g);
  ASSERT_TRUE(layout.ok());
  EXPECT_FALSE(layout->edges[0].reversed);
  EXPECT_TRUE(layout->edges[2].reversed);
  EXPECT_EQ(layout->edges[2].route, EdgeRoute::Polyline);
  EXPECT_TRUE(checkLayout(g, *layout).ok());
}

// Self-loops and out-of-range ends are Dropped, not fatal; an empty graph lays out to nothing.
TEST(LayeredLayout, BadEdgesAreDropped) {
  LayoutGraph g;
  g.nodes.resize(2);
  g.edges = {{0, 0, 1}, {0, 5, 1}, {-1, 1, 1}, {0, 1, 1}};
  auto layout = layeredLayout(g);
  ASSERT_TRUE(layout.ok());
  for (int j = 0; j < 3; ++j) EXPECT_EQ(layout->edges[static_cast<size_t>(j)].route, EdgeRoute::Dropped);
  EXPECT_EQ(layout->edges[3].route, EdgeRoute::Polyline);
  auto empty = layeredLayout(LayoutGraph{});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->layers, 0);
}

// A set cancel flag stops the layout with the cancellation error.
TEST(LayeredLayout, Cancellable) {
  CancelFlag cancel{true};
  auto layout = layeredLayout(testing::nnLikeDag(500, 1), {}, &cancel);
  ASSERT_FALSE(layout.ok());
  EXPECT_TRUE(isCancelled(layout.error()));
}

// A chain is drawn straight: every box of a path has the same centre x.
TEST(LayeredLayout, ChainsAreStraight) {
  LayoutGraph g;
  g.nodes.resize(10);
  for (int32_t i = 0; i + 1 < 10; ++i) g.edges.push_back({i, i + 1, 1});
  auto layout = layeredLayout(g);
  ASSERT_TRUE(layout.ok());
  for (const Rect& r : layout->boxes) EXPECT_NEAR(r.center().x, layout->boxes[0].center().x, 1e-6);
}

}  // namespace
}  // namespace fathom::viz
