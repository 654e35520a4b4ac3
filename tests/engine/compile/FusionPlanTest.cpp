// planFusion's rules on small graphs: what fuses into one kernel, what splits it, and what stays
// an extern call (engine/compile/README.md). Each test fails when its rule breaks.
#include "engine/compile/FusionPlan.h"

#include <gtest/gtest.h>

#include "engine/graph/GraphBuilder.h"
#include "tests/engine/compile/FusionPlanChecks.h"

namespace fathom {
namespace {

using testing::expectValidPlan;

FusionPlan planOf(const Graph& g, FusionOptions options = {}) {
  auto plan = planFusion(g, options);
  EXPECT_TRUE(plan.ok()) << plan.error().str();
  if (!plan.ok()) return {};
  expectValidPlan(g, *plan);
  return std::move(*plan);
}

Graph finished(GraphBuilder& b) {
  auto g = b.finish();
  EXPECT_TRUE(g.ok()) << g.error().str();
  return g.ok() ? std::move(*g) : Graph{};
}

std::vector<KernelKind> kindsOf(const FusionPlan& plan) {
  std::vector<KernelKind> out;
  for (const auto& k : plan.kernels) out.push_back(k.kind);
  return out;
}

// A chain of `n` unary pointwise ops over x [4, 8] (one binary op reads x again, every fourth).
Graph pointwiseChain(int n, NodeRef* xOut = nullptr) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 8}));
  if (xOut) *xOut = x;
  const char* unary[] = {"aten.relu.default", "aten.exp.default", "aten.neg.default", "aten.sigmoid.default"};
  NodeRef h = x;
  for (int i = 0; i < n; ++i)
    h = i % 4 == 3 ? b.call("aten.add.Tensor", {h, x}) : b.call(unary[i % 4], {h});
  b.output({h});
  return finished(b);
}

// Eight pointwise ops in a row are one kernel: x in, the last value out, iterating over [4, 8].
TEST(FusionPlan, PointwiseChainOfEightIsOneKernel) {
  NodeRef x;
  Graph g = pointwiseChain(8, &x);
  FusionPlan plan = planOf(g);
  ASSERT_EQ(plan.kernels.size(), 1u);
  const FusedKernel& k = plan.kernels[0];
  EXPECT_EQ(k.kind, KernelKind::Pointwise);
  EXPECT_EQ(k.nodes.size(), 8u);
  EXPECT_EQ(k.inputs, std::vector<NodeRef>{x});
  ASSERT_EQ(k.outputs.size(), 1u);
  EXPECT_EQ(g.node(k.outputs[0]).name, g.node(k.nodes.back()).name);
  EXPECT_EQ(k.sizes.size(), 2u);
  EXPECT_EQ(k.sizes[0].hint(), 4);
  EXPECT_EQ(k.sizes[1].hint(), 8);
  EXPECT_EQ(plan.summary().pointwiseOps, 8);
}

// Pointwise ops feeding a sum are one reduction kernel; the reduction ends it, so a pointwise op
// on the sum starts the next kernel.
TEST(FusionPlan, PointwiseChainFeedingSumIsOneReductionKernel) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 8}));
  NodeRef h = b.call("aten.mul.Tensor", {b.call("aten.exp.default", {x}), x});
  NodeRef s = b.call("aten.sum.dim_IntList", {b.call("aten.relu.default", {h}), ValueList{1}});
  b.output({b.call("aten.neg.default", {s})});
  Graph g = finished(b);
  FusionPlan plan = planOf(g);
  ASSERT_EQ(kindsOf(plan), (std::vector<KernelKind>{KernelKind::Reduction, KernelKind::Pointwise}));
  EXPECT_EQ(plan.kernels[0].nodes.size(), 4u);
  EXPECT_EQ(plan.kernels[0].outputs, std::vector<NodeRef>{s});
  ASSERT_EQ(plan.kernels[0].sizes.size(), 1u);  // the reduced value's sizes
}

// A [4, 1] operand broadcast into [4, 8] is read as a kernel input: the add fuses with the exp.
TEST(FusionPlan, BroadcastOperandFuses) {
  GraphBuilder b;
  NodeRef a = b.input("a", fakeTensor(DType::Float32, {4, 1}));
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 8}));
  b.output({b.call("aten.add.Tensor", {a, b.call("aten.exp.default", {x})})});
  Graph g = finished(b);
  FusionPlan plan = planOf(g);
  ASSERT_EQ(plan.kernels.size(), 1u);
  EXPECT_EQ(plan.kernels[0].nodes.size(), 2u);
  EXPECT_EQ(plan.kernels[0].inputs.size(), 2u);
}

// A [4, 1] value made by a pointwise op stays in a kernel of its own sizes; the [4, 8] op that
// reads it joins the [4, 8] kernel (a broadcast read of a value inside a kernel is refused).
TEST(FusionPlan, BroadcastValueKeepsItsOwnKernel) {
  GraphBuilder b;
  NodeRef a = b.input("a", fakeTensor(DType::Float32, {4, 1}));
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 8}));
  NodeRef small = b.call("aten.neg.default", {a});
  b.output({b.call("aten.add.Tensor", {small, b.call("aten.exp.default", {x})})});
  Graph g = finished(b);
  FusionPlan plan = planOf(g);
  ASSERT_EQ(kindsOf(plan), (std::vector<KernelKind>{KernelKind::Pointwise, KernelKind::Pointwise}));
  EXPECT_EQ(plan.kernels[0].nodes.size(), 1u);
  EXPECT_EQ(plan.kernels[1].nodes.size(), 2u);
}

