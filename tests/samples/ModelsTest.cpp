// Every frontend model traces into a graph that verifies and, run by the Interpreter on the
// dump's example inputs, reproduces the model's eager outputs; the graph's nodes point at the
// model's source lines and module paths; the trace hooks see every input size and call node.
#include "samples/models/Models.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "engine/core/Random.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"
#include "tests/engine/frontend/FrontendTestUtil.h"
#include "tests/TestDataDir.h"

namespace fathom::models {
namespace {

using fathom::testing::sameTensor;

// What the traced graph's placeholders take: the dump's example inputs drawn again (the
// contract a dump makes), or - cheaper - the tensors the eager run used.
enum class Inputs { FromDump, FromEagerRun };

void expectTraceMatchesEager(const std::string& name, const ModelOptions& options,
                             const frontend::TraceHooks& hooks = {}, Inputs source = Inputs::FromEagerRun) {
  SCOPED_TRACE(name);
  auto model = buildModel(name, options);
  ASSERT_TRUE(model.ok()) << model.error().str();
  manualSeed(7);
  auto eager = frontend::runEager(**model);
  ASSERT_TRUE(eager.ok()) << eager.error().str();
  auto dump = frontend::trace(**model, hooks);
  ASSERT_TRUE(dump.ok()) << dump.error().str();
  ASSERT_TRUE(dump->graphs.at(0).graph.verify().ok());
  ValueList inputs;
  if (source == Inputs::FromDump) {
    auto drawn = materializeInputs(dump->inputs.at(0).second);
    ASSERT_TRUE(drawn.ok()) << drawn.error().str();
    inputs = std::move(*drawn);
  } else {
    for (auto* p : (*model)->parameters()) inputs.push_back(p->tensor().real());
    for (auto* p : (*model)->buffers()) inputs.push_back(p->tensor().real());
    inputs.insert(inputs.end(), eager->inputs.begin(), eager->inputs.end());
  }
  manualSeed(7);
  Interpreter interp(dump->graphs.at(0).graph);
  auto out = interp.run(std::move(inputs));
  ASSERT_TRUE(out.ok()) << out.error().str();
  ASSERT_EQ(out->size(), eager->outputs.size());
  for (size_t i = 0; i < out->size(); ++i)
    EXPECT_TRUE(sameTensor((*out)[i].as<Tensor>(), eager->outputs[i].as<Tensor>())) << "output " << i;
}

// The text of `source` ("samples/models/BertModel.cpp:57").
std::string sourceText(const std::string& source) {
  const size_t colon = source.rfind(':');
  std::ifstream in(std::string(FATHOM_TEST_DATA_DIR) + "/" + source.substr(0, colon));
  const int line = std::stoi(source.substr(colon + 1));
  std::string text;
  for (int i = 0; i < line && std::getline(in, text); ++i) {
  }
  return text;
}

const Node* findCall(const Graph& g, std::string_view op, std::string_view module) {
  for (const Node& n : g.nodes())
    if (n.kind == NodeKind::Call && n.target == op && n.provenance.module == module) return &n;
  return nullptr;
}

TEST(ModelsTest, RegistryListsTheModels) {
  std::vector<std::string> names;
  for (const auto& m : allModels()) {
    names.push_back(m.name);
    EXPECT_FALSE(m.description.empty());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"mlp", "bert", "resnet18", "gpt2"}));
  EXPECT_FALSE(buildModel("nope").ok());
  EXPECT_FALSE(buildModel("bert", {.seq = 513}).ok());
  EXPECT_FALSE(buildModel("resnet18", {.layers = 34}).ok());
}

TEST(ModelsTest, TracedGraphsMatchEagerRuns) {
  for (const auto& m : allModels()) expectTraceMatchesEager(m.name, {}, {}, Inputs::FromDump);
}

