// probdd (on request) alone: probabilistic delta debugging in the split shape keeps the needed
// nodes, each returned, and asks fewer queries than split-at-needed's halving, which starts over.
#include "tests/minifier/passes/PassTestSupport.h"

namespace fathom {
namespace {

// The returned node does not fail alone; the culprit behind it is found and kept alone.
TEST(ProbDDPassTest, CutsEverythingButTheCulpritWhenTheOutputIsNotIt) {
  testing::expectSplitPassFindsTheCulpritBehindTheOutput("probdd");
}

// Two needed nodes 40 apart in a 64-op chain: both stay, each returned, the rest cut away - in
// fewer queries than split-at-needed, whose halving asks again, after each chunk that goes, the
// chunks before it that hold a needed node.
TEST(ProbDDPassTest, KeepsTwoDistantNodesInFewerQueriesThanHalving) {
  const Graph g = testing::unaryChain(64, {{10, "aten.tanh.default"}, {50, "aten.sigmoid.default"}});
  const minify::MinifyResult probdd = testing::runAlone("probdd", g);
  const minify::MinifyResult halving = testing::runAlone("split-at-needed", g);
  EXPECT_TRUE(testing::callsTanhAndSigmoid(probdd.best));
  EXPECT_EQ(testing::callCount(probdd.best.graph), 2u);
  EXPECT_EQ(testing::callCount(halving.best.graph), 2u);
  EXPECT_EQ(probdd.stats.invalid, 0u);
  EXPECT_LT(probdd.stats.queries, halving.stats.queries);
  EXPECT_EQ(probdd.stats.flaky, 0u);
}

// It ends 1-minimal in the split shape, though a node found needed may stop being needed: here
// sigmoid is needed only while exp is there. Tried alone early (exp there), it comes out certain;
// exp goes later, and the last round of single nodes takes sigmoid too.
TEST(ProbDDPassTest, EndsOneMinimalWhenANeededNodeStopsBeingNeeded) {
  const Graph g = testing::unaryChain(20, {{0, "aten.tanh.default"}, {1, "aten.exp.default"}, {4, "aten.sigmoid.default"}});
  const minify::Oracle oracle([](const minify::Candidate& c) {
    return testing::callsOp(c.graph, "aten.tanh.default") &&
           (testing::callsOp(c.graph, "aten.sigmoid.default") || !testing::callsOp(c.graph, "aten.exp.default"));
  });
  const minify::MinifyResult r = testing::runAlone("probdd", g, oracle);
  EXPECT_EQ(testing::callCount(r.best.graph), 1u);
  EXPECT_TRUE(testing::callsOp(r.best.graph, "aten.tanh.default"));
}

}  // namespace
}  // namespace fathom
