// The stepping session (engine/interp/DebugSession.h) on a four-node graph: breakpoints by node
// and by op, run to break, stepping past the end, restart (same inputs, breakpoints kept), a
// node that fails to execute, a recorded meta that lies, and breakpoints on names the graph lacks.
#include <gtest/gtest.h>

#include "engine/core/Error.h"
#include "engine/dump/Dump.h"
#include "engine/graph/GraphBuilder.h"
#include "engine/interp/DebugSession.h"
#include "engine/ops/OpOverride.h"

namespace fathom {
namespace {

// %x = placeholder; %add = add(x, x); %relu = relu(add); %add_1 = add(relu, x); return [add_1]
NamedGraph smallGraph() {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {2, 3}));
  NodeRef add = b.call("aten.add.Tensor", {x, x});
  NodeRef relu = b.call("aten.relu.default", {add});
  b.output({b.call("aten.add.Tensor", {relu, x})});
  auto g = b.finish();
  EXPECT_TRUE(g.ok()) << g.error().str();
  return {"g", std::move(*g)};
}

std::vector<ExampleInput> seededInputs(const Graph& g) {
  std::vector<ExampleInput> inputs;
  for (NodeRef p : g.placeholders())
    inputs.push_back(ExampleInput{g.node(p).name, g.node(p).val.as<TensorMeta>(), 7, {}, {}, {}});
  return inputs;
}

CheckOptions keepAll() {
  CheckOptions o;
  o.keepIntermediates = true;
  return o;
}

std::vector<double> valuesOf(const Value& v) {
  std::vector<double> out;
  const Tensor& t = v.as<Tensor>();
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.atLinear(i));
  return out;
}

// Runs the session to its end; the output's values.
std::vector<double> runToEnd(DebugSession& s) {
  while (s.state() == SessionState::Ready) EXPECT_TRUE(s.runToBreak().ok());
  EXPECT_EQ(s.state(), SessionState::Finished);
  return valuesOf(s.interpreter().outputs().at(0));
}

struct DebugSessionTest : ::testing::Test {
  void SetUp() override { ASSERT_TRUE(session.restart().ok()); }
  NamedGraph graph = smallGraph();
  DebugSession session{graph.graph, graph.name, nullptr, seededInputs(graph.graph), std::nullopt, keepAll()};
};

// A node breakpoint stops the run before that node, and only there.
TEST_F(DebugSessionTest, BreakpointOnANodeStopsBeforeIt) {
  auto added = session.addBreakpoint("%relu");
  ASSERT_TRUE(added.ok()) << added.error().str();
  EXPECT_TRUE(added->isNew);
  EXPECT_EQ(added->breakpoint.node, "relu");
  auto run = session.runToBreak();
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->reason, StopReason::Breakpoint);
  EXPECT_EQ(run->breakpoint, added->breakpoint.id);
  EXPECT_EQ(run->nodesRun, 2u);
  EXPECT_EQ(session.cursor(), 2u);
  run = session.runToBreak();
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->reason, StopReason::End);
  EXPECT_EQ(run->nodesRun, 3u);
  EXPECT_TRUE(session.done());
}

// An op breakpoint stops before every node of the op; runToBreak always runs at least one node.
TEST_F(DebugSessionTest, BreakpointOnAnOpStopsBeforeEachOfItsNodes) {
  auto added = session.addBreakpoint("aten.add.Tensor");
  ASSERT_TRUE(added.ok());
  EXPECT_EQ(added->breakpoint.op, "aten.add.Tensor");
  std::vector<size_t> stops;
  while (session.state() == SessionState::Ready) {
    auto run = session.runToBreak();
    ASSERT_TRUE(run.ok());
    if (run->reason == StopReason::Breakpoint) stops.push_back(session.cursor());
  }
  EXPECT_EQ(stops, (std::vector<size_t>{1, 3}));
  EXPECT_EQ(session.breakpointAt(1), &session.breakpoints().front());
  EXPECT_EQ(session.breakpointAt(2), nullptr);
}

// Stepping past the end is refused with an error, and leaves the session finished.
TEST_F(DebugSessionTest, SteppingPastTheEndIsAnError) {
  for (size_t i = 0; i < graph.graph.size(); ++i) {
    auto step = session.stepOne();
    ASSERT_TRUE(step.ok());
    EXPECT_EQ(step->node, i);
    EXPECT_FALSE(step->failed());
  }
  EXPECT_EQ(session.state(), SessionState::Finished);
  auto past = session.stepOne();
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.error().message.find("finished"), std::string::npos);
  EXPECT_FALSE(session.runToBreak().ok());
  EXPECT_FALSE(session.problemSeen());
}

