// bisect-needed alone: binary splitting in the split shape keeps the needed nodes, each returned,
// with what lies between cut away, in about k (log2(n / k) + 1) queries for k needed among n; and
// it is the split pass that runs by default.
#include <cmath>

#include "tests/minifier/passes/PassTestSupport.h"

namespace fathom {
namespace {

// The returned node does not fail alone; the culprit behind it is found and kept alone.
TEST(BisectNeededPassTest, CutsEverythingButTheCulpritWhenTheOutputIsNotIt) {
  testing::expectSplitPassFindsTheCulpritBehindTheOutput("bisect-needed");
}

// Two needed nodes 40 apart in a 64-op chain: both stay, each returned, the rest cut away, within
// the binary splitting bound - per needed node one query for the pool and one per halving, plus
// the original, the returned node alone, the split shape, the verification and a round of the
// two single nodes - and in fewer queries than ProbDD and ddmin's halving (split-at-needed).
TEST(BisectNeededPassTest, KeepsTwoDistantNodesWithinTheBinarySplittingBound) {
  const Graph g = testing::unaryChain(64, {{10, "aten.tanh.default"}, {50, "aten.sigmoid.default"}});
  const minify::MinifyResult r = testing::runAlone("bisect-needed", g);
  EXPECT_TRUE(testing::callsTanhAndSigmoid(r.best));
  EXPECT_EQ(testing::callCount(r.best.graph), 2u);
  EXPECT_EQ(r.stats.invalid, 0u);
  EXPECT_EQ(r.stats.flaky, 0u);
  const size_t k = 2, n = 64;
  EXPECT_LE(r.stats.queries, k * (static_cast<size_t>(std::ceil(std::log2(n))) + 1) + 4 + k);
  EXPECT_LT(r.stats.queries, testing::runAlone("probdd", g).stats.queries);
  EXPECT_LT(r.stats.queries, testing::runAlone("split-at-needed", g).stats.queries);
}

// It ends 1-minimal in the split shape, though a node found needed may stop being needed: here
// sigmoid is needed only while exp is there: halving, earliest half first, finds sigmoid needed
// first (exp, the last node, still there), then tanh, and the pool with exp goes; the last round
// of single nodes takes sigmoid too, in the same run (one improvement: not left to the driver's
// next round, which a pass that is not 1-minimal would need).
TEST(BisectNeededPassTest, EndsOneMinimalWhenANeededNodeStopsBeingNeeded) {
  const Graph g = testing::unaryChain(20, {{0, "aten.sigmoid.default"}, {1, "aten.tanh.default"}, {19, "aten.exp.default"}});
  const minify::Oracle oracle([](const minify::Candidate& c) {
    return testing::callsOp(c.graph, "aten.tanh.default") &&
           (testing::callsOp(c.graph, "aten.sigmoid.default") || !testing::callsOp(c.graph, "aten.exp.default"));
  });
  minify::MinifyOptions options;
  options.passes = {"bisect-needed"};
  size_t improvements = 0;
  options.onImprove = [&](const minify::Candidate&, const minify::MinifyStats&) { ++improvements; };
  auto r = minify::minify(g, testing::seeded(g), oracle, options);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(testing::callCount(r->best.graph), 1u);
  EXPECT_TRUE(testing::callsOp(r->best.graph, "aten.tanh.default"));
  EXPECT_EQ(improvements, 1u);
}

// The default passes reach the two needed nodes of a chain through it.
TEST(BisectNeededPassTest, RunsByDefault) {
  const Graph g = testing::unaryChain(12, {{2, "aten.tanh.default"}, {9, "aten.sigmoid.default"}});
  auto r = minify::minify(g, testing::seeded(g), minify::Oracle(testing::callsTanhAndSigmoid), {});
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(testing::callCount(r->best.graph), 2u);
  const auto& helped = r->stats.passesThatHelped;
  EXPECT_NE(std::find(helped.begin(), helped.end(), std::string("bisect for needed nodes")), helped.end());
}

}  // namespace
}  // namespace fathom
