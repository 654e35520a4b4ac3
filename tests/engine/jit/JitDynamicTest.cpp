// Symbolic graphs through the jit: compiled once, run at the trace's sizes and at other sizes
// (every symbol doubled), each run matching the eager interpreter at those sizes - one generated
// kernel serves every size (its symbolic sizes and strides are runtime parameters).
#include <gtest/gtest.h>

#include <map>

#include "engine/dump/Dump.h"
#include "engine/frontend/ShapeTracing.h"
#include "engine/symbolic/ShapeEnv.h"
#include "samples/models/Models.h"
#include "tests/TestDataDir.h"
#include "tests/engine/jit/JitTestSupport.h"

namespace fathom {
namespace {

// The inputs of `g` with every symbol of `env` at `scale` times its hint.
Result<ValueList> inputsAt(const Graph& g, const std::vector<ExampleInput>& recorded, const sym::ShapeEnv& env, int64_t scale) {
  std::map<std::string, int64_t> symbols;
  for (size_t i = 0; i < env.symbols().size(); ++i) symbols[sym::symbolName(static_cast<int32_t>(i))] = env.symbols()[i].hint * scale;
  auto resized = resizeInputs(g, recorded, symbols);
  FATHOM_TRY(resized);
  return materializeInputs(*resized);
}

void expectEveryGraphAtTwoSizes(const Dump& dump) {
  ASSERT_NE(dump.shapeEnv, nullptr);
  for (const NamedGraph& g : dump.graphs) {
    SCOPED_TRACE(g.name);
    auto recorded = chooseInputs(&g.graph, g.name, dump.inputsFor(g.name), nullptr);
    ASSERT_TRUE(recorded.ok()) << recorded.error().str();
    auto cg = CompiledGraph::compile(g.graph, {});
    ASSERT_TRUE(cg.ok()) << cg.error().str();
    EXPECT_GT((*cg)->generatedKernels(), 0);
    for (int64_t scale : {1, 2}) {
      SCOPED_TRACE("sizes x" + std::to_string(scale));
      auto inputs = inputsAt(g.graph, *recorded, *dump.shapeEnv, scale);
      ASSERT_TRUE(inputs.ok()) << inputs.error().str();
      auto eager = DebugInterpreter(g.graph).run(*inputs);
      ASSERT_TRUE(eager.ok()) << eager.error().str();
      auto jit = (*cg)->run(*inputs);
      ASSERT_TRUE(jit.ok()) << jit.error().str();
      ASSERT_EQ(jit->size(), eager->size());
      for (size_t i = 0; i < jit->size(); ++i) testing::expectSameValue((*jit)[i], (*eager)[i], "output " + std::to_string(i), 1e-4, 1e-5);
    }
  }
}

TEST(JitDynamic, SymbolicDumpsRunAtOtherSizes) {
  FATHOM_SKIP_WITHOUT_JIT();
  for (const char* name : {"tests/data/mlp-dynamic.fathom.json", "tests/data/torch2-dynamic.fathom.json"}) {
    SCOPED_TRACE(name);
    auto dump = loadDump((std::filesystem::path(FATHOM_TEST_DATA_DIR) / name).string(), {});
    ASSERT_TRUE(dump.ok()) << dump.error().str();
    expectEveryGraphAtTwoSizes(*dump);
  }
}

TEST(JitDynamic, DynamicModelsRunAtOtherSizes) {
  FATHOM_SKIP_WITHOUT_JIT();
  for (const char* model : {"mlp", "bert", "gpt2"}) {
    SCOPED_TRACE(model);
    auto built = models::buildModel(model, {.layers = 2, .batch = 2, .seq = 8});
    ASSERT_TRUE(built.ok()) << built.error().str();
    ShapeTraceOptions options;
    options.dynamic = true;
    auto trace = traceWithShapes(**built, options);
    ASSERT_TRUE(trace.ok()) << trace.error().str();
    expectEveryGraphAtTwoSizes(trace->dump);
  }
}

}  // namespace
}  // namespace fathom
