// The minifier's core: tiny failures with asserted final sizes (issue 8's test plan, in-process).
#include <gtest/gtest.h>

#include <cstdio>
#include <set>

#include "engine/core/Error.h"
#include "engine/graph/GraphBuilder.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"
#include "engine/ops/OpOverride.h"
#include "minifier/Minify.h"
#include "tests/minifier/MinifyTestSupport.h"

namespace fathom {
namespace {

// A chain of `n` pointwise nodes over x (alternating neg / relu / mul by 1), with the culprit
// op at position `at`, and a few side outputs so removing outputs matters too.
Graph chain(int n, const std::set<int>& culprits) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 3}));
  NodeRef h = x;
  ValueList outs;
  for (int i = 0; i < n; ++i) {
    const char* op = culprits.count(i) ? "aten.tanh.default" : (i % 2 ? "aten.neg.default" : "aten.abs.default");
    h = b.call(op, {h});
    if (i % 100 == 50) outs.push_back(h);
  }
  outs.push_back(h);
  b.output(outs);
  return testing::finished(b);
}

using testing::seeded;

// The oracle: running the candidate throws in the (miscompiled) tanh kernel.
bool throwsInTanh(const minify::Candidate& c) {
  auto t = materializeInputs(c.inputs);
  if (!t.ok()) return false;
  auto out = Interpreter(c.graph).run(std::move(*t));
  return !out.ok() && out.error().message.find("miscompiled tanh") != std::string::npos;
}

size_t callsOf(const Graph& g, std::string_view op = {}) {
  size_t n = 0;
  for (const auto& node : g.nodes()) n += node.kind == NodeKind::Call && (op.empty() || node.target == op) ? 1 : 0;
  return n;
}

TEST(MinifyTest, ASingleCulpritInAThousandNodesMinifiesToTheCulpritAndItsInput) {
  KernelOverride fault("aten.tanh.default", [](const ValueList&, const OpFn&) -> ValueList { throw OpError("miscompiled tanh"); });
  const Graph g = chain(1000, {700});
  auto r = minify::minify(g, seeded(g), throwsInTanh);
  ASSERT_TRUE(r.ok()) << r.error().str();
  const Graph& best = r->best.graph;
  EXPECT_EQ(callsOf(best), 1u);
  EXPECT_EQ(callsOf(best, "aten.tanh.default"), 1u);
  EXPECT_EQ(best.placeholders().size(), 1u);
  EXPECT_EQ(best.size(), 3u);  // input, the culprit, output
  EXPECT_TRUE(throwsInTanh(r->best)) << "the result still fails";
  EXPECT_EQ(r->stats.startNodes, 1002u);
  EXPECT_LT(r->stats.queries, 60u) << "binary search and halving, not one query per node";
  std::printf("minified %zu -> %zu nodes in %zu queries (%zu answered from the cache)\n", r->stats.startNodes,
              r->stats.endNodes, r->stats.queries, r->stats.cacheHits);
  // The culprit's input is the real value the original computed there, not a fresh draw.
  EXPECT_EQ(r->best.inputs.size(), 1u);
  EXPECT_FALSE(r->best.inputs[0].data.empty());
}

// A failure that needs two tanh nodes: while it lives, tanh's kernel throws from its second call
// in a probe on (the first one's kernel marks, the second throws).
class SecondTanhThrows {
 public:
  minify::Oracle oracle() {
    return [this](const minify::Candidate& c) {
      seen_ = 0;
      return throwsInTanh(c);
    };
  }

 private:
  int seen_ = 0;
  KernelOverride fault_{"aten.tanh.default", [this](const ValueList& args, const OpFn& original) -> ValueList {
                          if (++seen_ >= 2) throw OpError("miscompiled tanh");
                          return original(args);
                        }};
};

TEST(MinifyTest, TwoInteractingCulpritsAreBothKept) {
  SecondTanhThrows failure;
  const Graph g = chain(200, {60, 140});
  auto r = minify::minify(g, seeded(g), failure.oracle());
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(callsOf(r->best.graph, "aten.tanh.default"), 2u);
  // Cutting the chain between them into an input would drop the first culprit - unless it is
  // returned itself: split-at-needed returns both and cuts the 79 nodes between (as fx_minifier's
  // "remove outputs" does). The two tanh, each on an input (or one shared by merge-inputs).
  EXPECT_EQ(callsOf(r->best.graph), 2u);
  EXPECT_GE(r->best.graph.placeholders().size(), 1u);
}

// Issue 25: two needed nodes far apart on a chain. Run before split-at-needed, nodes-to-inputs
// tried the chain between them node by node, again after each success (594 queries here);
// split-at-needed runs first and finds both by halving.
TEST(MinifyTest, TwoDistantCulpritsAreFoundByHalvingNotNodeByNode) {
  SecondTanhThrows failure;
  const Graph g = chain(400, {60, 340});
  auto r = minify::minify(g, seeded(g), failure.oracle());
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(callsOf(r->best.graph), 2u);
  EXPECT_EQ(callsOf(r->best.graph, "aten.tanh.default"), 2u);
  std::printf("two culprits in 400 nodes: %zu queries\n", r->stats.queries);
  EXPECT_LT(r->stats.queries, 100u);
}

TEST(MinifyTest, AFlakyAnswerIsReAskedAndNotTaken) {
  // "Fails" the first time a graph of some size is asked, never again: every candidate's second,
  // fresh ask says no, so nothing replaces the original.
  const Graph g = chain(40, {});
  std::set<size_t> seen;
  auto flaky = [&](const minify::Candidate& c) { return c.graph.size() == g.size() || seen.insert(c.graph.size()).second; };
  auto r = minify::minify(g, seeded(g), flaky);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(r->best.graph.size(), g.size());
  EXPECT_GT(r->stats.flaky, 0u);
  EXPECT_EQ(r->stats.flaky, r->stats.verifications);
}

TEST(MinifyTest, AGraphThatDoesNotFailIsReportedAndLeftAlone) {
  const Graph g = chain(10, {});
  auto r = minify::minify(g, seeded(g), [](const minify::Candidate& c) { return minify::Verdict{throwsInTanh(c), "ran cleanly"}; });
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_FALSE(r->originalFails);
  EXPECT_EQ(r->originalWhat, "ran cleanly");
  EXPECT_EQ(r->best.graph.size(), g.size());
  EXPECT_EQ(r->stats.queries, 1u);
}

}  // namespace
}  // namespace fathom
