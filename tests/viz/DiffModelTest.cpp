// DiffModel and DiffOverlay without a display: marks per side, the correspondence both ways and
// the one-line descriptions on hand-made pairs (a changed op and constant, a renamed node, meta
// and strides, a cut-down graph), on traced pairs (a recompile at batch 1; guards raised without
// duck sizing), and on a real minifier before/after pair (the committed repro minified in
// process); the overlay's union is a valid graph holding every node of both sides.
#include <gtest/gtest.h>

#include "engine/frontend/ShapeTracing.h"
#include "engine/graph/GraphBuilder.h"
#include "minifier/Predicates.h"
#include "samples/models/Models.h"
#include "tests/engine/TestGraphs.h"
#include "tests/viz/VizTestDumps.h"
#include "viz/model/DiffModel.h"
#include "viz/model/DiffOverlay.h"
#include "viz/model/DiffText.h"

namespace fathom::viz {
namespace {

using fathom::testing::diffChain;

// Two one-graph dumps and their models (the dumps are kept alive with the models).
struct Pair {
  std::shared_ptr<const Dump> a, b;
  std::unique_ptr<GraphModel> left, right;
  DiffModel diff;
};

std::shared_ptr<const Dump> dumpOf(Graph g, std::shared_ptr<sym::ShapeEnv> env = nullptr) {
  auto d = std::make_shared<Dump>();
  d->graphs.push_back({"forward", std::move(g)});
  d->shapeEnv = std::move(env);
  return d;
}

std::unique_ptr<Pair> pairOf(std::shared_ptr<const Dump> a, std::shared_ptr<const Dump> b, const std::string& graph = "forward") {
  auto p = std::make_unique<Pair>();
  p->a = std::move(a);
  p->b = std::move(b);
  auto left = GraphModel::build(*p->a, graph);
  auto right = GraphModel::build(*p->b, graph);
  EXPECT_TRUE(left.ok() && right.ok());
  if (!left.ok() || !right.ok()) return nullptr;
  p->left = std::make_unique<GraphModel>(std::move(*left));
  p->right = std::make_unique<GraphModel>(std::move(*right));
  p->diff = DiffModel::build(*p->left, *p->right);
  return p;
}

// diffChain cut down as the minifier would: x -> relu -> mul, the mul returned (y and last gone).
Graph cutDown() {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 8}));
  NodeRef r = b.call("aten.relu.default", {x}, {}, "relu");
  b.output({b.call("aten.mul.Tensor", {r, 2.0}, {}, "mul")});
  auto g = b.finish();
  EXPECT_TRUE(g.ok());
  return g.ok() ? std::move(*g) : Graph{};
}

int32_t node(const GraphModel& m, const std::string& name) {
  const int32_t n = m.find(name);
  EXPECT_GE(n, 0) << "no node " << name;
  return n;
}

const DiffEntry* entryFor(const DiffModel& d, const std::string& name) {
  for (const DiffEntry& e : d.entries())
    if (e.name == name) return &e;
  ADD_FAILURE() << "no entry " << name;
  return nullptr;
}

// A changed constant and a changed op: both sides mark those two Changed and the rest Same; the
// descriptions name the argument by its schema name and the op change.
TEST(DiffModel, ChangedOpAndArgumentMarksAndDescriptions) {
  auto p = pairOf(dumpOf(diffChain("relu", 2.0)), dumpOf(diffChain("relu", 3.0, "aten.sub.Tensor")));
  ASSERT_TRUE(p);
  const DiffModel& d = p->diff;
  EXPECT_EQ(d.counts().changed, 2);
  EXPECT_EQ(d.counts().same, 4);
  for (DiffSide side : {DiffSide::Left, DiffSide::Right}) {
    const GraphModel& m = d.model(side);
    EXPECT_EQ(d.marks(side)[static_cast<size_t>(node(m, "mul"))], NodeMark::Changed);
    EXPECT_EQ(d.marks(side)[static_cast<size_t>(node(m, "last"))], NodeMark::Changed);
    EXPECT_EQ(d.marks(side)[static_cast<size_t>(node(m, "relu"))], NodeMark::Same);
  }
  ASSERT_EQ(d.entries().size(), 2u);
  EXPECT_EQ(entryFor(d, "%mul")->what, "other: 2.0 -> 3.0");
  EXPECT_EQ(entryFor(d, "%last")->what, "op aten.add.Tensor -> aten.sub.Tensor");
  EXPECT_EQ(d.countsText(), "2 changed, 0 added, 0 removed, 4 same");
}

