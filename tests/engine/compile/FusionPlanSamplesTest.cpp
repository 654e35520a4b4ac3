// planFusion on real graphs: every dump in samples/ and tests/data/, every sample model traced,
// and an AOT training step (forward, backward, joint with the composites' backwards) plan with
// every call node covered once and the kernels in an order that runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "engine/aot/AotCompile.h"
#include "engine/compile/FusionPlan.h"
#include "engine/compile/FusionPlanText.h"
#include "engine/dump/Dump.h"
#include "samples/models/Models.h"
#include "tests/TestDataDir.h"
#include "tests/engine/compile/FusionPlanChecks.h"

namespace fathom {
namespace {

namespace fs = std::filesystem;
using testing::expectValidPlan;

void expectEveryGraphPlans(const Dump& dump) {
  for (const NamedGraph& g : dump.graphs) {
    SCOPED_TRACE(g.name);
    auto plan = planFusion(g.graph);
    ASSERT_TRUE(plan.ok()) << plan.error().str();
    expectValidPlan(g.graph, *plan);
  }
}

Dump loaded(const std::string& relative) {
  auto dump = loadDump((fs::path(FATHOM_TEST_DATA_DIR) / relative).string(), {.keepUnknownOps = true});
  EXPECT_TRUE(dump.ok()) << dump.error().str();
  return dump.ok() ? std::move(*dump) : Dump{};
}

// Every *.fathom.json of samples/ and tests/data/ (the symbolic and torch-exported ones too).
TEST(FusionPlanSamples, EveryDumpPlansWithEveryNodeOnce) {
  int dumps = 0;
  for (const char* dir : {"samples", "tests/data"}) {
    for (const auto& e : fs::directory_iterator(fs::path(FATHOM_TEST_DATA_DIR) / dir)) {
      const std::string name = e.path().filename().string();
      if (name.size() < 12 || name.substr(name.size() - 12) != ".fathom.json") continue;
      SCOPED_TRACE(name);
      expectEveryGraphPlans(loaded(std::string(dir) + "/" + name));
      ++dumps;
    }
  }
  EXPECT_GE(dumps, 8);
}

// Every sample model (mlp, bert, resnet18, gpt2), traced with its defaults.
TEST(FusionPlanSamples, EveryModelPlans) {
  for (const auto& info : models::allModels()) {
    SCOPED_TRACE(info.name);
    auto dump = models::traceModel(info.name);
    ASSERT_TRUE(dump.ok()) << dump.error().str();
    expectEveryGraphPlans(*dump);
  }
}

// A training step's graphs hold the backwards of softmax and layer norm: row-local kernels.
TEST(FusionPlanSamples, AotBertStepPlansWithRowLocalBackwards) {
  auto model = models::buildModel("bert", {.layers = 1, .batch = 2, .seq = 8});
  ASSERT_TRUE(model.ok()) << model.error().str();
  auto compiled = aot::aotCompile(**model, {});
  ASSERT_TRUE(compiled.ok()) << compiled.error().str();
  expectEveryGraphPlans(compiled->dump);
  const Graph* backward = compiled->dump.graph("backward");
  ASSERT_NE(backward, nullptr);
  auto plan = planFusion(*backward);
  ASSERT_TRUE(plan.ok());
  EXPECT_GE(plan->summary().rowLocal, 2);  // softmax's and layer norm's backwards
}

// The bundled BERT layer fuses: fewer kernels than call nodes, softmax and the two layer norms
// as row-local kernels, and the plan prints a line per kernel and the summary.
TEST(FusionPlanSamples, BertLayerFuses) {
  Dump dump = loaded("samples/bert.fathom.json");
  ASSERT_FALSE(dump.graphs.empty());
  const Graph& g = dump.graphs[0].graph;
  auto plan = planFusion(g);
  ASSERT_TRUE(plan.ok());
  const FusionSummary s = plan->summary();
  const auto calls = std::count_if(g.nodes().begin(), g.nodes().end(), [](const Node& n) { return n.kind == NodeKind::Call; });
  EXPECT_LT(s.kernels, calls);
  EXPECT_GT(s.pointwiseOps, s.pointwise);  // some pointwise kernel fused more than one op
  EXPECT_EQ(s.rowLocal, 3);
  const std::string text = printFusionPlan(g, *plan);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), s.kernels + 1);
  EXPECT_NE(text.find(fusionSummaryLine(s)), std::string::npos);
}

// A symbolic dump plans; its iteration sizes are expressions over the dump's symbols.
TEST(FusionPlanSamples, SymbolicDumpPlans) {
  Dump dump = loaded("tests/data/mlp-dynamic.fathom.json");
  ASSERT_FALSE(dump.graphs.empty());
  auto plan = planFusion(dump.graphs[0].graph);
  ASSERT_TRUE(plan.ok()) << plan.error().str();
  expectValidPlan(dump.graphs[0].graph, *plan);
  const bool symbolic = std::any_of(plan->kernels.begin(), plan->kernels.end(), [](const FusedKernel& k) {
    return std::any_of(k.sizes.begin(), k.sizes.end(), [](const SymInt& s) { return s.isSymbolic(); });
  });
  EXPECT_TRUE(symbolic);
}

}  // namespace
}  // namespace fathom
