// What the one-pass tests share: a pass run alone (MinifyOptions::passes = {its key}) under the
// tiny in-process predicate "the candidate still calls tanh", on a graph a few nodes long, with
// the node counts before and after asserted - so a test fails when its pass does nothing (the
// passes that change values, not nodes, assert the value too); for the split passes, chains of
// unary ops with two needed ones (tanh and sigmoid).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/graph/GraphBuilder.h"
#include "minifier/Minify.h"
#include "tests/minifier/MinifyTestSupport.h"

namespace fathom::testing {

inline bool callsOp(const Graph& g, std::string_view op) {
  for (const auto& n : g.nodes())
    if (n.kind == NodeKind::Call && n.target == op) return true;
  return false;
}

inline size_t callCount(const Graph& g) {
  size_t n = 0;
  for (const auto& node : g.nodes()) n += node.kind == NodeKind::Call;
  return n;
}

inline bool callsTanhAndSigmoid(const minify::Candidate& c) {
  return callsOp(c.graph, "aten.tanh.default") && callsOp(c.graph, "aten.sigmoid.default");
}

// The oracle: the candidate still calls `op`.
inline minify::Oracle stillCalls(std::string op) {
  return minify::Oracle([op = std::move(op)](const minify::Candidate& c) { return callsOp(c.graph, op); });
}

// The input every one-pass graph starts from: x, f32[4, 3].
inline NodeRef inputX(GraphBuilder& b) { return b.input("x", fakeTensor(DType::Float32, {4, 3})); }

// The pass `key` alone on the graph `b` built (with `inputs`, default seeded ones), under "still
// calls tanh": the graph has `before` nodes and the result `after`, and the result still fails,
// with nothing invalid on the way. The result, for further checks.
inline minify::MinifyResult expectPassAloneShrinks(const std::string& key, GraphBuilder& b, size_t before, size_t after,
                                                   minify::MinifyOptions options = {}, std::vector<ExampleInput> inputs = {}) {
  const Graph g = finished(b);
  const minify::Oracle oracle = stillCalls("aten.tanh.default");
  options.passes = {key};
  if (inputs.empty()) inputs = seeded(g);
  auto r = minify::minify(g, inputs, oracle, options);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().str());
  if (!r.ok()) return {};
  EXPECT_TRUE(r->originalFails);
  EXPECT_EQ(r->stats.invalid, 0u);
  EXPECT_EQ(g.size(), before);
  EXPECT_EQ(r->best.graph.size(), after) << key << " alone";
  EXPECT_TRUE(oracle.probe(r->best).fails) << "the result still fails";
  return std::move(*r);
}

// The split pass `key` alone on neg(tanh(abs(x))) under "calls tanh": the returned neg alone does
// not fail, so every node is returned, and the pass's own search finds tanh; abs and neg go, tanh
// stays on abs's value as an input.
inline void expectSplitPassFindsTheCulpritBehindTheOutput(const std::string& key) {
  GraphBuilder b;
  b.output({b.call("aten.neg.default", {b.call("aten.tanh.default", {b.call("aten.abs.default", {inputX(b)})})})});
  auto r = expectPassAloneShrinks(key, b, 5, 3);
  EXPECT_EQ(callCount(r.best.graph), 1u) << key;
  EXPECT_TRUE(callsOp(r.best.graph, "aten.tanh.default")) << key;
}

// x -> `length` unary ops, the last one returned: `placed` (position -> op), neg and abs
// (alternating) elsewhere.
inline Graph unaryChain(size_t length, const std::map<size_t, std::string>& placed) {
  GraphBuilder b;
  NodeRef v = inputX(b);
  for (size_t i = 0; i < length; ++i) {
    auto it = placed.find(i);
    v = b.call(it != placed.end() ? it->second : i % 2 ? "aten.abs.default" : "aten.neg.default", {v});
  }
  b.output({v});
  return finished(b);
}

// The pass `key` alone on `g` under `oracle` (default: calls tanh and sigmoid).
inline minify::MinifyResult runAlone(const std::string& key, const Graph& g,
                                     const minify::Oracle& oracle = minify::Oracle(callsTanhAndSigmoid)) {
  minify::MinifyOptions options;
  options.passes = {key};
  auto r = minify::minify(g, seeded(g), oracle, options);
  EXPECT_TRUE(r.ok()) << key << ": " << (r.ok() ? "" : r.error().str());
  return r.ok() ? std::move(*r) : minify::MinifyResult{};
}

}  // namespace fathom::testing
