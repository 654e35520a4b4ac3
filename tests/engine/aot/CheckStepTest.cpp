// Every sample's training step, checked node by node against its recorded meta: forward,
// backward and joint, static at the traced sizes and dynamic at sizes other than the hints -
// zero mismatches.
#include <gtest/gtest.h>

#include "engine/aot/AotCompile.h"
#include "engine/aot/CheckStep.h"
#include "engine/interp/ExampleInputs.h"
#include "samples/models/Models.h"

namespace fathom::aot {
namespace {

struct Case {
  std::string model;
  models::ModelOptions options;
  bool dynamic;
  std::map<std::string, int64_t> sizes;  // dynamic: the symbols bound away from their hints
};

class CleanSamples : public ::testing::TestWithParam<Case> {};

TEST_P(CleanSamples, CheckWithoutMismatches) {
  const Case& c = GetParam();
  auto model = models::buildModel(c.model, c.options);
  ASSERT_TRUE(model.ok());
  AotOptions o;
  o.shapes.dynamic = c.dynamic;
  o.partitioner = Partitioner::MinCut;
  auto compiled = aotCompile(**model, o);
  ASSERT_TRUE(compiled.ok()) << compiled.error().message;
  std::vector<ExampleInput> specs = compiled->joint.inputs;
  if (!c.sizes.empty()) {
    auto r = resizeInputs(*compiled->dump.graph("joint"), specs, c.sizes);
    ASSERT_TRUE(r.ok()) << r.error().message;
    specs = std::move(*r);
  }
  auto all = materializeInputs(specs);
  ASSERT_TRUE(all.ok());
  const size_t n = compiled->joint.numPrimals;
  auto checks = checkTrainingStep(compiled->dump, ValueList(all->begin(), all->begin() + static_cast<std::ptrdiff_t>(n)),
                                  ValueList(all->begin() + static_cast<std::ptrdiff_t>(n), all->end()), {});
  ASSERT_TRUE(checks.ok()) << checks.error().message;
  ASSERT_EQ(checks->size(), 3u);
  for (const auto& g : *checks) {
    EXPECT_GT(g.checked, 0u) << g.graph;
    EXPECT_TRUE(g.skipped.empty()) << g.graph << ": " << g.skipped.front();
    for (const auto& m : g.mismatches)
      ADD_FAILURE() << g.graph << ": %" << m.node << " " << m.field << ": recorded " << m.expected << ", real " << m.actual;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Samples, CleanSamples,
    ::testing::Values(Case{"mlp", {.layers = 3, .batch = 4}, false, {}},
                      Case{"mlp", {.layers = 3, .batch = 4}, true, {{"s0", 7}}},
                      Case{"bert", {.layers = 1, .batch = 2, .seq = 8, .training = true}, false, {}},
                      Case{"bert", {.layers = 1, .batch = 2, .seq = 8, .training = true}, true, {{"s0", 3}, {"s1", 5}}},
                      Case{"gpt2", {.layers = 1, .batch = 2, .seq = 8, .training = true}, false, {}},
                      Case{"gpt2", {.layers = 1, .batch = 2, .seq = 8, .training = true}, true, {{"s0", 3}, {"s1", 11}}},
                      Case{"resnet18", {.batch = 2, .seq = 32, .training = true}, false, {}},
                      Case{"resnet18", {.batch = 2, .seq = 32, .training = true}, true, {{"s0", 3}, {"s2", 24}}}),  // within the guards: 16 < s2 <= 32
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.model + (info.param.dynamic ? "_dynamic" : "_static"); });

}  // namespace
}  // namespace fathom::aot
