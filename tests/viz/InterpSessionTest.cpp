// The interpreter panel's view model (viz/model/InterpSession.h) without a display: stepping state
// and cursor, continue to the mismatches of the lying PyTorch export with its Origin / Inherited
// marks, breakpoints on nodes and ops, run to a node, cancel, restart at sizes the guards refuse
// (and at sizes they accept), the AOT training step (the backward runs on what the forward saved).
#include <gtest/gtest.h>

#include "engine/aot/CheckStep.h"
#include "engine/graph/PartitionInfo.h"
#include "engine/interp/ExampleInputs.h"
#include "tests/viz/VizTestDumps.h"
#include "viz/model/InterpSession.h"

namespace fathom::viz {
namespace {

using testing::loadTestDump;

constexpr const char* kLies = "tests/data/torch-fake-meta-lies.fathom.json";

std::unique_ptr<InterpSession> open(std::shared_ptr<const Dump> dump, const std::string& graph = "") {
  auto s = InterpSession::create(std::move(dump), graph);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().str());
  return s.ok() ? std::move(*s) : nullptr;
}

int32_t nodeIndex(const InterpSession& s, const std::string& graph, const std::string& name) {
  auto ref = s.dump().graph(graph)->find(name);
  return ref ? ref->index : -1;
}

NodeMark markOf(const InterpSnapshot& snap, const InterpSession& s, const std::string& graph, const std::string& node) {
  const InterpGraphMarks* m = snap.marksOf(graph);
  const int32_t i = nodeIndex(s, graph, node);
  if (!m || i < 0 || static_cast<size_t>(i) >= m->marks.size()) return NodeMark::None;
  return m->marks[static_cast<size_t>(i)];
}

// Each step runs the node at the cursor: the cursor moves on, what ran is Ran, the next is Current.
TEST(InterpSession, StepMovesTheCursorAndMarksRanAndCurrent) {
  auto s = open(loadTestDump(kLies));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->state(), InterpState::NotStarted);
  ASSERT_TRUE(s->step().ok());
  InterpSnapshot snap = s->snapshot();
  EXPECT_EQ(snap.state, InterpState::Ready);
  EXPECT_EQ(snap.stop, InterpStop::Stepped);
  EXPECT_EQ(snap.cursor, 1u);
  EXPECT_EQ(snap.cursorNode, "c_1");
  EXPECT_EQ(markOf(snap, *s, "forward", "x_1"), NodeMark::Ran);
  EXPECT_EQ(markOf(snap, *s, "forward", "c_1"), NodeMark::Current);
  EXPECT_EQ(markOf(snap, *s, "forward", "y_1"), NodeMark::None);
  EXPECT_EQ(snap.focusNode, 1) << "the view follows the cursor";
  ASSERT_TRUE(s->step(3).ok());
  EXPECT_EQ(s->snapshot().cursor, 4u);
  EXPECT_EQ(s->progress(), 3u);
  EXPECT_NE(interpStatusLine(s->snapshot()).find("next: node 5/13 %t"), std::string::npos) << interpStatusLine(s->snapshot());
}

// Continue stops after each node with a new mismatch (the view follows it); the origin is Origin,
// and the output node, which ran on the lying values, Inherited; the table shows the lying strides.
TEST(InterpSession, ContinueStopsAtEachOriginAndMarksItsUsersInherited) {
  auto s = open(loadTestDump(kLies));
  ASSERT_TRUE(s);
  auto run = s->continueRun();
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(*run, InterpStop::Mismatch);
  InterpSnapshot snap = s->snapshot();
  EXPECT_EQ(snap.focusNode, nodeIndex(*s, "forward", "getitem"));
  EXPECT_EQ(markOf(snap, *s, "forward", "getitem"), NodeMark::Origin);
  EXPECT_EQ(markOf(snap, *s, "forward", "native_layer_norm"), NodeMark::Ran);
  ASSERT_EQ(snap.mismatches.size(), 1u);
  EXPECT_NE(snap.message.find("strides"), std::string::npos) << snap.message;

  InterpTable t = s->table("forward", nodeIndex(*s, "forward", "getitem"));
  EXPECT_TRUE(t.ran);
  bool lyingStrides = false;
  for (const FakeRealRow& r : t.rows)
    if (r.field == "strides") lyingStrides = r.mismatch && r.recorded == "[1, 6]" && r.real == "[4, 1]";
  EXPECT_TRUE(lyingStrides) << t.status;
  EXPECT_TRUE(t.hasValues);
  EXPECT_EQ(t.values.count, 24);
  EXPECT_EQ(t.values.first.size(), kTableValues);

  EXPECT_EQ(*s->continueRun(), InterpStop::Mismatch);
  EXPECT_EQ(s->snapshot().focusNode, nodeIndex(*s, "forward", "where"));
  EXPECT_EQ(*s->continueRun(), InterpStop::End);
  snap = s->snapshot();
  EXPECT_EQ(snap.state, InterpState::Finished);
  EXPECT_EQ(snap.origins, 2u);
  EXPECT_EQ(markOf(snap, *s, "forward", "where"), NodeMark::Origin);
  EXPECT_EQ(markOf(snap, *s, "forward", "output"), NodeMark::Inherited);
  EXPECT_EQ(markOf(snap, *s, "forward", "gt"), NodeMark::Ran);
  EXPECT_NE(s->table("forward", nodeIndex(*s, "forward", "output")).status.find("%getitem"), std::string::npos);
  EXPECT_FALSE(s->continueRun().ok()) << "a finished run must be restarted";
  ASSERT_TRUE(s->restart().ok());
  EXPECT_EQ(s->snapshot().mismatches.size(), 0u) << "a restart starts a new run";
}

