// Symbolic traces of the sample models with a real ShapeEnv: the guards and specializations each
// one records (golden, with provenance), the traced graph run at *other* sizes its guards accept
// (it must match eager execution at those sizes), and the guard set refusing sizes it must not
// accept.
#include <gtest/gtest.h>

#include "engine/core/Random.h"
#include "engine/frontend/ShapeTracing.h"
#include "engine/graph/GraphGuards.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"
#include "samples/models/Models.h"
#include "tests/engine/frontend/FrontendTestUtil.h"

namespace fathom {
namespace {

ShapeTrace traceDynamic(const std::string& name, const models::ModelOptions& options = {}) {
  auto model = models::buildModel(name, options);
  EXPECT_TRUE(model.ok()) << model.error().str();
  auto t = traceWithShapes(**model, dynamicShapes());
  EXPECT_TRUE(t.ok()) << t.error().str();
  return std::move(*t);
}

// "file" of "samples/models/BertModel.cpp:209": goldens do not move when a model line does.
std::string fileOf(const std::string& source) { return source.substr(0, source.rfind(':')); }

std::vector<std::string> describe(const sym::ShapeEnv& env) {
  std::vector<std::string> out;
  for (const auto& s : env.symbols()) {
    std::string line = "symbol " + s.name + " = " + std::to_string(s.hint) + " from";
    for (const auto& src : s.sources) line += " " + src;
    out.push_back(line);
  }
  for (const auto& g : env.guards())
    out.push_back("guard " + g.expr.str() + " | " + g.where.op + " | " + g.where.module + " | " + fileOf(g.where.source));
  for (const auto& s : env.specializations())
    out.push_back("specialization " + (s.symbol.empty() ? s.source : s.symbol) + " -> " + s.value.str() + " (" + s.kind +
                  ") | " + s.where.op + " | " + s.where.module);
  return out;
}

void expectGolden(const std::string& name, const std::vector<std::string>& expected) {
  const ShapeTrace t = traceDynamic(name);
  const auto actual = describe(*t.env);
  std::string all;
  for (const auto& l : actual) all += "  \"" + l + "\",\n";
  EXPECT_EQ(actual, expected) << name << " records:\n" << all;
  for (const auto& g : t.env->guards()) {
    EXPECT_EQ(g.where.stage, "trace");
    EXPECT_FALSE(g.where.node.empty());
    EXPECT_FALSE(g.reason.empty());
    EXPECT_NE(g.where.source.find("samples/models/"), std::string::npos) << g.expr.str();
  }
}

TEST(SymbolicTraceGolden, Mlp) {
  expectGolden("mlp", {
      "symbol s0 = 32 from x.size(0)",
      "symbol s1 = 784 from x.size(1)",
      "guard Eq(s1, 784) | aten.addmm.default | layers.0 | samples/models/MlpModel.cpp",
      "specialization s1 -> 784 (constant) | aten.addmm.default | layers.0",
  });
}

TEST(SymbolicTraceGolden, BertSymbolicBatchAndSequence) {
  // Duck sizing gives the mask the ids' symbols; the only guard is the position-embedding slice.
  expectGolden("bert", {
      "symbol s0 = 2 from input_ids.size(0) attention_mask.size(0)",
      "symbol s1 = 16 from input_ids.size(1) attention_mask.size(1)",
      "guard s1 < 512 | aten.slice.Tensor |  | samples/models/BertModel.cpp",
  });
}

TEST(SymbolicTraceGolden, ResNet18) {
  // Batch 1 is specialized; channels unify with the stem's 3; each stride-2 stage halves the
  // image size, and mkldnn's algorithm choice and the 1x1 final map are decisions too.
  expectGolden("resnet18", {
      "symbol s0 = 3 from x.size(1)",
      "symbol s1 = 32 from x.size(2) x.size(3)",
      "guard Eq(s0, 3) | aten.convolution.default | conv1 | samples/models/ResNet18.cpp",
      "guard Ne(((s1 + 1)//2), 1) | aten.relu.default | relu | samples/models/ResNet18.cpp",
      "guard 64*((s1 + 3)//4)**2 <= 20480 | aten.convolution.default | layer1.0.conv1 | samples/models/ResNet18.cpp",
      "guard Ne(((s1 + 3)//4), 1) | aten.relu.default | layer1.0.relu | samples/models/ResNet18.cpp",
      "guard Ne(((s1 + 7)//8), 1) | aten.relu.default | layer2.0.relu | samples/models/ResNet18.cpp",
      "guard 128*((s1 + 7)//8)**2 <= 20480 | aten.convolution.default | layer2.0.conv2 | samples/models/ResNet18.cpp",
      "guard Ne(((s1 + 15)//16), 1) | aten.relu.default | layer3.0.relu | samples/models/ResNet18.cpp",
      "guard 256*((s1 + 15)//16)**2 <= 20480 | aten.convolution.default | layer3.0.conv2 | samples/models/ResNet18.cpp",
      "guard Eq(((s1 + 31)//32), 1) | aten.relu.default | layer4.0.relu | samples/models/ResNet18.cpp",
      "guard Eq(((s1 + 31)//32)**2, 1) | aten.relu.default | layer4.0.relu | samples/models/ResNet18.cpp",
      "guard 512*((s1 + 31)//32)**2 <= 20480 | aten.convolution.default | layer4.0.conv2 | samples/models/ResNet18.cpp",
      "specialization x.size(0) -> 1 (zero-one) |  | ",
      "specialization s0 -> 3 (constant) | aten.convolution.default | conv1",
  });
}

TEST(SymbolicTraceGolden, Gpt2) {
  expectGolden("gpt2", {
      "symbol s0 = 2 from input_ids.size(0)",
      "symbol s1 = 16 from input_ids.size(1)",
  });
}

// The traced graph at sizes its guards accept reproduces eager execution at those sizes.
void expectRunsAt(const std::string& name, const models::ModelOptions& other, const models::ModelOptions& traced = {}) {
  SCOPED_TRACE(name);
  const ShapeTrace t = traceDynamic(name, traced);
  const Graph& graph = t.dump.graphs.at(0).graph;
  auto model = models::buildModel(name, other);
  ASSERT_TRUE(model.ok()) << model.error().str();
  const auto inputs = frontend::exampleInputs(**model);
  auto guards = guardSetOf(graph, *t.env);
  ASSERT_TRUE(guards.ok()) << guards.error().str();
  ASSERT_TRUE(guards->check(inputSizes(inputs))) << "the guards refuse the sizes this test runs";
  manualSeed(3);
  auto eager = frontend::runEager(**model);
  ASSERT_TRUE(eager.ok()) << eager.error().str();
  auto drawn = materializeInputs(inputs);
  ASSERT_TRUE(drawn.ok()) << drawn.error().str();
  manualSeed(3);
  Interpreter interp(graph);
  auto out = interp.run(std::move(*drawn));
  ASSERT_TRUE(out.ok()) << out.error().str();
  ASSERT_EQ(out->size(), eager->outputs.size());
  for (size_t i = 0; i < out->size(); ++i)
    EXPECT_TRUE(fathom::testing::sameTensor((*out)[i].as<Tensor>(), eager->outputs[i].as<Tensor>())) << "output " << i;
}

TEST(SymbolicTraceRun, GraphsRunAtOtherSizesAndMatchEager) {
  expectRunsAt("mlp", {.batch = 5});
  expectRunsAt("bert", {.batch = 3, .seq = 9});
  expectRunsAt("gpt2", {.batch = 3, .seq = 7});
  expectRunsAt("resnet18", {.seq = 56}, {.seq = 64});  // every stage's map stays larger than 1x1
}

TEST(SymbolicTraceRun, GuardSetsRefuseWhatTheTraceDoesNotCover) {
  auto refuses = [](const std::string& name, const models::ModelOptions& other, const std::string& expr) {
    const ShapeTrace t = traceDynamic(name);
    auto guards = guardSetOf(t.dump.graphs.at(0).graph, *t.env);
    ASSERT_TRUE(guards.ok());
    auto model = models::buildModel(name, other);
    ASSERT_TRUE(model.ok());
    const auto sizes = inputSizes(frontend::exampleInputs(**model));
    EXPECT_FALSE(guards->check(sizes)) << name;
    bool named = false;
    for (const auto& f : guards->failures(sizes)) named |= f.expr == expr;
    EXPECT_TRUE(named) << name << " should fail " << expr;
  };
  refuses("bert", {.batch = 1}, "s0 >= 2");
  refuses("resnet18", {.seq = 64}, "Eq(((s1 + 31)//32), 1)");
  refuses("resnet18", {.batch = 2}, "x.size(0) == 1");
}

}  // namespace
}  // namespace fathom
