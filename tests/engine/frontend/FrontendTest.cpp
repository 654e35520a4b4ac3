// The frontend runs the same model code eagerly or as a trace: traced graphs record make_fx's
// decompositions, run in the Interpreter to the eager results, carry the model's source lines
// and module paths, and call the trace hooks once per input dim and per call node.
#include <gtest/gtest.h>

#include "engine/frontend/OpCall.h"
#include "engine/frontend/Layers.h"
#include "engine/frontend/Model.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"
#include "tests/engine/frontend/FrontendTestUtil.h"

namespace fathom::frontend {
namespace {

using fathom::testing::sameTensor;

// A model whose forward is a function of its inputs; parameters come from a Linear and a
// LayerNorm so module paths and placeholders are exercised too.
class FunctionModel : public Model {
 public:
  using Forward = std::function<std::vector<Tensor>(FunctionModel&, const std::vector<Tensor>&)>;
  FunctionModel(std::vector<ExampleInput> inputs, Forward f)
      : inputs_(std::move(inputs)), forward_(std::move(f)), proj_(addModule<Linear>("proj", 8, 6)),
        norm_(addModule<LayerNorm>("norm", 6)) {}

  std::vector<ExampleInput> inputSpecs() const override { return inputs_; }
  std::vector<Tensor> forward(const std::vector<Tensor>& in) override { return forward_(*this, in); }

