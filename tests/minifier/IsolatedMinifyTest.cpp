// The minifier with its worker subprocesses, predicates and faulty backends: a crashing and a
// hanging backend are minified without the minifier dying, -j 2 finds what -j 1 finds, an
// exception predicate does not slide to a different error, large values spill to disk.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "engine/graph/GraphBuilder.h"
#include "engine/interp/ExampleInputs.h"
#include "minifier/Minify.h"
#include "tests/minifier/MinifyTestSupport.h"
#include "minifier/Predicates.h"
#include "minifier/Spill.h"

namespace fathom {
namespace {

// `n` pointwise nodes over x [4, 3]; at position `at` the chain goes through
// mm(activation-or-not(h), t(w)) - the patterns the faulty backends trip on.
Graph chainWithMatmul(int n, int at, bool activationFirst) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 3}));
  NodeRef w = b.input("w", fakeTensor(DType::Float32, {3, 3}));
  NodeRef h = x;
  for (int i = 0; i < n; ++i) {
    if (i == at) {
      if (activationFirst) h = b.call("aten.relu.default", {h});
      h = b.call("aten.mm.default", {h, b.call("aten.t.default", {w})});
      continue;
    }
    h = b.call(i % 2 ? "aten.neg.default" : "aten.abs.default", {h});
  }
  b.output({h});
  return testing::finished(b);
}

using testing::seeded;

std::multiset<std::string> callsOf(const Graph& g) {
  std::multiset<std::string> out;
  for (const auto& n : g.nodes())
    if (n.kind == NodeKind::Call) out.insert(n.target);
  return out;
}

struct Minified {
  minify::MinifyResult result;
  std::string predicate;
};

Minified minifyWith(const Graph& g, const std::string& predicate, const std::string& backend, minify::MinifyOptions options,
               std::vector<ExampleInput> inputs = {}) {
  if (inputs.empty()) inputs = seeded(g);
  auto spec = minify::parsePredicate(predicate);
  EXPECT_TRUE(spec.ok()) << spec.error().str();
  minify::OracleContext ctx;
  ctx.backend = minify::findBackend(backend);
  ctx.isolate = options.isolate;
  ctx.limits = {options.timeoutSeconds, 0, 1};
  auto oracle = minify::makeOracle(*spec, g, inputs, ctx);
  EXPECT_TRUE(oracle.ok()) << oracle.error().str();
  if (oracle->timeoutSeconds > 0) options.timeoutSeconds = oracle->timeoutSeconds;
  auto r = minify::minify(g, inputs, oracle->oracle, options);
  EXPECT_TRUE(r.ok()) << r.error().str();
  return {std::move(*r), oracle->predicate};
}

minify::MinifyOptions isolated(size_t jobs = 1) {
  minify::MinifyOptions o;
  o.isolate = true;
  o.jobs = jobs;
  o.timeoutSeconds = 20;
  return o;
}

TEST(IsolatedMinify, ACrashingBackendIsMinifiedToThePatternWithoutKillingTheMinifier) {
  const Graph g = chainWithMatmul(1000, 700, false);
  Minified r = minifyWith(g, "crash", "faulty-crash", isolated());
  EXPECT_TRUE(r.result.originalFails);
  EXPECT_EQ(r.predicate, "crash:SIGSEGV");
  EXPECT_EQ(callsOf(r.result.best.graph), (std::multiset<std::string>{"aten.mm.default", "aten.t.default"}));
  EXPECT_EQ(r.result.best.graph.placeholders().size(), 2u);  // the chain's value at 700, and w
  EXPECT_LT(r.result.stats.queries, 60u);
}

TEST(IsolatedMinify, TwoJobsFindWhatOneJobFinds) {
  const Graph g = chainWithMatmul(300, 120, false);
  Minified one = minifyWith(g, "crash", "faulty-crash", isolated(1));
  Minified two = minifyWith(g, "crash", "faulty-crash", isolated(2));
  EXPECT_EQ(callsOf(one.result.best.graph), callsOf(two.result.best.graph));
  EXPECT_EQ(one.result.best.graph.size(), two.result.best.graph.size());
}

TEST(IsolatedMinify, AHangingBackendIsMinifiedUnderATimeout) {
  const Graph g = chainWithMatmul(24, 12, true);
  Minified r = minifyWith(g, "timeout:0.5", "faulty-hang", isolated());
  EXPECT_EQ(r.predicate, "timeout:0.5");
  EXPECT_EQ(callsOf(r.result.best.graph), (std::multiset<std::string>{"aten.mm.default", "aten.relu.default"}));
}