TEST(ModelsTest, TrainModeMatchesToo) {
  // Dropout draws the same masks from the same seed; batch norm uses batch statistics (and
  // updates its running ones in place: the dump's fresh draws must still give the same output).
  expectTraceMatchesEager("bert", {.layers = 1, .training = true});
  expectTraceMatchesEager("gpt2", {.layers = 1, .training = true});
  expectTraceMatchesEager("resnet18", {.batch = 2, .training = true}, {}, Inputs::FromDump);
}

TEST(ModelsTest, OtherSizesWork) {
  expectTraceMatchesEager("mlp", {.layers = 5, .batch = 3});
  expectTraceMatchesEager("bert", {.layers = 1, .batch = 1, .seq = 7});
  expectTraceMatchesEager("gpt2", {.layers = 1, .batch = 3, .seq = 5});
  expectTraceMatchesEager("resnet18", {.seq = 40});
}

TEST(ModelsTest, BertBenchmarkSizeTraces) {
  auto dump = traceModel("bert", {.layers = 12, .batch = 8, .seq = 128});
  ASSERT_TRUE(dump.ok()) << dump.error().str();
  const Graph& g = dump->graphs.at(0).graph;
  const Node* out = g.outputNode();
  ASSERT_NE(out, nullptr);
  const auto& results = out->args.at(0).as<ValueList>();
  EXPECT_EQ(g.node(results.at(0).as<NodeRef>()).val.as<TensorMeta>().str(), "f32[8, 128, 768] [98304, 768, 1]");
  EXPECT_NE(findCall(g, "aten.addmm.default", "encoder.layer.11.output.dense"), nullptr);
}

TEST(ModelsTest, NodesPointAtModelLinesAndModules) {
  struct Expect {
    std::string model, op, module, file, text;
  };
  const std::vector<Expect> cases = {
      {"mlp", "aten.addmm.default", "layers.2", "MlpModel.cpp", "linears_[i]->forward"},
      {"mlp", "aten.relu.default", "layers.1", "MlpModel.cpp", "relus_[i]->forward"},
      {"bert", "aten.addmm.default", "encoder.layer.1.attention.self.query", "BertModel.cpp", "query_.forward"},
      {"bert", "aten._softmax.default", "encoder.layer.0.attention.self", "BertModel.cpp", "softmax("},
      {"bert", "aten.native_layer_norm.default", "encoder.layer.0.output.LayerNorm", "BertModel.cpp", "norm_.forward"},
      {"bert", "aten.embedding.default", "embeddings.word_embeddings", "BertModel.cpp", "words_.forward"},
      {"resnet18", "aten.convolution.default", "layer2.0.downsample.0", "ResNet18.cpp", "conv_.forward"},
      {"resnet18", "aten.native_batch_norm.default", "bn1", "ResNet18.cpp", "bn1_.forward"},
      {"resnet18", "aten.mean.dim", "", "ResNet18.cpp", "adaptiveAvgPool2d1x1"},
      {"gpt2", "aten.addmm.default", "h.1.attn.c_attn", "Gpt2Model.cpp", "addmm("},
      {"gpt2", "aten.where.self", "h.0.attn", "Gpt2Model.cpp", "where("},
      {"gpt2", "aten.tanh.default", "h.0.mlp.act", "Gpt2Model.cpp", "tanh("},
  };
  std::string lastModel;
  Result<Dump> dump = invalidInput("none");
  for (const Expect& e : cases) {
    SCOPED_TRACE(e.model + " " + e.op + " in '" + e.module + "'");
    if (e.model != lastModel) {
      dump = traceModel(e.model);
      lastModel = e.model;
    }
    ASSERT_TRUE(dump.ok()) << dump.error().str();
    const Node* n = findCall(dump->graphs.at(0).graph, e.op, e.module);
    ASSERT_NE(n, nullptr);
    EXPECT_TRUE(n->provenance.source.starts_with("samples/models/" + e.file + ":")) << n->provenance.source;
    EXPECT_NE(sourceText(n->provenance.source).find(e.text), std::string::npos)
        << n->provenance.source << ": " << sourceText(n->provenance.source);
  }
}

