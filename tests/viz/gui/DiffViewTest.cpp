// The diff view under QT_QPA_PLATFORM=offscreen, driven through MainWindow's public slots as
// --diff is: a comparison opens in the background, both sides carry their marks, selecting a
// node on one side selects its match on the other (a removed or added node selects nothing there
// and says so), the overlay shows the union, the Diff dock lists and filters the differences and
// a click there selects on both sides; two 10,000-node graphs are compared while the event loop
// keeps answering.
#include <gtest/gtest.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>

#include "engine/graph/GraphBuilder.h"
#include "tests/TestDataDir.h"
#include "tests/engine/TestGraphs.h"
#include "tests/viz/VizTestDumps.h"
#include "viz/gui/DiffPanel.h"
#include "viz/gui/DiffView.h"
#include "viz/gui/GraphCanvas.h"
#include "viz/gui/GraphTab.h"
#include "viz/gui/MainWindow.h"

namespace fathom::viz {
namespace {

bool settleWindow(const MainWindow& w) {
  QElapsedTimer t;
  t.start();
  while (!w.idle() && t.elapsed() < 60000) QApplication::processEvents(QEventLoop::AllEvents, 20);
  QApplication::processEvents();
  return w.idle();
}

QString save(const QTemporaryDir& dir, const char* name, Graph g) {
  Dump d;
  d.graphs.push_back({"forward", std::move(g)});
  const QString path = dir.filePath(QString::fromUtf8(name));
  EXPECT_TRUE(saveDump(d, path.toStdString()).ok());
  return path;
}

// The left graph with the mul's constant changed, y gone, and a tanh added before the last add.
Graph after() {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 8}));
  NodeRef r = b.call("aten.relu.default", {x}, {}, "relu");
  NodeRef m = b.call("aten.mul.Tensor", {r, 3.0}, {}, "mul");
  NodeRef t = b.call("aten.tanh.default", {m}, {}, "extra");
  b.output({b.call("aten.add.Tensor", {t, t}, {}, "last")});
  auto g = b.finish();
  EXPECT_TRUE(g.ok());
  return std::move(*g);
}

// diffChain against after(), both written to `dir`: the window shows the first and starts comparing.
void compareHandMadePair(const QTemporaryDir& dir, MainWindow& w) {
  const QString a = save(dir, "a.fathom.json", fathom::testing::diffChain()), b = save(dir, "b.fathom.json", after());
  w.resize(1400, 900);
  w.show();
  w.showLoaded(loadDumpForView(a));
  w.compareWith(b);
}

int32_t nodeOf(const GraphTab* t, const char* name) { return t->model().find(name); }

NodeMark markInScene(const GraphTab* t, int32_t node) {
  const Scene& s = t->canvas()->scene();
  const int item = s.itemOfNode(node);
  return item < 0 ? NodeMark::None : s.items[static_cast<size_t>(item)].mark;
}

TEST(GuiDiffView, SideBySideSelectionFollowsTheMatch) {
  QTemporaryDir dir;
  MainWindow w;
  compareHandMadePair(dir, w);
  EXPECT_FALSE(w.idle()) << "the comparison is built in the background";
  ASSERT_TRUE(settleWindow(w));
  ASSERT_TRUE(w.diffError().isEmpty()) << w.diffError().toStdString();
  DiffView* v = w.diffView();
  ASSERT_TRUE(v && v->isVisible());
  GraphTab* left = v->tab(DiffSide::Left);
  GraphTab* right = v->tab(DiffSide::Right);
  EXPECT_EQ(markInScene(left, nodeOf(left, "y")), NodeMark::Removed);
  EXPECT_EQ(markInScene(right, nodeOf(right, "extra")), NodeMark::Added);
  EXPECT_EQ(markInScene(right, nodeOf(right, "mul")), NodeMark::Changed);
  EXPECT_EQ(markInScene(left, nodeOf(left, "relu")), NodeMark::Same);

  v->selectNodes(DiffSide::Left, {nodeOf(left, "mul")});
  EXPECT_EQ(right->state().selection(), std::vector<int32_t>{nodeOf(right, "mul")});
  EXPECT_TRUE(v->message().contains(QStringLiteral("other: 2.0 -> 3.0"))) << v->message().toStdString();
  v->selectNodes(DiffSide::Left, {nodeOf(left, "y")});
  EXPECT_TRUE(right->state().selection().empty()) << "a removed node has nothing to select on the right";
  EXPECT_EQ(v->message(), QStringLiteral("%y was removed: nothing matches it on the right"));
  v->selectNodes(DiffSide::Right, {nodeOf(right, "extra")});
  EXPECT_TRUE(left->state().selection().empty());
  EXPECT_TRUE(v->message().contains(QStringLiteral("was added"))) << v->message().toStdString();
  v->selectNodes(DiffSide::Right, {nodeOf(right, "relu")});
  EXPECT_EQ(left->state().selection(), std::vector<int32_t>{nodeOf(left, "relu")});
  EXPECT_EQ(w.diffPanel()->currentEntry(), -1) << "a node that is the same has no row";
}

