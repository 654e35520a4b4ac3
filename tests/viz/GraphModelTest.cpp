// GraphModel: per-node view data on AOT dumps - meta as recorded and at the hints, inputs and
// users, sides, partition roles checked against dump.partition->saved (and inferred for a
// PyTorch export without a partition section), module paths, guards.
#include "viz/model/GraphModel.h"

#include <gtest/gtest.h>

#include <set>

#include "engine/graph/PartitionInfo.h"
#include "tests/viz/VizTestDumps.h"

namespace fathom::viz {
namespace {

// Recorded meta stays symbolic; the evaluated text uses the ShapeEnv's hints.
TEST(VizGraphModel, MetaAsRecordedAndEvaluated) {
  auto dump = testing::loadTestDump("tests/data/mlp-aot.fathom.json");
  ASSERT_TRUE(dump);
  auto m = GraphModel::build(*dump, "forward");
  ASSERT_TRUE(m.ok()) << m.error().str();
  const NodeInfo& addmm = m->node(m->find("addmm"));
  EXPECT_EQ(addmm.metaText, "f32[s0, 256]");
  EXPECT_EQ(addmm.metaEval, "f32[4, 256]");
  EXPECT_EQ(addmm.dtype, "f32");
  EXPECT_EQ(addmm.op, "aten.addmm.default");
  EXPECT_EQ(addmm.opShort, "addmm");
  EXPECT_EQ(addmm.module, "layers.0");
  EXPECT_EQ(addmm.source, "samples/models/MlpModel.cpp:35");
  const NodeInfo& w = m->node(m->find("layers.0.weight"));
  EXPECT_EQ(w.metaText, "f32[256, 784]");
  EXPECT_EQ(w.metaEval, w.metaText);
  EXPECT_EQ(w.kind, NodeKind::Placeholder);
  EXPECT_EQ(w.module, "layers.0");  // inferred from the parameter's name
  EXPECT_TRUE(w.moduleInferred);
}

// Inputs and users are each other's mirror, distinct, in graph order.
TEST(VizGraphModel, InputsAndUsersMirror) {
  auto dump = testing::loadTestDump("tests/data/mlp-aot.fathom.json");
  ASSERT_TRUE(dump);
  for (const char* name : {"joint", "forward", "backward"}) {
    auto m = GraphModel::build(*dump, name);
    ASSERT_TRUE(m.ok());
    int64_t edges = 0;
    for (const NodeInfo& n : m->nodes()) {
      std::set<int32_t> distinct(n.inputs.begin(), n.inputs.end());
      EXPECT_EQ(distinct.size(), n.inputs.size()) << n.name;
      for (int32_t u : n.inputs) {
        EXPECT_LT(u, n.index);
        const auto& users = m->node(u).users;
        EXPECT_EQ(std::count(users.begin(), users.end(), n.index), 1) << n.name;
      }
      EXPECT_TRUE(std::is_sorted(n.users.begin(), n.users.end()));
      edges += static_cast<int64_t>(n.inputs.size());
    }
    EXPECT_EQ(edges, m->numEdges());
  }
}

// Every saved value of the partition is marked in all three graphs, with its bytes.
TEST(VizGraphModel, SavedValuesMatchThePartition) {
  auto dump = testing::loadTestDump("tests/data/mlp-aot.fathom.json");
  ASSERT_TRUE(dump && dump->partition);
  auto fwd = GraphModel::build(*dump, "forward");
  auto bwd = GraphModel::build(*dump, "backward");
  auto joint = GraphModel::build(*dump, "joint");
  ASSERT_TRUE(fwd.ok() && bwd.ok() && joint.ok());
  const auto& saved = dump->partition->saved;
  ASSERT_EQ(fwd->saved().size(), saved.size());
  EXPECT_FALSE(fwd->savedInferred());
  for (size_t i = 0; i < saved.size(); ++i) {
    EXPECT_EQ(fwd->saved()[i].name, saved[i].name);
    EXPECT_EQ(fwd->saved()[i].bytes, saved[i].bytes);
    const NodeInfo& f = fwd->node(fwd->find(saved[i].name));
    EXPECT_EQ(f.role, PartitionRole::SavedForBackward) << saved[i].name;
    EXPECT_EQ(f.savedIndex, static_cast<int32_t>(i));
    const NodeInfo& b = bwd->node(bwd->find(saved[i].name));
    EXPECT_EQ(b.role, PartitionRole::SavedInput) << saved[i].name;
    EXPECT_EQ(b.kind, NodeKind::Placeholder);
    EXPECT_EQ(joint->node(joint->find(saved[i].name)).role, PartitionRole::CrossesCut);
  }
  EXPECT_EQ(fwd->saved()[2].metaText, "f32[s0, 256]");
  EXPECT_EQ(fwd->saved()[2].metaEval, "f32[4, 256]");
  // Nothing else is marked saved.
  size_t marked = 0;
  for (const NodeInfo& n : fwd->nodes()) marked += n.role == PartitionRole::SavedForBackward;
  EXPECT_EQ(marked, saved.size());
}

// The min-cut partitioner recomputes relu and t_1 in the backward: marked, on the forward side.
TEST(VizGraphModel, RecomputedAndTangentsMarked) {
  auto dump = testing::loadTestDump("tests/data/mlp-aot.fathom.json");
  ASSERT_TRUE(dump);
  auto bwd = GraphModel::build(*dump, "backward");
  ASSERT_TRUE(bwd.ok());
  for (const char* name : {"relu", "t_1"}) {
    EXPECT_EQ(bwd->node(bwd->find(name)).role, PartitionRole::Recomputed) << name;
    EXPECT_EQ(bwd->node(bwd->find(name)).side, Side::Forward) << name;
  }
  const NodeInfo& tangent = bwd->node(bwd->find("tangents_1"));
  EXPECT_EQ(tangent.role, PartitionRole::Tangent);
  EXPECT_EQ(tangent.side, Side::Backward);
  EXPECT_EQ(bwd->node(bwd->find("mm")).side, Side::Backward);
  EXPECT_TRUE(bwd->hasBothSides());
}

// Joint graph: sides from the stage tags; the graph holds both.
TEST(VizGraphModel, JointSides) {
  auto dump = testing::loadTestDump("tests/data/mlp-aot.fathom.json");
  ASSERT_TRUE(dump);
  auto joint = GraphModel::build(*dump, "joint");
  ASSERT_TRUE(joint.ok());
  EXPECT_TRUE(joint->hasBothSides());
  EXPECT_EQ(joint->node(joint->find("addmm")).side, Side::Forward);
  EXPECT_EQ(joint->node(joint->find("threshold_backward")).side, Side::Backward);
}

// A PyTorch export has no partition section: saved values are inferred from the backward's
// placeholders, and the joint's sides from the forward graph's names.
TEST(VizGraphModel, PyTorchExportInfersSavedValues) {
  auto dump = testing::loadTestDump("tests/data/torch-mlp-aot.fathom.json");
  ASSERT_TRUE(dump);
  ASSERT_FALSE(dump->partition);
  auto fwd = GraphModel::build(*dump, "forward");
  auto bwd = GraphModel::build(*dump, "backward");
  auto joint = GraphModel::build(*dump, "joint");
  ASSERT_TRUE(fwd.ok() && bwd.ok() && joint.ok());
  EXPECT_TRUE(fwd->savedInferred());
  std::set<std::string> expected;
  for (const Node& n : dump->graph("backward")->nodes())
    if (n.kind == NodeKind::Placeholder && n.name.rfind("tangents_", 0) != 0) expected.insert(n.name);
  std::set<std::string> got;
  for (const SavedValue& s : fwd->saved()) got.insert(s.name);
  EXPECT_EQ(got, expected);
  EXPECT_EQ(fwd->node(fwd->find("relu")).role, PartitionRole::SavedForBackward);
  EXPECT_GT(fwd->saved()[0].bytes, 0);
  EXPECT_EQ(joint->node(joint->find("relu")).side, Side::Forward);
  EXPECT_EQ(joint->node(joint->find("mm")).side, Side::Backward);
  EXPECT_EQ(joint->node(joint->find("tangents_1")).side, Side::Backward);
  EXPECT_TRUE(fwd->node(fwd->find("addmm")).module.empty());  // no module paths in 1.13 exports
}

// Guards land on the node their context names.
TEST(VizGraphModel, GuardsOnTheirNodes) {
  auto dump = testing::loadTestDump("tests/data/mlp-aot.fathom.json");
  ASSERT_TRUE(dump && dump->shapeEnv);
  auto fwd = GraphModel::build(*dump, "forward");
  ASSERT_TRUE(fwd.ok());
  const NodeInfo& addmm = fwd->node(fwd->find("addmm"));
  ASSERT_EQ(addmm.guards.size(), 1u);
  EXPECT_EQ(addmm.guards[0], 0);
  size_t withGuards = 0;
  for (const NodeInfo& n : fwd->nodes()) withGuards += !n.guards.empty();
  EXPECT_EQ(withGuards, 1u);
}

// A missing graph is an error naming it; a plain (non-AOT) dump has no sides or roles.
TEST(VizGraphModel, PlainGraphsAndErrors) {
  auto dump = testing::loadTestDump("samples/mlp.fathom.json");
  ASSERT_TRUE(dump);
  auto missing = GraphModel::build(*dump, "backward");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("backward"), std::string::npos);
  auto m = GraphModel::build(*dump, dump->graphs[0].name);
  ASSERT_TRUE(m.ok());
  EXPECT_FALSE(m->hasBothSides());
  EXPECT_TRUE(m->saved().empty());
  for (const NodeInfo& n : m->nodes()) EXPECT_EQ(n.role, PartitionRole::None);
}

}  // namespace
}  // namespace fathom::viz

namespace fathom::viz {
namespace {

// A box names ATen ops bare and keeps a custom op's namespace (a plugin's op is not ATen's).
TEST(VizShortOpName, AtenBareCustomOpsWithTheirNamespace) {
  EXPECT_EQ(shortOpName("aten.addmm.default"), "addmm");
  EXPECT_EQ(shortOpName("demo.row_pad.default"), "demo::row_pad");
  EXPECT_EQ(shortOpName("my::op"), "op");
  EXPECT_EQ(shortOpName("getitem"), "getitem");
}

}  // namespace
}  // namespace fathom::viz
