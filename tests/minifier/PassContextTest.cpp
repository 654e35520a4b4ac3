// PassContext: every candidate is checked with Graph::verify() before the oracle sees it; one
// that fails is skipped (never asked) and counted in MinifyStats::invalid.
#include <gtest/gtest.h>

#include "engine/graph/GraphBuilder.h"
#include "minifier/Minify.h"
#include "tests/minifier/MinifyTestSupport.h"
#include "tests/minifier/passes/PassTestSupport.h"

namespace fathom {
namespace {

bool hasTanh(const Graph& g) { return testing::callsOp(g, "aten.tanh.default"); }

// x -> abs -> tanh -> neg, where tanh's recorded meta is broken (two sizes, one stride): every
// candidate that keeps tanh - computed, or cut into an input that takes its meta - is invalid.
Graph graphWithABrokenTanh() {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 3}));
  NodeRef t = b.call("aten.tanh.default", {b.call("aten.abs.default", {x})});
  b.output({b.call("aten.neg.default", {t})});
  Graph g = testing::finished(b);
  g.mutableNodes()[static_cast<size_t>(t.index)].val.as<TensorMeta>().strides.pop_back();
  return g;
}

// The oracle "has a tanh" would take any candidate with the broken tanh; none is asked, so the
// original stays, and the skipped ones are counted.
TEST(PassContextTest, CandidatesThatFailVerifyAreSkippedAndCounted) {
  const Graph g = graphWithABrokenTanh();
  ASSERT_FALSE(g.verify().ok());
  size_t askedInvalid = 0;
  auto oracle = [&](const minify::Candidate& c) {
    askedInvalid += c.graph.verify().ok() ? 0 : 1;
    return hasTanh(c.graph);
  };
  auto r = minify::minify(g, testing::seeded(g), oracle);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_TRUE(r->originalFails);
  EXPECT_GT(r->stats.invalid, 0u);
  EXPECT_EQ(askedInvalid, 1u) << "only the original (the caller's graph, asked as given) reaches the oracle";
  EXPECT_EQ(r->best.graph.size(), g.size());
}

// The same graph with its meta intact minifies, with nothing invalid: the count is not noise.
TEST(PassContextTest, ValidCandidatesAreNotCountedAsInvalid) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 3}));
  b.output({b.call("aten.neg.default", {b.call("aten.tanh.default", {b.call("aten.abs.default", {x})})})});
  const Graph g = testing::finished(b);
  auto r = minify::minify(g, testing::seeded(g), [](const minify::Candidate& c) { return hasTanh(c.graph); });
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(r->stats.invalid, 0u);
  EXPECT_LT(r->best.graph.size(), g.size());
}

}  // namespace
}  // namespace fathom
