// The eager autograd engine: gradients, grad() edge pruning, hook and execution order,
// retains_grad, anomaly mode - each rule as PyTorch documents it.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "engine/autograd/Autograd.h"
#include "engine/autograd/Record.h"
#include "engine/frontend/OpCall.h"
#include "engine/frontend/Functional.h"
#include "tests/engine/IdentityTestOp.h"
#include "tests/engine/autograd/AutogradTestUtil.h"

namespace fathom::autograd {
namespace {

using frontend::catchErrors;
using testing::eagerTensor;
using testing::valuesOf;

Tensor leaf(const IntList& sizes, const std::vector<double>& v, const char* name) {
  Tensor t = eagerTensor(sizes, v);
  setRequiresGrad(t, true, name);
  return t;
}

TEST(AutogradEngine, ProductRuleAndSum) {
  Tensor x = leaf({3}, {1, 2, 3}, "x");
  Tensor y = leaf({3}, {4, 5, 6}, "y");
  Tensor loss = frontend::sum(frontend::mul(x, y), {0});
  ASSERT_TRUE(catchErrors([&] { backward({loss}); }).ok());
  EXPECT_EQ(valuesOf(gradOf(x)), (std::vector<double>{4, 5, 6}));
  EXPECT_EQ(valuesOf(gradOf(y)), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(gradFn(loss)->name(), "SumBackward0");
}

TEST(AutogradEngine, GradientsAccumulateAcrossCallsAndUses) {
  Tensor x = leaf({2}, {1, 2}, "x");
  Tensor y = frontend::add(frontend::mul(x, x), x);  // dy/dx = 2x + 1, x used three times
  ASSERT_TRUE(catchErrors([&] { backward({frontend::sum(y, {0})}); }).ok());
  EXPECT_EQ(valuesOf(gradOf(x)), (std::vector<double>{3, 5}));
  Tensor z = frontend::mul(x, 2.0);
  ASSERT_TRUE(catchErrors([&] { backward({frontend::sum(z, {0})}); }).ok());
  EXPECT_EQ(valuesOf(gradOf(x)), (std::vector<double>{5, 7}));  // accumulated, as .grad does
}

TEST(AutogradEngine, BroadcastOperandGetsSummedGradient) {
  Tensor x = leaf({2, 3}, {1, 2, 3, 4, 5, 6}, "x");
  Tensor b = leaf({3}, {1, 1, 1}, "b");
  ASSERT_TRUE(catchErrors([&] { backward({frontend::sum(frontend::add(x, b), {0, 1})}); }).ok());
  EXPECT_EQ(valuesOf(gradOf(b)), (std::vector<double>{2, 2, 2}));
}

TEST(AutogradEngine, ImplicitGradientOnlyForScalars) {
  Tensor x = leaf({2}, {1, 2}, "x");
  auto r = catchErrors([&] { backward({frontend::mul(x, 2.0)}); });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("only for scalar outputs"), std::string::npos);
}

TEST(AutogradEngine, IntegerTensorCannotRequireGrad) {
  Tensor i = eagerTensor({2}, {1, 2}, DType::Int64);
  auto r = catchErrors([&] { setRequiresGrad(i, true, "ids"); });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("only Tensors of floating point dtype can require gradients ('ids' is int64)"),
            std::string::npos)
      << r.error().message;
}

TEST(AutogradEngine, SecondBackwardWithoutRetainGraphFails) {
  Tensor x = leaf({2}, {1, 2}, "x");
  Tensor loss = frontend::sum(frontend::mul(x, x), {0});
  ASSERT_TRUE(catchErrors([&] { backward({loss}); }).ok());
  auto again = catchErrors([&] { backward({loss}); });
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().message.find("second time"), std::string::npos);
  Tensor loss2 = frontend::sum(frontend::mul(x, x), {0});
  ASSERT_TRUE(catchErrors([&] { backward({loss2}, {}, {.retainGraph = true}); }).ok());
  EXPECT_TRUE(catchErrors([&] { backward({loss2}); }).ok());
}

