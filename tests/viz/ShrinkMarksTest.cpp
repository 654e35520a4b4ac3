// ShrinkMarks on real minifier before/after pairs: the minifier itself (minifier/Minify.h, with a
// faulty backend or the jit as the bug) shrinks a dump's graph, and the candidate maps onto the
// original by name - what stays is Same, a call cut into an input Changed, the rest Removed.
#include "viz/model/ShrinkMarks.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "minifier/Backends.h"
#include "minifier/Minify.h"
#include "minifier/Predicates.h"
#include "tests/viz/VizTestDumps.h"

namespace fathom::viz {
namespace {

// Minifies graph `graph` of `dump` in this process; the best candidate.
Graph minified(const Dump& dump, const std::string& graph, const std::string& predicate, const std::string& backend) {
  const auto* inputs = dump.inputsFor(graph);
  const Graph* g = dump.graph(graph);
  EXPECT_TRUE(inputs && g);
  if (!inputs || !g) return {};
  auto spec = minify::parsePredicate(predicate);
  EXPECT_TRUE(spec.ok());
  minify::OracleContext ctx;
  ctx.dump = &dump;
  ctx.graphName = graph;
  ctx.backend = minify::findBackend(backend);
  auto oracle = minify::makeOracle(*spec, *g, *inputs, ctx);
  EXPECT_TRUE(oracle.ok()) << oracle.error().str();
  if (!oracle.ok()) return {};
  auto r = minify::minify(*g, *inputs, oracle->oracle);
  EXPECT_TRUE(r.ok() && r->originalFails);
  return r.ok() ? r->best.graph : Graph{};
}

NodeMark markOf(const GraphModel& m, const ShrinkView& v, const char* name) {
  const int32_t n = m.find(name);
  EXPECT_GE(n, 0) << name;
  return n < 0 ? NodeMark::None : v.marks[static_cast<size_t>(n)];
}

size_t count(const ShrinkView& v, NodeMark mark) { return static_cast<size_t>(std::count(v.marks.begin(), v.marks.end(), mark)); }

// The lying PyTorch export under the jit's kernel check shrinks 13 -> 5 nodes: where stays, its
// condition gt (a call) becomes an input, y_1 and z_1 stay inputs, the layer-norm branch and the
// transposes go.
TEST(VizShrinkMarks, JitKernelBugOnTheLyingExport) {
  auto dump = testing::loadTestDump("tests/data/torch-fake-meta-lies.fathom.json");
  ASSERT_TRUE(dump);
  const Graph best = minified(*dump, "forward", "accuracy:kernels", "jit");
  ASSERT_EQ(best.size(), 5u);
  auto model = GraphModel::build(*dump, "forward");
  ASSERT_TRUE(model.ok());
  const ShrinkView v = mapCandidate(*model, best);
  ASSERT_EQ(v.marks.size(), 13u);
  EXPECT_EQ(v.unknown, 0u);
  EXPECT_EQ(markOf(*model, v, "where"), NodeMark::Same);
  EXPECT_EQ(markOf(*model, v, "gt"), NodeMark::Changed);
  EXPECT_EQ(markOf(*model, v, "y_1"), NodeMark::Same);
  EXPECT_EQ(markOf(*model, v, "z_1"), NodeMark::Same);
  EXPECT_EQ(markOf(*model, v, "output"), NodeMark::Same);
  for (const char* gone : {"x_1", "c_1", "t", "native_layer_norm", "getitem", "getitem_1", "getitem_2", "t_1"})
    EXPECT_EQ(markOf(*model, v, gone), NodeMark::Removed) << gone;
  EXPECT_EQ(v.becameInputs, 1u);
  EXPECT_EQ(v.kept.size(), 4u);  // the candidate's nodes but its output
}

// The MLP sample under a miscompiled relu-of-matmul: the kept calls are an addmm and its relu,
// every kept node is Same or Changed, and the counts add up to the candidate's size.
TEST(VizShrinkMarks, FaultyMiscompileOnTheMlp) {
  auto dump = testing::loadTestDump("samples/mlp.fathom.json");
  ASSERT_TRUE(dump);
  const Graph best = minified(*dump, "forward", "accuracy", "faulty-miscompile");
  ASSERT_GT(best.size(), 0u);
  auto model = GraphModel::build(*dump, "forward");
  ASSERT_TRUE(model.ok());
  const ShrinkView v = mapCandidate(*model, best);
  EXPECT_EQ(v.unknown, 0u);
  EXPECT_EQ(v.kept.size() + 1, best.size());
  EXPECT_EQ(count(v, NodeMark::Same) + count(v, NodeMark::Changed), best.size());
  EXPECT_EQ(count(v, NodeMark::Removed), model->size() - best.size());
  std::vector<std::string> keptCalls;
  for (int32_t n : v.kept)
    if (v.marks[static_cast<size_t>(n)] == NodeMark::Same && model->node(n).kind == NodeKind::Call) keptCalls.push_back(model->node(n).opShort);
  std::sort(keptCalls.begin(), keptCalls.end());
  EXPECT_EQ(keptCalls, (std::vector<std::string>{"addmm", "relu"}));
}

// Names the original does not have are counted, not guessed at (a candidate of another graph).
TEST(VizShrinkMarks, UnknownNamesAreCounted) {
  auto dump = testing::loadTestDump("samples/mlp.fathom.json");
  ASSERT_TRUE(dump);
  auto model = GraphModel::build(*dump, "forward");
  ASSERT_TRUE(model.ok());
  const ShrinkView v = mapCandidate(*model, {"nope"}, {"addmm"});
  EXPECT_EQ(v.unknown, 1u);
  EXPECT_EQ(markOf(*model, v, "addmm"), NodeMark::Same);
  EXPECT_EQ(count(v, NodeMark::Removed), model->size() - 2);  // all but addmm and the output
}

}  // namespace
}  // namespace fathom::viz
