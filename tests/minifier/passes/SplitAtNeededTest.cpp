// split-at-needed: a failure that needs two distant ops keeps both, each returned, with the chain
// between them cut away (what nodes-to-inputs alone cannot do: cutting the middle drops the first).
#include "tests/minifier/passes/PassTestSupport.h"

namespace fathom {
namespace {

bool callsBoth(const minify::Candidate& c) {
  return testing::callsOp(c.graph, "aten.tanh.default") && testing::callsOp(c.graph, "aten.sigmoid.default");
}

// sigmoid(exp(neg(abs(tanh(x))))) under "calls tanh and sigmoid".
Graph chain() {
  GraphBuilder b;
  NodeRef t = b.call("aten.tanh.default", {testing::inputX(b)});
  NodeRef mid = b.call("aten.exp.default", {b.call("aten.neg.default", {b.call("aten.abs.default", {t})})});
  b.output({b.call("aten.sigmoid.default", {mid})});
  return testing::finished(b);
}

size_t calls(const Graph& g) {
  size_t n = 0;
  for (const auto& node : g.nodes()) n += node.kind == NodeKind::Call;
  return n;
}

TEST(SplitAtNeededPassTest, KeepsTwoDistantCulpritsAndCutsTheChainBetween) {
  const Graph g = chain();
  minify::MinifyOptions options;
  auto without = options;
  std::erase(without.passes, std::string("split-at-needed"));
  auto before = minify::minify(g, testing::seeded(g), minify::Oracle(callsBoth), without);
  ASSERT_TRUE(before.ok()) << before.error().str();
  EXPECT_EQ(calls(before->best.graph), 5u) << "without the pass the whole chain stays";
  auto r = minify::minify(g, testing::seeded(g), minify::Oracle(callsBoth), options);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_TRUE(callsBoth(r->best));
  EXPECT_EQ(calls(r->best.graph), 2u) << r->best.graph.verify().ok();
  const auto& helped = r->stats.passesThatHelped;
  EXPECT_NE(std::find(helped.begin(), helped.end(), std::string("split at needed nodes")), helped.end());
  // Both are returned, read from inputs (merge-inputs may make them one: same dtype and layout).
  EXPECT_GE(r->best.inputs.size(), 1u);
  EXPECT_EQ(r->best.graph.size(), calls(r->best.graph) + r->best.inputs.size() + 1) << "inputs, the two ops, the output";
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
