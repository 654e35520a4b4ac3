// GraphvizLayout and AutoLayout: dot in-process keeps the same invariants as the layered layout;
// concurrent callers are serialized (no crash, same result); the auto choice follows the
// threshold; aside nodes are handled alike; the layout cache is shared safely.
#include "viz/layout/AutoLayout.h"

#include <gtest/gtest.h>

#include <thread>

#include "tests/viz/SyntheticGraphs.h"
#include "viz/layout/LayoutCache.h"

namespace fathom::viz {
namespace {

// dot on a 120-node NN-like DAG: boxes apart, edges down, crossings counted.
TEST(VizGraphvizLayout, KeepsInvariants) {
  if (!graphvizAvailable()) GTEST_SKIP() << "built without Graphviz";
  const LayoutGraph g = testing::nnLikeDag(120, 2);
  auto layout = graphvizLayout(g);
  ASSERT_TRUE(layout.ok()) << layout.error().str();
  EXPECT_EQ(layout->engine, LayoutEngine::Graphviz);
  Status ok = checkLayout(g, *layout);
  EXPECT_TRUE(ok.ok()) << ok.error().str();
  EXPECT_GT(layout->layers, 10);
  EXPECT_EQ(layout->crossings, countPolylineCrossings(g, *layout));
}

// Two threads laying out at once: the mutex serializes them; both get the same layout.
TEST(VizGraphvizLayout, ConcurrentCallsAreSerialized) {
  if (!graphvizAvailable()) GTEST_SKIP() << "built without Graphviz";
  const LayoutGraph g = testing::nnLikeDag(80, 4);
  Result<Layout> a = internalError("not run"), b = internalError("not run");
  std::thread t1([&] { a = graphvizLayout(g); });
  std::thread t2([&] { b = graphvizLayout(g); });
  t1.join();
  t2.join();
  ASSERT_TRUE(a.ok() && b.ok());
  for (size_t i = 0; i < g.nodes.size(); ++i) EXPECT_EQ(a->boxes[i], b->boxes[i]);
}

// Aside nodes go left of the flow with Aside routes, as in the layered layout.
TEST(VizGraphvizLayout, AsideNodes) {
  if (!graphvizAvailable()) GTEST_SKIP() << "built without Graphviz";
  LayoutGraph g = testing::nnLikeDag(30, 1);
  g.nodes.push_back({.width = 80, .height = 40, .aside = true});
  for (int32_t u = 5; u < 30; u += 5) g.edges.push_back({30, u, 1});
  auto layout = graphvizLayout(g);
  ASSERT_TRUE(layout.ok());
  EXPECT_TRUE(checkLayout(g, *layout).ok());
  for (int32_t v = 0; v < 30; ++v) EXPECT_LT(layout->boxes[30].right(), layout->boxes[static_cast<size_t>(v)].x);
  EXPECT_EQ(layout->edges.back().route, EdgeRoute::Aside);
}

// The auto choice: dot up to the threshold (when built in), layered above it.
TEST(VizAutoLayout, ThresholdPicksTheEngine) {
  AutoLayoutOptions o;
  o.graphvizMaxNodes = 50;
  const LayoutEngine small = chooseEngine(testing::nnLikeDag(50, 1), o);
  EXPECT_EQ(small, graphvizAvailable() ? LayoutEngine::Graphviz : LayoutEngine::Layered);
  EXPECT_EQ(chooseEngine(testing::nnLikeDag(51, 1), o), LayoutEngine::Layered);
  o.choice = EngineChoice::Layered;
  EXPECT_EQ(chooseEngine(testing::nnLikeDag(10, 1), o), LayoutEngine::Layered);
  AutoLayoutOptions automatic;
  automatic.graphvizMaxNodes = 50;
  auto layout = autoLayout(testing::nnLikeDag(51, 1), automatic);
  ASSERT_TRUE(layout.ok());
  EXPECT_EQ(layout->engine, LayoutEngine::Layered);
}

// The cache under concurrent inserts and finds; eviction keeps it bounded.
TEST(VizLayoutCache, ConcurrentAndBounded) {
  LayoutCache cache(64);
  auto worker = [&](uint64_t base) {
    for (uint64_t k = 0; k < 200; ++k) {
      cache.insert(base + k, std::make_shared<GroupLayout>());
      (void)cache.find(base + k / 2);
    }
  };
  std::thread t1(worker, 0), t2(worker, 1000);
  t1.join();
  t2.join();
  EXPECT_LE(cache.size(), 64u);
  cache.insert(5000, std::make_shared<GroupLayout>());
  EXPECT_TRUE(cache.find(5000));
  EXPECT_FALSE(cache.find(0));  // the oldest insertion went first
  EXPECT_GT(cache.hits(), 0);
}

}  // namespace
}  // namespace fathom::viz