TEST(GuiDiffView, OverlayAndTheDiffPanel) {
  QTemporaryDir dir;
  MainWindow w;
  compareHandMadePair(dir, w);
  ASSERT_TRUE(settleWindow(w));
  DiffView* v = w.diffView();
  ASSERT_TRUE(v);
  ASSERT_TRUE(w.setDiffMode(QStringLiteral("overlay")));
  EXPECT_FALSE(w.setDiffMode(QStringLiteral("sideways")));
  EXPECT_TRUE(v->overlay());
  GraphTab* u = v->overlayTab();
  ASSERT_TRUE(u->isVisible() && !v->tab(DiffSide::Left)->isVisible());
  ASSERT_TRUE(settleWindow(w));
  EXPECT_EQ(u->model().size(), v->tab(DiffSide::Right)->model().size() + 1) << "the right graph and the removed y";
  EXPECT_EQ(markInScene(u, nodeOf(u, "y")), NodeMark::Removed);
  EXPECT_EQ(markInScene(u, nodeOf(u, "extra")), NodeMark::Added);
  u->select({nodeOf(u, "y")}, true);
  EXPECT_EQ(v->tab(DiffSide::Left)->state().selection(), std::vector<int32_t>{nodeOf(v->tab(DiffSide::Left), "y")});
  EXPECT_TRUE(v->tab(DiffSide::Right)->state().selection().empty());

  // The panel: mul and last changed, y removed, extra added; filtered by state; a click selects.
  DiffPanel* p = w.diffPanel();
  EXPECT_TRUE(w.showPanel(QStringLiteral("diff")));
  EXPECT_EQ(p->rowCount(), 4);
  EXPECT_EQ(p->countsText(), QStringLiteral("2 changed, 1 added, 1 removed, 3 same"));
  ASSERT_TRUE(p->setStateFilter(QStringLiteral("added")));
  ASSERT_EQ(p->rowCount(), 1);
  p->activateRow(0);
  EXPECT_EQ(u->state().selection(), std::vector<int32_t>{nodeOf(u, "extra")});
  EXPECT_EQ(v->tab(DiffSide::Right)->state().selection(), std::vector<int32_t>{nodeOf(v->tab(DiffSide::Right), "extra")});
  EXPECT_FALSE(p->setStateFilter(QStringLiteral("moved")));
  ASSERT_TRUE(p->setStateFilter(QStringLiteral("all")));
  EXPECT_EQ(p->currentEntry(), v->diff()->entryOf(DiffSide::Right, nodeOf(v->tab(DiffSide::Right), "extra")))
      << "the row stays current across the filter change";
  w.closeDiff();
  EXPECT_EQ(w.diffView(), nullptr);
  EXPECT_EQ(p->rowCount(), 0);
}