// A transpose changes the index: pointwise, the transpose as an extern view, pointwise.
TEST(FusionPlan, TransposeInTheMiddleSplits) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 8}));
  NodeRef t = b.call("aten.t.default", {b.call("aten.exp.default", {x})});
  b.output({b.call("aten.relu.default", {b.call("aten.neg.default", {t})})});
  FusionPlan plan = planOf(finished(b));
  EXPECT_EQ(kindsOf(plan), (std::vector<KernelKind>{KernelKind::Pointwise, KernelKind::Extern, KernelKind::Pointwise}));
}

// A reshape of contiguous data keeps the linear index, so it folds into the kernel.
TEST(FusionPlan, ContiguousReshapeFolds) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 8}));
  NodeRef v = b.call("aten.view.default", {b.call("aten.exp.default", {x}), ValueList{32}});
  b.output({b.call("aten.relu.default", {v})});
  FusionPlan plan = planOf(finished(b));
  ASSERT_EQ(plan.kernels.size(), 1u);
  EXPECT_EQ(plan.kernels[0].nodes.size(), 3u);
  ASSERT_EQ(plan.kernels[0].sizes.size(), 1u);  // the relu's [32]
}

// mm is a contraction: an extern call between two pointwise kernels.
TEST(FusionPlan, MmInTheMiddleIsExternAndSplits) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 8}));
  NodeRef w = b.input("w", fakeTensor(DType::Float32, {8, 8}));
  NodeRef m = b.call("aten.mm.default", {b.call("aten.relu.default", {x}), w});
  b.output({b.call("aten.exp.default", {m})});
  FusionPlan plan = planOf(finished(b));
  EXPECT_EQ(kindsOf(plan), (std::vector<KernelKind>{KernelKind::Pointwise, KernelKind::Extern, KernelKind::Pointwise}));
}

// An op reading both a kernel's value and an extern result made from that kernel cannot join
// the kernel (it would wait on itself): it starts the next one.
TEST(FusionPlan, JoinThatWouldCloseACycleIsRefused) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 4}));
  NodeRef a = b.call("aten.exp.default", {x});
  b.output({b.call("aten.add.Tensor", {a, b.call("aten.mm.default", {a, a})})});
  FusionPlan plan = planOf(finished(b));
  EXPECT_EQ(kindsOf(plan), (std::vector<KernelKind>{KernelKind::Pointwise, KernelKind::Extern, KernelKind::Pointwise}));
}

// An extern call that does not read the kernel lets a later op join it; the plan then runs the
// extern call first.
TEST(FusionPlan, IndependentExternMovesBeforeTheKernel) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 4}));
  NodeRef w = b.input("w", fakeTensor(DType::Float32, {4, 4}));
  NodeRef a = b.call("aten.exp.default", {x});
  b.output({b.call("aten.add.Tensor", {a, b.call("aten.mm.default", {w, w})})});
  FusionPlan plan = planOf(finished(b));
  EXPECT_EQ(kindsOf(plan), (std::vector<KernelKind>{KernelKind::Extern, KernelKind::Pointwise}));
  EXPECT_EQ(plan.kernels[1].nodes.size(), 2u);
}

// Softmax is a row-local kernel of its own, between the pointwise kernels around it.
TEST(FusionPlan, SoftmaxIsItsOwnRowLocalKernel) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 8}));
  NodeRef s = b.call("aten._softmax.default", {b.call("aten.exp.default", {x}), 1, false});
  b.output({b.call("aten.relu.default", {s})});
  FusionPlan plan = planOf(finished(b));
  EXPECT_EQ(kindsOf(plan), (std::vector<KernelKind>{KernelKind::Pointwise, KernelKind::RowLocal, KernelKind::Pointwise}));
  EXPECT_EQ(plan.summary().rowLocal, 1);
}

// The cap splits a 100-op chain: 64 + 36 by default, ten kernels of ten with a cap of 10.
TEST(FusionPlan, CapSplitsALongChain) {
  Graph g = pointwiseChain(100);
  FusionPlan plan = planOf(g);
  ASSERT_EQ(plan.kernels.size(), 2u);
  EXPECT_EQ(plan.kernels[0].nodes.size(), 64u);
  EXPECT_EQ(plan.kernels[1].nodes.size(), 36u);
  EXPECT_EQ(planOf(g, {.maxNodesPerKernel = 10}).kernels.size(), 10u);
  EXPECT_FALSE(planFusion(g, {.maxNodesPerKernel = 0}).ok());
}

// An in-place write is a barrier: the op after it does not join the kernel before it.
TEST(FusionPlan, InplaceWriteClosesOpenKernels) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 8}));
  NodeRef y = b.input("y", fakeTensor(DType::Float32, {4, 8}));
  NodeRef a = b.call("aten.exp.default", {x});
  b.call("aten.add_.Tensor", {y, x});
  b.output({b.call("aten.relu.default", {a}), y});
  FusionPlan plan = planOf(finished(b));
  EXPECT_EQ(kindsOf(plan), (std::vector<KernelKind>{KernelKind::Pointwise, KernelKind::Extern, KernelKind::Pointwise}));
}

}  // namespace
}  // namespace fathom