// restart() keeps the breakpoints and draws the same inputs again: an in-place op on the input
// gives the same output on every run.
TEST_F(DebugSessionTest, RestartKeepsBreakpointsAndRedrawsTheInputs) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4}));
  NodeRef doubled = b.call("aten.add_.Tensor", {x, x});
  b.output({b.call("aten.mul.Tensor", {doubled, x})});
  auto g = b.finish();
  ASSERT_TRUE(g.ok()) << g.error().str();
  NamedGraph graph{"inplace", std::move(*g)};
  DebugSession session(graph.graph, graph.name, nullptr, seededInputs(graph.graph), std::nullopt, keepAll());
  ASSERT_TRUE(session.restart().ok());
  ASSERT_TRUE(session.addBreakpoint("aten.mul.Tensor").ok());
  const std::vector<double> first = runToEnd(session);
  ASSERT_TRUE(session.restart().ok());
  EXPECT_EQ(session.cursor(), 0u);
  ASSERT_EQ(session.breakpoints().size(), 1u);
  auto run = session.runToBreak();
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->reason, StopReason::Breakpoint);
  EXPECT_EQ(session.cursor(), 2u);
  EXPECT_EQ(runToEnd(session), first);
}

// A node that fails to execute stops the session: nothing runs until restart().
TEST_F(DebugSessionTest, AFailingNodeStopsTheSessionUntilRestart) {
  {
    KernelOverride broken("aten.relu.default", [](const ValueList&, const OpFn&) -> ValueList { throw OpError("injected failure"); });
    auto run = session.runToBreak();
    ASSERT_TRUE(run.ok());
    EXPECT_EQ(run->reason, StopReason::Failure);
    ASSERT_TRUE(run->last.failed());
    EXPECT_EQ(run->last.node, 2u);
    EXPECT_NE(run->last.failure->str().find("injected failure"), std::string::npos);
    EXPECT_EQ(session.state(), SessionState::Failed);
    EXPECT_FALSE(session.stepOne().ok());
    EXPECT_FALSE(session.runToBreak().ok());
    EXPECT_EQ(session.failures(), 1u);
    EXPECT_TRUE(session.problemSeen());
  }
  ASSERT_TRUE(session.restart().ok());
  EXPECT_EQ(session.state(), SessionState::Ready);
  runToEnd(session);
  EXPECT_EQ(session.failures(), 1u);  // counted over the whole session
}

// A node whose recorded strides lie stops runToBreak after it, with its new mismatches.
TEST_F(DebugSessionTest, RunToBreakStopsAfterAMismatch) {
  NamedGraph graph = smallGraph();
  graph.graph.mutableNodes()[2].val.as<TensorMeta>().strides = {1, 2};
  DebugSession session(graph.graph, graph.name, nullptr, seededInputs(graph.graph), std::nullopt, keepAll());
  ASSERT_TRUE(session.restart().ok());
  auto run = session.runToBreak();
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->reason, StopReason::Mismatch);
  EXPECT_EQ(run->last.node, 2u);
  ASSERT_EQ(run->last.newMismatches, 1u);
  const Mismatch& m = session.interpreter().mismatches()[run->last.firstMismatch];
  EXPECT_EQ(m.node, "relu");
  EXPECT_EQ(m.field, "strides");
  EXPECT_TRUE(m.origin);
  EXPECT_EQ(session.mismatchesSeen(), 1u);
  EXPECT_EQ(session.state(), SessionState::Ready);  // a mismatch does not stop the session
}

// A breakpoint on a name that is neither a node nor an op of the graph is an error naming it;
// one that exists already is returned as it is; removing works by id, once.
TEST_F(DebugSessionTest, BreakpointsOnUnknownTargetsAreErrors) {
  auto bad = session.addBreakpoint("aten.mm.default");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "no node or op 'aten.mm.default' in graph 'g'");
  EXPECT_TRUE(session.breakpoints().empty());
  auto first = session.addBreakpoint("relu");
  auto again = session.addBreakpoint("%relu");
  ASSERT_TRUE(first.ok() && again.ok());
  EXPECT_FALSE(again->isNew);
  EXPECT_EQ(again->breakpoint.id, first->breakpoint.id);
  EXPECT_EQ(session.breakpoints().size(), 1u);
  EXPECT_TRUE(session.removeBreakpoint(first->breakpoint.id));
  EXPECT_FALSE(session.removeBreakpoint(first->breakpoint.id));
  auto next = session.addBreakpoint("relu");
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->breakpoint.id, first->breakpoint.id + 1);  // ids are never reused
  EXPECT_FALSE(session.findNode("nosuch").has_value());
  EXPECT_EQ(session.findNode("%add_1")->index, 3);
}

}  // namespace
}  // namespace fathom