// A renamed node matched by op and inputs: the correspondence maps it both ways, it is the same,
// and a selection carries over.
TEST(DiffModel, RenamedNodeCorrespondsBothWays) {
  auto p = pairOf(dumpOf(diffChain("relu")), dumpOf(diffChain("relu_7")));
  ASSERT_TRUE(p);
  const DiffModel& d = p->diff;
  const int32_t l = node(*p->left, "relu"), r = node(*p->right, "relu_7");
  EXPECT_EQ(d.counterpart(DiffSide::Left, l), r);
  EXPECT_EQ(d.counterpart(DiffSide::Right, r), l);
  EXPECT_EQ(d.marks(DiffSide::Right)[static_cast<size_t>(r)], NodeMark::Same);
  EXPECT_TRUE(d.equal());
  EXPECT_TRUE(d.entries().empty());
  EXPECT_EQ(d.mapSelection(DiffSide::Left, {l, node(*p->left, "mul")}), (std::vector<int32_t>{r, node(*p->right, "mul")}));
  EXPECT_EQ(d.nodeText(DiffSide::Right, r), "%relu_7: the same as %relu on the left");
  EXPECT_EQ(d.counterpart(DiffSide::Left, 99), -1) << "out of range: no counterpart";
}

// Meta changes are split into their parts: sizes as "meta", strides only when the sizes agree,
// the storage offset on its own.
TEST(DiffModel, MetaStrideAndOffsetDescriptions) {
  Graph b = diffChain();
  auto& relu = b.mutableNodes()[2].val.as<TensorMeta>();
  relu.strides = {1, 4};
  relu.storageOffset = 4;
  b.mutableNodes()[3].val.as<TensorMeta>().sizes = {4, 16};  // the mul's recorded sizes
  auto p = pairOf(dumpOf(diffChain()), dumpOf(std::move(b)));
  ASSERT_TRUE(p);
  EXPECT_EQ(entryFor(p->diff, "%relu")->what, "stride [8, 1] -> [1, 4]; offset 0 -> 4");
  EXPECT_EQ(entryFor(p->diff, "%mul")->what, "meta f32[4, 8] -> f32[4, 16]");
  EXPECT_EQ(metaChanges(Value(fakeTensor(DType::Float32, {2})), Value(fakeTensor(DType::Int64, {2}))).front(), "meta f32[2] -> i64[2]");
}

// A cut-down graph (what the minifier returns): the left's removed nodes are marked Removed and
// have no counterpart; the reverse diff marks them Added on the right.
TEST(DiffModel, RemovedAndAddedNodes) {
  auto p = pairOf(dumpOf(diffChain()), dumpOf(cutDown()));
  ASSERT_TRUE(p);
  const DiffModel& d = p->diff;
  const int32_t y = node(*p->left, "y");
  EXPECT_EQ(d.marks(DiffSide::Left)[static_cast<size_t>(y)], NodeMark::Removed);
  EXPECT_EQ(d.counterpart(DiffSide::Left, y), -1);
  EXPECT_EQ(entryFor(d, "%y")->what, "placeholder f32[4, 8]");
  EXPECT_EQ(entryFor(d, "%last")->what, "aten.add.Tensor -> f32[4, 8]");
  EXPECT_EQ(entryFor(d, "%output")->what, "arg 0: [%last] -> [%mul]");
  EXPECT_EQ(d.nodeText(DiffSide::Left, y), "%y was removed: nothing matches it on the right");
  auto back = pairOf(dumpOf(cutDown()), dumpOf(diffChain()));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->diff.marks(DiffSide::Right)[static_cast<size_t>(node(*back->right, "y"))], NodeMark::Added);
  EXPECT_EQ(back->diff.counts().added, 2);
}

