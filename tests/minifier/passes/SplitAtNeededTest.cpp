// split-at-needed (on request): a failure that needs two distant ops keeps both, each returned,
// with the chain between them cut away (what nodes-to-inputs alone cannot do: cutting the middle
// drops the first).
#include "tests/minifier/passes/PassTestSupport.h"

namespace fathom {
namespace {

// sigmoid(exp(neg(abs(tanh(x))))) under "calls tanh and sigmoid".
Graph chain() {
  GraphBuilder b;
  NodeRef t = b.call("aten.tanh.default", {testing::inputX(b)});
  NodeRef mid = b.call("aten.exp.default", {b.call("aten.neg.default", {b.call("aten.abs.default", {t})})});
  b.output({b.call("aten.sigmoid.default", {mid})});
  return testing::finished(b);
}

// Run on request in place of bisect-needed (the default split pass), it reaches the same shape.
TEST(SplitAtNeededPassTest, KeepsTwoDistantCulpritsAndCutsTheChainBetween) {
  const Graph g = chain();
  minify::MinifyOptions without;
  std::erase(without.passes, std::string("bisect-needed"));
  auto before = minify::minify(g, testing::seeded(g), minify::Oracle(testing::callsTanhAndSigmoid), without);
  ASSERT_TRUE(before.ok()) << before.error().str();
  EXPECT_EQ(testing::callCount(before->best.graph), 5u) << "without a split pass the whole chain stays";
  minify::MinifyOptions options = without;
  options.passes.push_back("split-at-needed");  // on request; it runs at its place in the table
  auto r = minify::minify(g, testing::seeded(g), minify::Oracle(testing::callsTanhAndSigmoid), options);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_TRUE(testing::callsTanhAndSigmoid(r->best));
  EXPECT_EQ(testing::callCount(r->best.graph), 2u) << r->best.graph.verify().ok();
  const auto& helped = r->stats.passesThatHelped;
  EXPECT_NE(std::find(helped.begin(), helped.end(), std::string("split at needed nodes")), helped.end());
  // Both are returned, read from inputs (merge-inputs may make them one: same dtype and layout).
  EXPECT_GE(r->best.inputs.size(), 1u);
  EXPECT_EQ(r->best.graph.size(), testing::callCount(r->best.graph) + r->best.inputs.size() + 1) << "inputs, the two ops, the output";
}

// Alone, on a single culprit, it ends where nodes-to-inputs does: tanh on an input - and, the
// culprit being returned, by asking the returned node alone once (then verifying it), without
// returning every node and halving.
TEST(SplitAtNeededPassTest, AloneItCutsASingleCulpritsUpstream) {
  GraphBuilder b;
  b.output({b.call("aten.tanh.default", {b.call("aten.neg.default", {b.call("aten.abs.default", {testing::inputX(b)})})})});
  auto r = testing::expectPassAloneShrinks("split-at-needed", b, 5, 3);
  EXPECT_EQ(r.stats.queries, 3u) << "the original, the returned tanh alone, its verification";
}

}  // namespace
}  // namespace fathom