// A breakpoint on a node stops before it; one on an op before every node of that op; toggling a
// node's breakpoint removes it again.
TEST(InterpSession, BreakpointsOnNodesAndOps) {
  auto s = open(loadTestDump(kLies));
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->addBreakpoint("forward", "%t").ok());
  EXPECT_EQ(*s->continueRun(), InterpStop::Breakpoint);
  InterpSnapshot snap = s->snapshot();
  EXPECT_EQ(snap.cursorNode, "t");
  EXPECT_EQ(markOf(snap, *s, "forward", "t"), NodeMark::Current);
  EXPECT_TRUE(snap.marksOf("forward")->breakpoints[static_cast<size_t>(nodeIndex(*s, "forward", "t"))]);
  ASSERT_TRUE(s->restart().ok());
  auto toggled = s->toggleBreakpoint("forward", nodeIndex(*s, "forward", "t"));
  ASSERT_TRUE(toggled.ok());
  EXPECT_FALSE(*toggled) << "toggling the node's breakpoint removes it";
  ASSERT_TRUE(s->addBreakpoint("forward", "aten.t.default").ok());
  EXPECT_EQ(s->snapshot().breakpoints.size(), 1u);
  EXPECT_EQ(*s->continueRun(), InterpStop::Breakpoint);
  EXPECT_EQ(s->snapshot().cursorNode, "t");
  EXPECT_EQ(*s->continueRun(), InterpStop::Mismatch);  // %getitem comes first
  EXPECT_EQ(*s->continueRun(), InterpStop::Breakpoint);
  EXPECT_EQ(s->snapshot().cursorNode, "t_1");
  EXPECT_FALSE(s->addBreakpoint("forward", "aten.nothing.default").ok());
  EXPECT_FALSE(s->addBreakpoint("backward", "t").ok()) << "not a graph of this run";
}

// Run-to runs until the node has run, past mismatches, and stops earlier at a breakpoint; a node
// that already ran is refused.
TEST(InterpSession, RunToANode) {
  auto s = open(loadTestDump(kLies));
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->addBreakpoint("forward", "gt").ok());
  EXPECT_EQ(*s->runTo("forward", "getitem_2"), InterpStop::Target);
  InterpSnapshot snap = s->snapshot();
  EXPECT_EQ(snap.focusNode, nodeIndex(*s, "forward", "getitem_2"));
  EXPECT_EQ(markOf(snap, *s, "forward", "getitem"), NodeMark::Origin) << "run-to goes past a mismatch";
  EXPECT_EQ(*s->runTo("forward", "where"), InterpStop::Breakpoint);
  EXPECT_EQ(s->snapshot().cursorNode, "gt");
  EXPECT_EQ(*s->runTo("forward", "gt"), InterpStop::Target) << "a breakpoint on the target itself does not stop it";
  auto again = s->runTo("forward", "t");
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().message.find("already ran"), std::string::npos);
  EXPECT_FALSE(s->runTo("forward", "no_such_node").ok());
}

// A set cancel flag stops a continue between two nodes: one node runs, the run can go on.
TEST(InterpSession, CancelPausesBetweenNodes) {
  auto s = open(loadTestDump(kLies));
  ASSERT_TRUE(s);
  CancelFlag cancel{true};
  EXPECT_EQ(*s->continueRun(&cancel), InterpStop::Paused);
  EXPECT_EQ(s->snapshot().cursor, 1u);
  EXPECT_EQ(s->snapshot().state, InterpState::Ready);
  EXPECT_EQ(*s->step(5, &cancel), InterpStop::Paused);
  EXPECT_EQ(s->snapshot().cursor, 2u);
}