std::shared_ptr<const Dump> traced(const std::string& model, models::ModelOptions mo, bool duckSizing = true) {
  auto m = models::buildModel(model, mo);
  EXPECT_TRUE(m.ok());
  if (!m.ok()) return nullptr;
  ShapeTraceOptions so;
  so.dynamic = true;
  so.shapes.duckSizing = duckSizing;
  auto t = traceWithShapes(**m, so);
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().str());
  return t.ok() ? std::make_shared<const Dump>(std::move(t->dump)) : nullptr;
}

// A recompile: BERT traced dynamically at batch 2 and at batch 1 (1 is specialized, so the
// batch dimension becomes a constant and the sequence symbol is renamed): the embedding's meta
// reads the change, and the left's symbolic input is changed, not removed.
TEST(DiffModel, RecompileAtBatchOneDescribesTheSpecializedSizes) {
  auto p = pairOf(traced("bert", {.layers = 1, .batch = 2, .seq = 16}), traced("bert", {.layers = 1, .batch = 1, .seq = 64}));
  ASSERT_TRUE(p);
  const DiffModel& d = p->diff;
  EXPECT_GT(d.counts().changed, 10);
  const DiffEntry* ids = entryFor(d, "%input_ids");
  ASSERT_TRUE(ids);
  EXPECT_EQ(ids->what, "meta i64[s0, s1] -> i64[1, s0]");
  EXPECT_EQ(ids->state, NodeDiffState::Changed);
}

// Without duck sizing the two attention masks get their own symbols; the add broadcasting them
// raises the guards that unify them, one description each.
TEST(DiffModel, GuardsAddedOneByOne) {
  auto p = pairOf(traced("bert", {.layers = 1, .batch = 2, .seq = 16}), traced("bert", {.layers = 1, .batch = 2, .seq = 16}, false));
  ASSERT_TRUE(p);
  const DiffEntry* add = entryFor(p->diff, "%add_2");
  ASSERT_TRUE(add);
  EXPECT_NE(std::find(add->changes.begin(), add->changes.end(), "guard added: Eq(s0, s2)"), add->changes.end()) << add->what;
  EXPECT_NE(std::find(add->changes.begin(), add->changes.end(), "guard added: Eq(s1, s3)"), add->changes.end()) << add->what;
}

// The committed repro minified in process under its own predicate and backend: the kept nodes
// are the same on both sides, the cut-off ones removed, the call turned into an input changed.
TEST(DiffModel, MinifierBeforeAndAfter) {
  auto dump = testing::loadTestDump("tests/data/repro-linear-relu.fathom.json");
  ASSERT_TRUE(dump && dump->repro);
  const Graph& g = *dump->graph(dump->repro->graph);
  auto spec = minify::parsePredicate(dump->repro->predicate);
  ASSERT_TRUE(spec.ok());
  minify::OracleContext context;
  context.dump = dump.get();
  context.graphName = dump->repro->graph;
  context.backend = minify::findBackend(dump->repro->backend);
  auto oracle = minify::makeOracle(*spec, g, *dump->inputsFor(dump->repro->graph), context);
  ASSERT_TRUE(oracle.ok()) << oracle.error().str();
  auto result = minify::minify(g, *dump->inputsFor(dump->repro->graph), oracle->oracle);
  ASSERT_TRUE(result.ok() && result->originalFails);
  ASSERT_LT(result->best.graph.size(), g.size());
  auto p = pairOf(dump, dumpOf(result->best.graph), dump->repro->graph);
  ASSERT_TRUE(p);
  const DiffModel& d = p->diff;
  EXPECT_EQ(d.counts().added, 0) << "the minifier adds nothing";
  EXPECT_EQ(d.counts().removed, static_cast<int64_t>(g.size() - result->best.graph.size()));
  for (const NodeInfo& n : p->right->nodes())
    EXPECT_EQ(p->left->node(d.counterpart(DiffSide::Right, n.index)).name, n.name) << "kept nodes keep their names";
  EXPECT_EQ(d.marks(DiffSide::Left)[static_cast<size_t>(node(*p->left, "w"))], NodeMark::Removed);
  EXPECT_EQ(d.marks(DiffSide::Left)[static_cast<size_t>(node(*p->left, "relu"))], NodeMark::Same);
  EXPECT_EQ(entryFor(d, "%t")->what, "kind call -> placeholder; op aten.t.default -> none; self removed: %w");
}