TEST(IsolatedMinify, AccuracyAgainstAFloat64ReferenceFindsTheMiscompiledEpilogue) {
  // relu(mm(...)): the miscompiled pattern is activation-of-matmul, so put one after the mm.
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 3}));
  NodeRef w = b.input("w", fakeTensor(DType::Float32, {3, 3}));
  NodeRef h = x;
  for (int i = 0; i < 60; ++i) h = b.call(i % 2 ? "aten.neg.default" : "aten.abs.default", {h});
  h = b.call("aten.relu.default", {b.call("aten.mm.default", {h, w})});
  for (int i = 0; i < 60; ++i) h = b.call(i % 2 ? "aten.neg.default" : "aten.abs.default", {h});
  b.output({h});
  auto graph = b.finish();
  ASSERT_TRUE(graph.ok());
  minify::MinifyOptions inProcess;
  Minified r = minifyWith(*graph, "accuracy", "faulty-miscompile", inProcess);
  EXPECT_EQ(r.predicate, "accuracy:0.001");
  EXPECT_EQ(callsOf(r.result.best.graph), (std::multiset<std::string>{"aten.mm.default", "aten.relu.default"}));
}

TEST(IsolatedMinify, AFaultyMetaIsMinifiedToItsOrigin) {
  const Graph g = chainWithMatmul(100, 40, false);
  Minified r = minifyWith(g, "mismatch", "faulty-meta", {});
  EXPECT_EQ(r.predicate, "mismatch:aten.t.default");
  EXPECT_EQ(callsOf(r.result.best.graph), (std::multiset<std::string>{"aten.t.default"}));
}

TEST(IsolatedMinify, TheDefaultExceptionPredicateDoesNotSlideToADifferentError) {
  // mm fails first (w's real size does not fit); cutting it away would expose view's error.
  GraphBuilder b;
  NodeRef a = b.input("a", fakeTensor(DType::Float32, {4, 3}));
  NodeRef w = b.input("w", fakeTensor(DType::Float32, {3, 2}));
  NodeRef v = b.input("v", fakeTensor(DType::Float32, {6}));
  NodeRef mm = b.call("aten.mm.default", {b.call("aten.abs.default", {a}), w});
  NodeRef view = b.call("aten.view.default", {b.call("aten.neg.default", {v}), Value(ValueList{2, 3})});
  b.output({mm, view});
  auto g = b.finish();
  ASSERT_TRUE(g.ok());
  auto inputs = seeded(*g);
  inputs[1].meta = fakeTensor(DType::Float32, {5, 2});  // mm: shapes cannot be multiplied
  inputs[2].meta = fakeTensor(DType::Float32, {7});     // view: 7 elements are not [2, 3]
  Minified r = minifyWith(*g, "exception", "eager", {}, inputs);
  ASSERT_TRUE(r.result.originalFails);
  EXPECT_EQ(callsOf(r.result.best.graph).count("aten.mm.default"), 1u) << r.predicate;
  EXPECT_EQ(callsOf(r.result.best.graph).count("aten.view.default"), 0u);
  // The view's error alone is a different bug: the default predicate says no, any error yes.
  GraphBuilder other;
  NodeRef v2 = other.input("v", fakeTensor(DType::Float32, {6}));
  other.output({other.call("aten.view.default", {v2, Value(ValueList{2, 3})})});
  auto viewOnly = other.finish();
  ASSERT_TRUE(viewOnly.ok());
  const minify::Candidate c{*viewOnly, {inputs[2]}};
  minify::OracleContext ctx;
  auto sameBug = minify::makeOracle(*minify::parsePredicate("exception"), *g, inputs, ctx);
  auto anyError = minify::makeOracle(*minify::parsePredicate("exception:."), *g, inputs, ctx);
  ASSERT_TRUE(sameBug.ok() && anyError.ok());
  EXPECT_FALSE(sameBug->oracle.probe(c).fails) << sameBug->predicate;
  EXPECT_TRUE(anyError->oracle.probe(c).fails);
}

TEST(IsolatedMinify, LargeValuesSpillToDiskAndTheResultBundlesThem) {
  const auto dir = std::filesystem::temp_directory_path() / ("fathom-spill-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const Graph g = chainWithMatmul(50, 30, false);
  minify::MinifyOptions o = isolated();
  o.spillFile = (dir / "values.bin").string();
  o.spillBytes = 16;  // every [4, 3] float value (48 bytes) spills
  Minified r = minifyWith(g, "crash", "faulty-crash", o);
  bool spilled = false;
  for (const auto& in : r.result.best.inputs) spilled |= in.file.present();
  EXPECT_TRUE(spilled);
  // A checkpoint (saved in a folder other than the spill's) copies the spilled values into its own
  // side file and loads back.
  Dump d = minify::candidateDump(r.result.best, Dump{}, "forward");
  std::filesystem::create_directories(dir / "out");
  ASSERT_TRUE(saveDump(d, (dir / "out" / "out.fathom.json").string()).ok());
  std::filesystem::remove(o.spillFile);
  auto back = loadDump((dir / "out" / "out.fathom.json").string());
  ASSERT_TRUE(back.ok()) << back.error().str();
  EXPECT_TRUE(std::filesystem::exists(dir / "out" / "out.bin"));
  auto values = materializeInputs(*back->inputsFor("forward"));
  EXPECT_TRUE(values.ok()) << values.error().str();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace fathom