  std::vector<ExampleInput> inputs_;
  Forward forward_;
  Linear& proj_;
  LayerNorm& norm_;
};

// Traces `model`, runs the graph on the dump's example inputs and compares with runEager.
void expectTraceMatchesEager(Model& model) {
  auto eager = runEager(model);
  ASSERT_TRUE(eager.ok()) << eager.error().str();
  auto dump = trace(model);
  ASSERT_TRUE(dump.ok()) << dump.error().str();
  const Graph& g = dump->graphs.at(0).graph;
  ASSERT_TRUE(g.verify().ok());
  auto inputs = materializeInputs(dump->inputs.at(0).second);
  ASSERT_TRUE(inputs.ok()) << inputs.error().str();
  Interpreter interp(g);
  auto out = interp.run(std::move(*inputs));
  ASSERT_TRUE(out.ok()) << out.error().str();
  ASSERT_EQ(out->size(), eager->outputs.size());
  for (size_t i = 0; i < out->size(); ++i)
    EXPECT_TRUE(sameTensor((*out)[i].as<fathom::Tensor>(), eager->outputs[i].as<fathom::Tensor>())) << "output " << i;
}

std::vector<std::string> callTargets(const Graph& g) {
  std::vector<std::string> out;
  for (const Node& n : g.nodes())
    if (n.kind == NodeKind::Call) out.push_back(n.target);
  return out;
}

Graph traceOf(Model& model, const TraceHooks& hooks = {}) {
  auto dump = trace(model, hooks);
  EXPECT_TRUE(dump.ok()) << dump.error().str();
  return dump.ok() ? std::move(dump->graphs.at(0).graph) : Graph{};
}

TEST(FrontendTest, LinearRecordsMakeFxDecomposition) {
  // Contiguous 3-d input: at::linear's fused path; 2-d: t + addmm.
  FunctionModel model({inputSpec("x", DType::Float32, {2, 4, 8}), inputSpec("y", DType::Float32, {3, 8})},
                      [](FunctionModel& m, const std::vector<Tensor>& in) {
                        return std::vector<Tensor>{m.proj_.forward(in[0]), m.proj_.forward(in[1])};
                      });
  const std::vector<std::string> expected = {"aten.t.default", "aten.view.default", "aten.addmm.default",
                                             "aten.view.default", "aten.t.default", "aten.addmm.default"};
  EXPECT_EQ(callTargets(traceOf(model)), expected);
  expectTraceMatchesEager(model);
}

TEST(FrontendTest, MatmulAndReshapeFollowAtenDecompositions) {
  // [2, 3, 4, 5] @ [2, 3, 5, 6]: expand + _reshape_alias (a view) + bmm + _unsafe_view; with a
  // permuted operand reshape cannot view, so it copies (clone + _unsafe_view).
  FunctionModel model({inputSpec("a", DType::Float32, {2, 3, 4, 5}), inputSpec("b", DType::Float32, {2, 3, 5, 6})},
                      [](FunctionModel&, const std::vector<Tensor>& in) {
                        const Tensor plain = matmul(in[0], in[1]);
                        const Tensor permuted = matmul(permute(in[0], {1, 0, 2, 3}), permute(in[1], {1, 0, 2, 3}));
                        return std::vector<Tensor>{plain, permuted};
                      });
  const Graph g = traceOf(model);
  const std::vector<std::string> targets = callTargets(g);
  const std::vector<std::string> plain = {"aten.expand.default", "aten._reshape_alias.default", "aten.expand.default",
                                          "aten._reshape_alias.default", "aten.bmm.default",
                                          "aten._unsafe_view.default"};
  ASSERT_GE(targets.size(), plain.size());
  EXPECT_EQ(std::vector<std::string>(targets.begin(), targets.begin() + 6), plain);
  EXPECT_NE(std::find(targets.begin(), targets.end(), "aten.clone.default"), targets.end());
  const Node& alias = g.node(*g.find("_reshape_alias"));
  EXPECT_EQ(alias.val.as<TensorMeta>().str(), "f32[6, 4, 5] [20, 5, 1]");
  expectTraceMatchesEager(model);
}

TEST(FrontendTest, OpsAgreeEagerAndTraced) {
  // A mix of the ops the models do not all use: cat, split, where/tril/ones, masked_fill, flatten.
  FunctionModel model({inputSpec("x", DType::Float32, {2, 4, 8})}, [](FunctionModel& m, const std::vector<Tensor>& in) {
    const Tensor h = m.norm_.forward(gelu(m.proj_.forward(in[0])));
    const std::vector<Tensor> parts = split(h, 2, 2);
    const Tensor joined = cat({parts[2], parts[0], parts[1]}, -1);
    const Tensor mask = tril(ones({4, 6}, DType::Bool));
    const Tensor masked = where(mask, joined, full({}, -1.5, DType::Float32));
    const Tensor filled = maskedFill(masked, mask, 0.25);
    const Tensor flat = flatten(permute(filled, {1, 0, 2}), 1);
    return std::vector<Tensor>{softmax(flat, -1), mean(joined, {-1}, true), exp(neg(sigmoid(flat)))};
  });
  expectTraceMatchesEager(model);
}

TEST(FrontendTest, ParametersArePlaceholdersWithModulePaths) {
  FunctionModel model({inputSpec("x", DType::Float32, {2, 4, 8})},
                      [](FunctionModel& m, const std::vector<Tensor>& in) {
                        return std::vector<Tensor>{m.norm_.forward(m.proj_.forward(in[0]))};
                      });
  const Graph g = traceOf(model);
  std::vector<std::string> names;
  for (NodeRef r : g.placeholders()) names.push_back(g.node(r).name);
  EXPECT_EQ(names, (std::vector<std::string>{"proj.weight", "proj.bias", "norm.weight", "norm.bias", "x"}));
  const Node& addmm = g.node(*g.find("addmm"));
  EXPECT_EQ(addmm.provenance.module, "proj");
  // The layer's nodes point at the line that called the layer, in this file.
  EXPECT_TRUE(addmm.provenance.source.starts_with("tests/engine/frontend/FrontendTest.cpp:"))
      << addmm.provenance.source;
  EXPECT_EQ(g.node(*g.find("native_layer_norm")).provenance.module, "norm");
}

TEST(FrontendTest, ErrorsNameTheModelLine) {
  FunctionModel model({inputSpec("x", DType::Float32, {2, 3}), inputSpec("y", DType::Float32, {4, 5})},
                      [](FunctionModel&, const std::vector<Tensor>& in) {
                        return std::vector<Tensor>{mm(in[0], in[1])};
                      });
  auto eager = runEager(model);
  ASSERT_FALSE(eager.ok());
  EXPECT_NE(eager.error().message.find("mat1 and mat2 shapes cannot be multiplied"), std::string::npos)
      << eager.error().str();
  EXPECT_NE(eager.error().where.find("FrontendTest.cpp:"), std::string::npos) << eager.error().str();
  auto traced = trace(model);
  ASSERT_FALSE(traced.ok());
  EXPECT_NE(traced.error().where.find("%mm (tests/engine/frontend/FrontendTest.cpp:"), std::string::npos)
      << traced.error().str();
}

TEST(FrontendHooksTest, MakeSizeIsCalledOncePerInputDim) {
  FunctionModel model({inputSpec("x", DType::Float32, {2, 4, 8})},
                      [](FunctionModel& m, const std::vector<Tensor>& in) {
                        return std::vector<Tensor>{m.proj_.forward(in[0])};
                      });
  std::vector<std::pair<int64_t, std::string>> calls;
  TraceHooks hooks;
  hooks.makeSize = [&](int64_t hint, const std::string& source) {
    calls.emplace_back(hint, source);
    return SymInt(hint);
  };
  (void)traceOf(model, hooks);
  const std::vector<std::pair<int64_t, std::string>> expected = {{2, "x.size(0)"}, {4, "x.size(1)"}, {8, "x.size(2)"}};
  EXPECT_EQ(calls, expected);  // parameters keep static sizes: no calls for them
}

TEST(FrontendHooksTest, BeforeNodeSeesEveryCallNodeBeforeItsMeta) {
  FunctionModel model({inputSpec("x", DType::Float32, {2, 4, 8})},
                      [](FunctionModel& m, const std::vector<Tensor>& in) {
                        return std::vector<Tensor>{relu(m.norm_.forward(m.proj_.forward(in[0])))};
                      });
  std::vector<NodeContext> seen;
  TraceHooks hooks;
  hooks.beforeNode = [&](const NodeContext& c) { seen.push_back(c); };
  const Graph g = traceOf(model, hooks);
  std::vector<const Node*> calls;
  for (const Node& n : g.nodes())
    if (n.kind == NodeKind::Call) calls.push_back(&n);
  ASSERT_EQ(seen.size(), calls.size());
  for (size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(seen[i].node, calls[i]->name);
    EXPECT_EQ(seen[i].op, calls[i]->target);
    EXPECT_EQ(seen[i].module, calls[i]->provenance.module);
    EXPECT_EQ(seen[i].source, calls[i]->provenance.source);
  }
  EXPECT_EQ(seen[2].node, "addmm");
  EXPECT_EQ(seen[2].module, "proj");
  EXPECT_EQ(seen[2].argNames, (std::vector<std::string>{"proj.bias", "view", "t"}));
}

TEST(FrontendSymbolicTest, SymbolicSizesBecomeSizeNodes) {
  // With symbolic input sizes the fused linear records make_fx's symbolic graph: sym_size
  // nodes read where first used, operator.mul for batch * seq, views over those nodes.
  FunctionModel model({inputSpec("x", DType::Float32, {2, 4, 8})},
                      [](FunctionModel& m, const std::vector<Tensor>& in) {
                        return std::vector<Tensor>{m.proj_.forward(in[0])};
                      });
  TraceHooks hooks;
  int next = 0;
  hooks.makeSize = [&](int64_t hint, const std::string&) {
    return fathom::testing::hintSymbol("s" + std::to_string(next++), hint);
  };
  const Graph g = traceOf(model, hooks);
  const std::vector<std::string> expected = {"aten.t.default", "aten.sym_size.default", "aten.sym_size.default",
                                             "operator.mul", "aten.sym_size.default", "aten.view.default",
                                             "aten.addmm.default", "aten.view.default"};
  EXPECT_EQ(callTargets(g), expected);
  EXPECT_EQ(g.node(*g.find("mul")).val.as<SymInt>().str(), "(s0*s1)");
  EXPECT_EQ(g.node(*g.find("view_1")).val.as<TensorMeta>().str(), "f32[s0, s1, 6] [((6*s1)*1), 6, 1]");

  // The graph runs on other sizes than it was traced with, and agrees with eager there.
  auto x = fathom::Tensor::empty({3, 5, 8}, DType::Float32);
  ASSERT_TRUE(x.ok());
  for (int64_t i = 0; i < x->numel(); ++i) x->setLinear(i, 0.01 * static_cast<double>(i % 17) - 0.05);
  auto eager = runEager(model, {*x});
  ASSERT_TRUE(eager.ok()) << eager.error().str();
  ValueList inputs;
  for (Parameter* p : model.parameters()) inputs.push_back(p->tensor().real());
  inputs.push_back(*x);
  Interpreter interp(g);
  auto out = interp.run(std::move(inputs));
  ASSERT_TRUE(out.ok()) << out.error().str();
  EXPECT_TRUE(sameTensor((*out)[0].as<fathom::Tensor>(), (*eager)[0].as<fathom::Tensor>()));
}

TEST(FrontendSymIntOpsTest, SizeNodesRunInTheInterpreter) {
  // x.size(0) * x.size(1), x.size(1) // 2, and views sized by them, in a hand-made graph.
  GraphBuilder b;
  const SymIntList sizes{fathom::testing::hintSymbol("s0", 4), fathom::testing::hintSymbol("s1", 6)};
  NodeRef x = b.input("x", fakeTensor(DType::Float32, sizes));
  NodeRef s0 = b.call("aten.sym_size.default", {x, 0});
  NodeRef s1 = b.call("aten.sym_size.default", {x, 1});
  NodeRef n = b.call("operator.mul", {s0, s1});
  NodeRef half = b.call("operator.floordiv", {s1, 2});
  NodeRef plus = b.call("operator.sub", {b.call("operator.add", {n, 3}), s0});
  NodeRef flat = b.call("aten.view.default", {x, ValueList{n}});
  NodeRef split = b.call("aten._unsafe_view.default", {x, ValueList{s0, half, 2}});
  b.output({flat, split, plus});
  auto g = b.finish();
  ASSERT_TRUE(g.ok()) << g.error().str();
  EXPECT_EQ(g->node(n).target, "operator.mul");
  EXPECT_EQ(g->node(n).name, "mul");
  EXPECT_EQ(g->node(split).val.as<TensorMeta>().str(), "f32[s0, (s1//2), 2] [((2*(s1//2))*1), 2, 1]");

  auto real = fathom::Tensor::empty({3, 8}, DType::Float32);
  ASSERT_TRUE(real.ok());
  Interpreter interp(*g);
  auto out = interp.run({*real});
  ASSERT_TRUE(out.ok()) << out.error().str();
  EXPECT_EQ((*out)[0].as<fathom::Tensor>().sizes(), (IntList{24}));
  EXPECT_EQ((*out)[1].as<fathom::Tensor>().sizes(), (IntList{3, 4, 2}));
  EXPECT_EQ((*out)[2].as<SymInt>().hint(), 24 + 3 - 3);
}

TEST(FrontendSymIntOpsTest, OperatorOpsHaveNoOverloadName) {
  const OpDef* mul = OpRegistry::global().find("operator.mul");
  ASSERT_NE(mul, nullptr);
  EXPECT_EQ(mul->schema.qualifiedName(), "operator.mul");
  EXPECT_NE(OpRegistry::global().find("aten.sym_size.default"), nullptr);
  auto bound = bindArguments(mul->schema, {int64_t{6}, int64_t{7}}, {});
  ASSERT_TRUE(bound.ok());
  auto r = callKernel(*mul, *bound);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].as<SymInt>().hint(), 42);
  const OpDef* div = OpRegistry::global().find("operator.floordiv");
  auto zero = callKernel(*div, {int64_t{6}, int64_t{0}});
  EXPECT_FALSE(zero.ok());
}

}  // namespace
}  // namespace fathom::frontend