// The overlay of a cut-down pair: the right graph plus the removed nodes, a valid graph (every
// input defined before use), the removed add wired to the right's mul; the maps round-trip.
TEST(DiffOverlay, UnionOfACutDownPair) {
  auto p = pairOf(dumpOf(diffChain()), dumpOf(cutDown()));
  ASSERT_TRUE(p);
  auto o = buildDiffOverlay(p->diff);
  ASSERT_TRUE(o.ok()) << o.error().str();
  const Graph& u = *o->dump->graph(o->graph);
  ASSERT_TRUE(u.verify().ok()) << u.verify().error().str();
  EXPECT_EQ(u.size(), p->right->size() + 2);  // y and last come back
  const NodeRef last = *u.find("last");
  EXPECT_EQ(o->marks[static_cast<size_t>(last.index)], NodeMark::Removed);
  EXPECT_EQ(u.node(last).args[0].as<NodeRef>(), *u.find("mul")) << "wired through the match";
  EXPECT_EQ(u.node(last).args[1].as<NodeRef>(), *u.find("y"));
  for (size_t i = 0; i < u.size(); ++i) {
    const int32_t l = o->toSide(DiffSide::Left, static_cast<int32_t>(i)), rr = o->toSide(DiffSide::Right, static_cast<int32_t>(i));
    if (l >= 0) {
      EXPECT_EQ(o->fromSide(DiffSide::Left, l), static_cast<int32_t>(i));
    }
    if (rr >= 0) {
      EXPECT_EQ(o->fromSide(DiffSide::Right, rr), static_cast<int32_t>(i));
    }
    EXPECT_TRUE(l >= 0 || rr >= 0);
  }
}

// The overlay of a recompile: a valid graph (inputs before use, the output last), every removed
// node of the left shown.
TEST(DiffOverlay, RecompileUnionIsValidAndComplete) {
  auto p = pairOf(traced("bert", {.layers = 1, .batch = 2, .seq = 16}), traced("bert", {.layers = 1, .batch = 1, .seq = 64}));
  ASSERT_TRUE(p);
  auto o = buildDiffOverlay(p->diff);
  ASSERT_TRUE(o.ok()) << o.error().str();
  const Graph& u = *o->dump->graph(o->graph);
  EXPECT_EQ(static_cast<int64_t>(u.size()), static_cast<int64_t>(p->right->size()) + p->diff.counts().removed);
  EXPECT_TRUE(u.verify().ok()) << u.verify().error().str();
  for (size_t i = 0; i < u.size(); ++i)
    forEachNodeRef(u.nodes()[i], [&](NodeRef r) { EXPECT_LT(r.index, static_cast<int32_t>(i)) << u.nodes()[i].name << " reads a later node"; });
  EXPECT_EQ(u.nodes().back().kind, NodeKind::Output);
  int removedShown = 0;
  for (size_t i = 0; i < p->left->size(); ++i)
    if (p->diff.marks(DiffSide::Left)[i] == NodeMark::Removed) removedShown += o->fromSide(DiffSide::Left, static_cast<int32_t>(i)) >= 0;
  EXPECT_EQ(removedShown, p->diff.counts().removed);
}

}  // namespace
}  // namespace fathom::viz
