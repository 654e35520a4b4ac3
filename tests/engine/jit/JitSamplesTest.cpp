// The jit backend on real graphs: every dump in samples/ and tests/data/ and every sample model,
// static and symbolic, matches the eager interpreter output for output.
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/dump/Dump.h"
#include "samples/models/Models.h"
#include "tests/TestDataDir.h"
#include "tests/engine/jit/JitTestSupport.h"

namespace fathom {
namespace {

namespace fs = std::filesystem;

void expectDumpMatches(const Dump& dump, int64_t* generated) {
  for (const NamedGraph& g : dump.graphs) {
    SCOPED_TRACE(g.name);
    auto chosen = chooseInputs(&g.graph, g.name, dump.inputsFor(g.name), nullptr);
    if (!chosen.ok()) continue;  // a graph with no inputs to draw (opaque meta): nothing to run
    auto inputs = materializeInputs(*chosen);
    ASSERT_TRUE(inputs.ok()) << inputs.error().str();
    auto eager = DebugInterpreter(g.graph).run(*inputs);
    if (!eager.ok()) continue;  // graphs that do not run eagerly either (bad samples) say so elsewhere
    auto cg = testing::expectJitMatchesEager(g.graph, *inputs, 1e-4, 1e-5);
    if (cg) *generated += cg->generatedKernels();
  }
}

TEST(JitSamples, EveryDumpMatchesEager) {
  FATHOM_SKIP_WITHOUT_JIT();
  int64_t generated = 0;
  for (const char* dir : {"samples", "tests/data"}) {
    for (const auto& e : fs::directory_iterator(fs::path(FATHOM_TEST_DATA_DIR) / dir)) {
      const std::string name = e.path().filename().string();
      if (name.size() < 12 || name.substr(name.size() - 12) != ".fathom.json") continue;
      // Their meta lies (a transpose's strides; an input's): the jit trusts the lie, on purpose
      // (JitStrideStoryTest).
      if (name == "torch-fake-meta-lies.fathom.json" || name == "jit-input-stride-lie.fathom.json") continue;
      SCOPED_TRACE(name);
      auto dump = loadDump(e.path().string(), {.keepUnknownOps = true});
      ASSERT_TRUE(dump.ok()) << dump.error().str();
      expectDumpMatches(*dump, &generated);
    }
  }
  EXPECT_GT(generated, 10);
}

TEST(JitSamples, EveryModelMatchesEager) {
  FATHOM_SKIP_WITHOUT_JIT();
  for (const auto& info : models::allModels()) {
    SCOPED_TRACE(info.name);
    int64_t generated = 0;
    auto dump = models::traceModel(info.name);
    ASSERT_TRUE(dump.ok()) << dump.error().str();
    expectDumpMatches(*dump, &generated);
    EXPECT_GT(generated, 0);
  }
}

}  // namespace
}  // namespace fathom