TEST(ModelsTest, PlaceholdersAreParametersBuffersThenInputs) {
  auto dump = traceModel("bert", {.layers = 1});
  ASSERT_TRUE(dump.ok()) << dump.error().str();
  const Graph& g = dump->graphs.at(0).graph;
  std::vector<std::string> names;
  for (NodeRef r : g.placeholders()) names.push_back(g.node(r).name);
  ASSERT_GE(names.size(), 4u);
  EXPECT_EQ(names.front(), "embeddings.word_embeddings.weight");
  EXPECT_NE(std::find(names.begin(), names.end(), "encoder.layer.0.attention.self.query.weight"), names.end());
  EXPECT_EQ(std::vector<std::string>(names.end() - 4, names.end()),
            (std::vector<std::string>{"embeddings.position_ids", "embeddings.token_type_ids", "input_ids",
                                      "attention_mask"}));
  // Example inputs line up with the placeholders, and the dump survives a write and read.
  const auto& inputs = dump->inputs.at(0).second;
  ASSERT_EQ(inputs.size(), names.size());
  for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(inputs[i].name, names[i]);
  auto reread = parseDump(serializeDump(*dump), "bert");
  ASSERT_TRUE(reread.ok()) << reread.error().str();
  EXPECT_EQ(serializeDump(*reread), serializeDump(*dump));
}

TEST(ModelsTest, HooksSeeInputSizesAndEveryCallNode) {
  std::vector<std::string> sources;
  std::vector<frontend::NodeContext> seen;
  frontend::TraceHooks hooks;
  hooks.makeSize = [&](int64_t hint, const std::string& source) {
    sources.push_back(source);
    return SymInt(hint);
  };
  hooks.beforeNode = [&](const frontend::NodeContext& c) { seen.push_back(c); };
  auto dump = traceModel("bert", {.layers = 1}, hooks);
  ASSERT_TRUE(dump.ok()) << dump.error().str();
  EXPECT_EQ(sources, (std::vector<std::string>{"input_ids.size(0)", "input_ids.size(1)", "attention_mask.size(0)",
                                               "attention_mask.size(1)"}));
  size_t calls = 0;
  for (const Node& n : dump->graphs.at(0).graph.nodes()) {
    if (n.kind != NodeKind::Call) continue;
    ASSERT_LT(calls, seen.size());
    EXPECT_EQ(seen[calls].node, n.name);
    EXPECT_EQ(seen[calls].op, n.target);
    EXPECT_EQ(seen[calls].module, n.provenance.module);
    ++calls;
  }
  EXPECT_EQ(calls, seen.size());
}

TEST(ModelsTest, SymbolicTracesRunAndMatchEager) {
  // Input sizes as symbols (answered by their hints, no ShapeEnv): size arithmetic becomes
  // sym_size / operator nodes, and the graph still reproduces the eager outputs.
  for (const auto& m : allModels()) {
    int next = 0;
    frontend::TraceHooks hooks;
    hooks.makeSize = [&](int64_t hint, const std::string&) {
      return fathom::testing::hintSymbol("s" + std::to_string(next++), hint);
    };
    const ModelOptions options{.layers = m.name == "resnet18" ? 18 : 1};
    expectTraceMatchesEager(m.name, options, hooks);
    auto dump = traceModel(m.name, options, hooks);
    ASSERT_TRUE(dump.ok()) << dump.error().str();
    std::set<std::string> ops;
    for (const Node& n : dump->graphs.at(0).graph.nodes()) ops.insert(n.target);
    // The MLP reads no sizes: its 2-d linears are t + addmm.
    EXPECT_EQ(ops.count("aten.sym_size.default"), m.name == "mlp" ? 0u : 1u) << m.name;
  }
}

}  // namespace
}  // namespace fathom::models