// grad() runs only what the requested inputs need: a linear layer asked for its input's gradient
// never computes its weight's (the formula is told the weight's gradient is not wanted).
TEST(AutogradGrad, PrunesEdgesNotNeededForRequestedInputs) {
  Tensor x = leaf({2, 3}, {1, 2, 3, 4, 5, 6}, "x");
  Tensor w = leaf({4, 3}, std::vector<double>(12, 0.5), "w");
  Tensor b = leaf({4}, {0, 0, 0, 0}, "b");
  Tensor y = frontend::addmm(b, x, frontend::t(w));
  std::vector<bool> producedGrad;
  gradFn(y)->postHooks.push_back([&](const TensorList& gradInputs, const TensorList&) -> std::optional<TensorList> {
    for (const auto& g : gradInputs) producedGrad.push_back(g.defined());
    return std::nullopt;
  });
  TensorList g;
  ASSERT_TRUE(catchErrors([&] { g = grad({frontend::sum(y, {0, 1})}, {x}); }).ok());
  // addmm's inputs: bias, x, t(w): only x's gradient was computed.
  EXPECT_EQ(producedGrad, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(valuesOf(g[0]), (std::vector<double>(6, 2.0)));
  EXPECT_FALSE(gradOf(x).defined()) << "grad() must not accumulate into .grad";
  EXPECT_FALSE(gradOf(w).defined());
}

TEST(AutogradGrad, UnusedInputIsAnErrorUnlessAllowed) {
  Tensor x = leaf({2}, {1, 2}, "x");
  Tensor unused = leaf({2}, {1, 2}, "u");
  Tensor loss = frontend::sum(frontend::mul(x, x), {0});
  auto r = catchErrors([&] { return grad({loss}, {unused}, {}, {.retainGraph = true}); });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("appears to not have been used"), std::string::npos);
  auto ok = catchErrors([&] { return grad({loss}, {x, unused}, {}, {.allowUnused = true}); });
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(valuesOf((*ok)[0]), (std::vector<double>{2, 4}));
  EXPECT_FALSE((*ok)[1].defined());
}

TEST(AutogradGrad, GradientWithRespectToANonLeaf) {
  Tensor x = leaf({2}, {1, 2}, "x");
  Tensor h = frontend::mul(x, 3.0);
  Tensor loss = frontend::sum(frontend::mul(h, h), {0});
  TensorList g;
  ASSERT_TRUE(catchErrors([&] { g = grad({loss}, {h}); }).ok());
  EXPECT_EQ(valuesOf(g[0]), (std::vector<double>{6, 12}));  // 2h
}

