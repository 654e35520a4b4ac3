// The pass table (minifier/Passes.def): keys are kebab-case and unique, each key finds its pass
// and selects it through MinifyOptions::passes, selected passes run in table order, and an
// unknown key is an error naming it and the valid ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>

#include "engine/graph/GraphBuilder.h"
#include "minifier/Minify.h"
#include "minifier/Passes.h"
#include "tests/minifier/passes/PassTestSupport.h"

namespace fathom {
namespace {

// tanh(neg(abs(x))), failing while it calls tanh: every pass has something to try.
Graph smallFailingGraph() {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 3}));
  b.output({b.call("aten.neg.default", {b.call("aten.tanh.default", {b.call("aten.abs.default", {x})})})});
  return testing::finished(b);
}

// Every key is kebab-case (what --passes takes), and keys, names and functions are unique.
TEST(PassesTest, KeysAreKebabCaseAndUnique) {
  const std::regex kebab("[a-z]+(-[a-z]+)*");
  std::set<std::string> keys, names;
  std::set<bool (*)(minify::PassContext&)> functions;
  for (const auto& p : minify::allPasses()) {
    EXPECT_TRUE(std::regex_match(p.key, kebab)) << p.key;
    EXPECT_TRUE(keys.insert(p.key).second) << "repeated key " << p.key;
    EXPECT_TRUE(names.insert(p.name).second) << "repeated name " << p.name;
    EXPECT_TRUE(functions.insert(p.run).second) << "two keys run one function: " << p.key;
    EXPECT_NE(std::string(p.description), "") << p.key;
  }
  EXPECT_EQ(keys.size(), 10u);
}

// Each key finds its own entry, and minify() takes it alone (every pass reachable by key).
TEST(PassesTest, EveryKeyIsReachable) {
  const Graph g = smallFailingGraph();
  for (const auto& p : minify::allPasses()) {
    EXPECT_EQ(minify::findPass(p.key), &p);
    minify::MinifyOptions options;
    options.passes = {p.key};
    auto r = minify::minify(g, testing::seeded(g), testing::stillCalls("aten.tanh.default"), options);
    EXPECT_TRUE(r.ok()) << p.key << ": " << (r.ok() ? "" : r.error().str());
  }
  EXPECT_EQ(minify::allPassKeys().size(), minify::allPasses().size());
  EXPECT_EQ(minify::allPassKeys().front(), "truncate-suffix");
}

// The default selection (MinifyOptions::passes) is the table minus the passes that run only on
// request, in table order; those are found by key and run when named.
TEST(PassesTest, OnRequestPassesRunOnlyWhenNamed) {
  const std::vector<std::string> defaults = minify::defaultPassKeys();
  EXPECT_EQ(minify::MinifyOptions{}.passes, defaults);
  std::vector<std::string> expected;
  for (const auto& p : minify::allPasses())
    if (p.byDefault) expected.emplace_back(p.key);
  EXPECT_EQ(defaults, expected);
  EXPECT_LT(defaults.size(), minify::allPasses().size());
  for (const char* key : {"probdd", "split-at-needed"}) {
    ASSERT_NE(minify::findPass(key), nullptr) << key;
    EXPECT_FALSE(minify::findPass(key)->byDefault) << key;
    EXPECT_EQ(std::find(defaults.begin(), defaults.end(), std::string(key)), defaults.end()) << key;
  }
  EXPECT_TRUE(minify::findPass("bisect-needed")->byDefault);
}

// Selected passes run in the table's order, whatever order they were given in.
TEST(PassesTest, SelectedPassesRunInTableOrder) {
  const Graph g = smallFailingGraph();
  minify::MinifyOptions options;
  options.passes = {"nodes-to-inputs", "truncate-suffix"};
  std::vector<std::string> ran;
  options.onQuery = [&](const minify::MinifyStats&, const char* pass) {
    if (ran.empty() || ran.back() != pass) ran.emplace_back(pass);
  };
  auto r = minify::minify(g, testing::seeded(g), testing::stillCalls("aten.tanh.default"), options);
  ASSERT_TRUE(r.ok()) << r.error().str();
  ASSERT_GE(ran.size(), 2u);
  EXPECT_EQ(ran[0], "truncate suffix");
  EXPECT_EQ(ran[1], "nodes to inputs");
}

TEST(PassesTest, AnUnknownKeyIsAnErrorNamingTheValidOnes) {
  const Graph g = smallFailingGraph();
  minify::MinifyOptions options;
  options.passes = {"truncate_suffix"};
  auto r = minify::minify(g, testing::seeded(g), testing::stillCalls("aten.tanh.default"), options);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("unknown minifier pass 'truncate_suffix'"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("truncate-suffix, remove-outputs"), std::string::npos) << r.error().message;
  EXPECT_EQ(minify::findPass("truncate_suffix"), nullptr);
}

}  // namespace
}  // namespace fathom