// Each side's graph by name: by default the current tab's name on the right too; then any pair
// of graphs of the two dumps; a name the dump lacks is an error naming the graphs it has.
TEST(GuiDiffView, PicksTheGraphOfEachSideByName) {
  const QString aot = QString::fromUtf8(FATHOM_TEST_DATA_DIR) + QStringLiteral("/tests/data/mlp-aot.fathom.json");
  MainWindow w;
  w.showLoaded(loadDumpForView(aot));
  ASSERT_EQ(w.currentGraphName(), QStringLiteral("joint"));
  w.compareWith(aot);
  ASSERT_TRUE(settleWindow(w) && w.diffView());
  auto graphName = [&w](DiffSide side) { return w.diffView()->diff()->model(side).graphName(); };
  EXPECT_EQ(graphName(DiffSide::Right), "joint");
  EXPECT_TRUE(w.diffView()->diff()->equal());
  w.compareGraphs(QStringLiteral("forward"), QStringLiteral("backward"));
  ASSERT_TRUE(settleWindow(w));
  EXPECT_EQ(graphName(DiffSide::Left), "forward");
  EXPECT_EQ(graphName(DiffSide::Right), "backward");
  EXPECT_FALSE(w.diffView()->diff()->equal());
  w.compareGraphs(QStringLiteral("forward"), QStringLiteral("nope"));
  ASSERT_TRUE(settleWindow(w));
  EXPECT_TRUE(w.diffError().contains(QStringLiteral("no graph named 'nope' (the dump has: joint, forward, backward)"))) << w.diffError().toStdString();
  EXPECT_EQ(graphName(DiffSide::Right), "backward") << "a failed comparison leaves the shown one";
}

// A dump that cannot be read: the comparison says so (the CLI's line), nothing else changes.
TEST(GuiDiffView, ABadOtherDumpShowsItsError) {
  MainWindow w;
  w.showLoaded(loadDumpForView(QString::fromUtf8(FATHOM_TEST_DATA_DIR) + QStringLiteral("/samples/mlp.fathom.json")));
  w.compareWith(QString::fromUtf8(FATHOM_TEST_DATA_DIR) + QStringLiteral("/samples/bad/cycle.json"));
  ASSERT_TRUE(settleWindow(w));
  EXPECT_TRUE(w.diffError().contains(QStringLiteral("cycle.json"))) << w.diffError().toStdString();
  EXPECT_EQ(w.diffView(), nullptr);
  EXPECT_FALSE(w.currentTab()->isHidden());
}

// Two GPT-2 joint graphs of 10,133 nodes (seq 8 and 16: ~8,000 changed): compareWith returns at
// once, a 10 ms timer keeps firing while the worker loads, diffs and builds the overlay, and no
// single pass of the event loop (the tabs made from the result included) takes long.
TEST(GuiDiffView, BigDiffDoesNotBlockTheEventLoop) {
  QTemporaryDir dir;
  auto a = testing::aotDump("gpt2", 62, false, 8), b = testing::aotDump("gpt2", 62, false, 16);
  ASSERT_TRUE(a && b);
  ASSERT_EQ(a->graph("joint")->size(), 10133u);
  const QString pa = dir.filePath(QStringLiteral("a.fathom.json")), pb = dir.filePath(QStringLiteral("b.fathom.json"));
  ASSERT_TRUE(saveDump(*a, pa.toStdString()).ok() && saveDump(*b, pb.toStdString()).ok());
  MainWindow w;
  w.resize(1400, 900);
  w.show();
  w.showLoaded(loadDumpForView(pa));
  ASSERT_TRUE(settleWindow(w));
  int ticks = 0;
  QTimer timer;
  QObject::connect(&timer, &QTimer::timeout, [&ticks] { ++ticks; });
  timer.start(10);
  QElapsedTimer clock;
  clock.start();
  w.compareWith(pb);
  const qint64 returned = clock.elapsed();
  qint64 longest = 0;
  while (!w.idle() && clock.elapsed() < 60000) {
    QElapsedTimer pass;
    pass.start();
    QApplication::processEvents(QEventLoop::AllEvents, 5);
    longest = std::max(longest, pass.elapsed());
  }
  ASSERT_TRUE(w.idle() && w.diffView()) << w.diffError().toStdString();
  const double workerMs = w.diffView()->build().seconds * 1000;
  std::printf("compareWith returned in %lld ms; worker %.0f ms; %d timer ticks; longest event-loop pass %lld ms; %s\n",
              static_cast<long long>(returned), workerMs, ticks, static_cast<long long>(longest),
              w.diffView()->diff()->countsText().c_str());
  EXPECT_LT(returned, 100) << "compareWith must not load or diff on the UI thread (the worker takes several times that)";
  EXPECT_GT(ticks, 3) << "the event loop answered while the diff was built";
  EXPECT_LT(longest, 250) << "one pass of the event loop stalled";
  EXPECT_GT(w.diffView()->diff()->counts().changed, 5000);
}

}  // namespace
}  // namespace fathom::viz