// Among ready nodes the highest sequence number runs first: with two independent branches the
// one created later runs first.
TEST(AutogradEngine, ReadyNodesRunHighestSequenceNumberFirst) {
  Tensor x = leaf({2}, {1, 2}, "x");
  Tensor a = frontend::mul(x, 2.0);  // created first
  Tensor b = frontend::mul(x, 3.0);  // created second
  std::vector<std::string> order;
  gradFn(a)->preHooks.push_back([&](const TensorList&) -> std::optional<TensorList> {
    order.push_back("a");
    return std::nullopt;
  });
  gradFn(b)->preHooks.push_back([&](const TensorList&) -> std::optional<TensorList> {
    order.push_back("b");
    return std::nullopt;
  });
  EXPECT_LT(gradFn(a)->sequenceNr(), gradFn(b)->sequenceNr());
  Tensor loss = frontend::add(frontend::sum(a, {0}), frontend::sum(b, {0}));
  ASSERT_TRUE(catchErrors([&] { backward({loss}); }).ok());
  EXPECT_EQ(order, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(valuesOf(gradOf(x)), (std::vector<double>{5, 5}));
}

// PyTorch's documented order: tensor hooks (registration order), then retains_grad (which sees
// what the hooks returned), then the grad_fn's pre-hooks, the node itself, its post-hooks.
TEST(AutogradHooks, OrderTensorHooksRetainsGradPreHooksPostHooks) {
  Tensor x = leaf({2}, {1, 2}, "x");
  Tensor h = frontend::mul(x, 2.0);
  std::vector<std::string> order;
  registerHook(h, [&](const Tensor& g) -> std::optional<Tensor> {
    order.push_back("tensor hook 1");
    return frontend::mul(g, 10.0);
  });
  retainGrad(h);
  registerHook(h, [&](const Tensor&) -> std::optional<Tensor> {
    order.push_back("tensor hook 2");
    return std::nullopt;
  });
  gradFn(h)->preHooks.push_back([&](const TensorList&) -> std::optional<TensorList> {
    order.push_back("pre-hook");
    return std::nullopt;
  });
  gradFn(h)->postHooks.push_back([&](const TensorList&, const TensorList&) -> std::optional<TensorList> {
    order.push_back("post-hook");
    return std::nullopt;
  });
  ASSERT_TRUE(catchErrors([&] { backward({frontend::sum(h, {0})}); }).ok());
  EXPECT_EQ(order, (std::vector<std::string>{"tensor hook 1", "tensor hook 2", "pre-hook", "post-hook"}));
  EXPECT_EQ(valuesOf(gradOf(h)), (std::vector<double>{10, 10})) << "retains_grad sees the hooks' result";
  EXPECT_EQ(valuesOf(gradOf(x)), (std::vector<double>{20, 20}));
}

TEST(AutogradHooks, LeafHookRunsBeforeAccumulation) {
  Tensor x = leaf({2}, {1, 2}, "x");
  registerHook(x, [](const Tensor& g) -> std::optional<Tensor> { return frontend::mul(g, -1.0); });
  ASSERT_TRUE(catchErrors([&] { backward({frontend::sum(frontend::mul(x, 3.0), {0})}); }).ok());
  EXPECT_EQ(valuesOf(gradOf(x)), (std::vector<double>{-3, -3}));
}

TEST(AutogradHooks, NonLeafGradIsNotKeptWithoutRetainGrad) {
  Tensor x = leaf({2}, {1, 2}, "x");
  Tensor h = frontend::mul(x, 2.0);
  ASSERT_TRUE(catchErrors([&] { backward({frontend::sum(h, {0})}); }).ok());
  EXPECT_FALSE(gradOf(h).defined());
  EXPECT_FALSE(retainsGrad(h));
}

TEST(AutogradAnomaly, NamesTheNodeAndItsCreationSite) {
  Tensor x = leaf({2}, {0, 1}, "x");
  Tensor y = frontend::div(frontend::mul(x, 1.0), x);  // 1/0 in the backward of div
  AnomalyMode::Guard anomaly;
  auto r = catchErrors([&] { backward({frontend::sum(y, {0})}); });
  ASSERT_FALSE(r.ok());
  const std::string& m = r.error().message;
  EXPECT_NE(m.find("Function 'DivBackward0' returned inf values in its 0th output"), std::string::npos) << m;
  EXPECT_NE(m.find("aten.div.Tensor at tests/engine/autograd/EngineTest.cpp:"), std::string::npos) << m;
}

TEST(AutogradAnomaly, OffByDefault) {
  Tensor x = leaf({2}, {0, 1}, "x");
  Tensor y = frontend::div(frontend::mul(x, 1.0), x);
  EXPECT_TRUE(catchErrors([&] { backward({frontend::sum(y, {0})}); }).ok());
  EXPECT_TRUE(std::isnan(valuesOf(gradOf(x))[0]));
}

TEST(AutogradEngine, NoGradGuardRecordsNothing) {
  Tensor x = leaf({2}, {1, 2}, "x");
  Tensor y;
  {
    NoGradGuard g;
    y = frontend::mul(x, 2.0);
  }
  EXPECT_FALSE(requiresGrad(y));
  EXPECT_EQ(gradFn(y), nullptr);
}

// test.no_formula(x) = x, an op registered without a derivative.
void registerNoFormulaOp() {
  static std::once_flag once;
  std::call_once(once, [] { testing::registerIdentityTestOp("test::no_formula(Tensor self) -> Tensor"); });
}

TEST(AutogradEngine, OpWithoutDerivativeFailsAtBackwardNamingIt) {
  registerNoFormulaOp();
  Tensor x = leaf({3}, {3, 1, 2}, "x");
  Tensor c = frontend::callOp1("test.no_formula.default", {x});
  auto r = catchErrors([&] { backward({frontend::sum(c, {0})}); });
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("derivative for 'test.no_formula.default' is not implemented"), std::string::npos)
      << r.error().message;
}

TEST(AutogradNames, BackwardNodeNamesFollowPyTorch) {
  EXPECT_EQ(backwardNodeName("aten.native_layer_norm.default"), "NativeLayerNormBackward0");
  EXPECT_EQ(backwardNodeName("aten._softmax.default"), "SoftmaxBackward0");
}

}  // namespace
}  // namespace fathom::autograd
