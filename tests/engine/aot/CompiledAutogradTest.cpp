// Compiled autograd: the first backward captures the tape as a graph, later ones over a tape of
// the same structure replay it (with their own saved tensors and hooks) and agree with the
// engine; a size change captures again and says why.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/aot/CompiledAutograd.h"
#include "engine/autograd/Autograd.h"
#include "engine/frontend/OpCall.h"
#include "engine/frontend/Functional.h"
#include "engine/interp/ExampleInputs.h"
#include "samples/models/Models.h"
#include "tests/engine/autograd/AutogradTestUtil.h"

namespace fathom::aot {
namespace {

using frontend::Tensor;
using testing::valuesOf;

Tensor drawn(const IntList& sizes, uint64_t seed) {
  ExampleInput in;
  in.meta = fakeTensor(DType::Float64, {sizes.begin(), sizes.end()});
  in.seed = seed;
  Tensor t = Tensor::eager((*materializeInputs({in}))[0].as<fathom::Tensor>());
  autograd::setRequiresGrad(t);
  return t;
}

struct Step {
  Tensor x, w, h, loss;
};

// loss = sum(relu(x @ w) * 3); h = x @ w is kept so a test can hook it.
Step forward(int64_t batch, uint64_t seed) {
  Step s;
  s.x = drawn({batch, 4}, seed);
  s.w = drawn({4, 3}, seed + 1);
  s.h = frontend::mm(s.x, s.w);
  s.loss = frontend::sum(frontend::mul(frontend::relu(s.h), 3.0), {0, 1});
  return s;
}

void expectClose(const TensorList& a, const TensorList& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const auto x = valuesOf(a[i]), y = valuesOf(b[i]);
    ASSERT_EQ(x.size(), y.size());
    for (size_t k = 0; k < x.size(); ++k) EXPECT_NEAR(x[k], y[k], 1e-12) << "gradient " << i << " element " << k;
  }
}

TensorList engineGrads(int64_t batch, uint64_t seed) {
  Step s = forward(batch, seed);
  return autograd::grad({s.loss}, {s.x, s.w});
}

TEST(CompiledAutograd, CapturesOnceThenReplaysWithNewSavedTensors) {
  CompiledAutograd ca;
  for (uint64_t seed : {1u, 7u, 13u}) {
    Step s = forward(5, seed);
    auto g = ca.grad({s.loss}, {s.x, s.w});
    ASSERT_TRUE(g.ok()) << g.error().message;
    expectClose(*g, engineGrads(5, seed));
  }
  EXPECT_EQ(ca.captures(), 1u);
  EXPECT_EQ(ca.replays(), 2u);
  ASSERT_NE(ca.lastGraph(), nullptr);
  bool threshold = false;
  for (const Node& n : ca.lastGraph()->nodes()) threshold = threshold || n.target == "aten.threshold_backward.default";
  EXPECT_TRUE(threshold) << "the captured graph holds ReluBackward's op";
}

TEST(CompiledAutograd, SizeChangeCapturesAgainWithTheReason) {
  CompiledAutograd ca;
  Step a = forward(5, 1);
  ASSERT_TRUE(ca.grad({a.loss}, {a.x, a.w}).ok());
  Step b = forward(2, 3);
  auto g = ca.grad({b.loss}, {b.x, b.w});
  ASSERT_TRUE(g.ok()) << g.error().message;
  expectClose(*g, engineGrads(2, 3));
  ASSERT_EQ(ca.events().size(), 2u);
  EXPECT_EQ(ca.events()[1].kind, "capture");
  EXPECT_NE(ca.events()[1].reason.find("[5, 3] when captured, [2, 3] now"), std::string::npos) << ca.events()[1].reason;
}

TEST(CompiledAutograd, HooksAreOpaqueCallsThatReplayTheCurrentHook) {
  CompiledAutograd ca;
  for (double factor : {2.0, -1.0}) {
    Step s = forward(5, 1);
    autograd::registerHook(s.h, [factor](const Tensor& g) -> std::optional<Tensor> { return frontend::mul(g, factor); });
    auto g = ca.grad({s.loss}, {s.w});
    ASSERT_TRUE(g.ok()) << g.error().message;
    Step ref = forward(5, 1);
    autograd::registerHook(ref.h, [factor](const Tensor& g2) -> std::optional<Tensor> { return frontend::mul(g2, factor); });
    expectClose(*g, autograd::grad({ref.loss}, {ref.w}));
  }
  EXPECT_EQ(ca.captures(), 1u);
  EXPECT_EQ(ca.replays(), 1u);
  bool hookNode = false;
  for (const Node& n : ca.lastGraph()->nodes()) hookNode = hookNode || n.target == "fathom.call_hook.default";
  EXPECT_TRUE(hookNode);
}

TEST(CompiledAutograd, StructureChangeCapturesAgain) {
  CompiledAutograd ca;
  Step a = forward(5, 1);
  ASSERT_TRUE(ca.grad({a.loss}, {a.x, a.w}).ok());
  Tensor x = drawn({5, 4}, 2);
  Tensor loss = frontend::sum(frontend::tanh(x), {0, 1});
  ASSERT_TRUE(ca.grad({loss}, {x}).ok());
  EXPECT_EQ(ca.captures(), 2u);
  EXPECT_NE(ca.events()[1].reason.find("structure changed"), std::string::npos);
}

TEST(CompiledAutograd, BertTapeReplaysAndMatchesTheEngine) {
  auto model = models::buildModel("bert", {.layers = 1, .batch = 2, .seq = 8});
  ASSERT_TRUE(model.ok());
  auto run = [&](frontend::Model& m) {
    auto eager = frontend::runEager(m);  // seeds the parameters and draws the inputs
    std::vector<Tensor> params;
    for (auto* p : m.parameters()) params.push_back(p->tensor());
    std::vector<Tensor> in;
    for (const auto& v : eager->inputs) in.push_back(Tensor::eager(v.as<fathom::Tensor>()));
    return std::pair{m.forward(in), params};
  };
  CompiledAutograd ca;
  for (int step = 0; step < 2; ++step) {
    auto [outs, params] = run(**model);
    auto g = ca.grad({outs[0]}, params);
    ASSERT_TRUE(g.ok()) << g.error().message;
    auto [outs2, params2] = run(**model);
    Tensor ones;
    {
      autograd::NoGradGuard noGrad;
      ones = frontend::callOp1("aten.ones_like.default", {outs2[0]});
    }
    TensorList want = autograd::grad({outs2[0]}, params2, {ones}, {.allowUnused = true});
    ASSERT_EQ(g->size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      const auto x = valuesOf((*g)[i]), y = valuesOf(want[i]);
      ASSERT_EQ(x.size(), y.size()) << i;
      for (size_t k = 0; k < x.size(); ++k) ASSERT_NEAR(x[k], y[k], 1e-4 * (1 + std::abs(y[k]))) << i;
    }
  }
  EXPECT_EQ(ca.captures(), 1u);
  EXPECT_EQ(ca.replays(), 1u);
}

}  // namespace
}  // namespace fathom::aot