// Restart at sizes the guards forbid is refused naming the guard and its source; the run goes on
// as it was. Sizes they allow run: symbolic sizes are evaluated under the new binding.
TEST(InterpSession, RestartAtSizesTheGuardsRefuse) {
  auto s = open(testing::tracedDump("bert", 1, true));
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->step(3).ok());
  for (const char* sizes : {"s1=600", "input_ids=2x600,attention_mask=2x600"}) {
    auto refused = s->restart(sizes);
    ASSERT_FALSE(refused.ok()) << sizes;
    EXPECT_NE(refused.error().message.find("s1 < 512 fails with"), std::string::npos) << refused.error().str();
    EXPECT_NE(refused.error().message.find("BertModel.cpp"), std::string::npos) << refused.error().str();
    EXPECT_EQ(s->snapshot().cursor, 3u) << "a refused restart keeps the run";
  }
  EXPECT_FALSE(s->restart("s9=3").ok());
  EXPECT_FALSE(s->restart("s0=x").ok());
  ASSERT_TRUE(s->restart("s0=3,s1=20").ok());
  EXPECT_EQ(s->snapshot().sizes, "s0=3,s1=20");
  ASSERT_TRUE(s->step(60).ok());
  const Graph& g = *s->dump().graph("forward");
  for (size_t i = 0; i < 60; ++i) {
    const auto* m = g.nodes()[i].val.tryAs<TensorMeta>();
    if (!m || m->dim() != 3 || !m->sizes[1].isSymbolic()) continue;
    InterpTable t = s->table("forward", static_cast<int32_t>(i));
    ASSERT_TRUE(t.ran);
    EXPECT_EQ(t.rows[1].field, "sizes");
    EXPECT_TRUE(t.rows[1].symbolic);
    EXPECT_EQ(t.rows[1].evaluated, "[3, 20, " + std::to_string(m->sizes[2].hint()) + "]") << t.rows[1].recorded;
    EXPECT_EQ(t.rows[1].real, t.rows[1].evaluated);
    EXPECT_NE(t.binding.find("s1 = 20"), std::string::npos);
    return;
  }
  FAIL() << "no node with symbolic sizes in the first 60";
}

// An AOT dump runs as a training step: forward, then backward on what the forward really saved
// (the same values) and the tangents, then joint; the run's graph follows; it finds what
// `fathom check`'s training step finds.
TEST(InterpSession, AotDumpStepsAsATrainingStep) {
  auto dump = testing::aotDump("mlp", 2);
  ASSERT_TRUE(dump);
  auto s = open(dump);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->graphs(), (std::vector<std::string>{"forward", "backward", "joint"}));
  const size_t forwardNodes = dump->graph("forward")->size();
  ASSERT_TRUE(s->step(forwardNodes).ok());
  InterpSnapshot snap = s->snapshot();
  EXPECT_EQ(snap.graph, "backward");
  EXPECT_EQ(snap.stage, 1u);
  EXPECT_EQ(snap.cursor, 0u);
  EXPECT_EQ(snap.focusGraph, "backward");
  EXPECT_EQ(markOf(snap, *s, "forward", "output"), NodeMark::Ran);
  ASSERT_TRUE(s->step(dump->graph("backward")->placeholders().size()).ok());
  const std::string saved = dump->partition->saved.front().name;
  const InterpTable fwd = s->table("forward", nodeIndex(*s, "forward", saved));
  const InterpTable bwd = s->table("backward", nodeIndex(*s, "backward", saved));
  ASSERT_TRUE(fwd.ran && bwd.ran && fwd.hasValues && bwd.hasValues) << saved;
  EXPECT_EQ(bwd.values.first, fwd.values.first) << "the backward reads the forward's real saved value";
  EXPECT_EQ(bwd.values.mean, fwd.values.mean);
  EXPECT_EQ(*s->continueRun(), InterpStop::End);
  snap = s->snapshot();
  EXPECT_EQ(snap.graph, "joint");
  for (const char* g : {"forward", "backward", "joint"}) EXPECT_EQ(markOf(snap, *s, g, "output"), NodeMark::Ran) << g;

  auto joint = materializeInputs(*chooseInputs(dump->graph("joint"), "joint", dump->inputsFor("joint"), nullptr));
  ASSERT_TRUE(joint.ok());
  const auto in = aot::splitJointInputs(*dump, *joint);
  auto checked = aot::checkTrainingStep(*dump, in.primals, in.tangents, {});
  ASSERT_TRUE(checked.ok());
  size_t expected = 0;
  for (const auto& c : *checked) expected += c.mismatches.size();
  EXPECT_EQ(snap.mismatches.size(), expected);
}

}  // namespace
}  // namespace fathom::viz
