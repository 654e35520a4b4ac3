// What the one-pass tests share: a pass run alone (MinifyOptions::passes = {its key}) under the
// tiny in-process predicate "the candidate still calls tanh", on a graph a few nodes long, with
// the node counts before and after asserted - so a test fails when its pass does nothing (the
// passes that change values, not nodes, assert the value too).
#pragma once

#include <gtest/gtest.h>

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

}  // namespace fathom::testing
