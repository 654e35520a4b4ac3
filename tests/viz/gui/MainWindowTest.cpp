// The Qt shell under QT_QPA_PLATFORM=offscreen: what a person sees when opening files - every bad
// sample shows the CLI's error line in the window; a dump opens one tab per graph with the joint
// graph first; selecting a node fills the inspector and survives a tab switch; the guards panel
// lists every guard and its background Z3 check and explain finish and mark rows; find walks
// results; exports write files. These drive the same public slots as --screenshot.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>

#include <filesystem>

#include "engine/dump/Dump.h"
#include "engine/symbolic/ShapeEnv.h"
#include "engine/symbolic/Solver.h"
#include "tests/TestDataDir.h"
#include "viz/gui/FindPanel.h"
#include "viz/gui/GraphCanvas.h"
#include "viz/gui/GraphTab.h"
#include "viz/gui/GuardsPanel.h"
#include "viz/gui/InspectorPanel.h"
#include "viz/gui/MainWindow.h"

namespace fathom::viz {
namespace {

QString data(const char* relative) { return QDir(QString::fromUtf8(FATHOM_TEST_DATA_DIR)).filePath(QString::fromUtf8(relative)); }

// Runs the event loop until the window has nothing left to do (layouts, Z3), at most 60 s.
bool settle(const MainWindow& w) {
  QElapsedTimer t;
  t.start();
  while (!w.idle() && t.elapsed() < 60000) QApplication::processEvents(QEventLoop::AllEvents, 20);
  QApplication::processEvents();
  return w.idle();
}

// Every file in samples/bad/ shows exactly the error `fathom info` prints, in the window.
TEST(GuiMainWindow, EveryBadSampleShowsTheCliErrorInTheWindow) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(FATHOM_TEST_DATA_DIR) + "/samples/bad")) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    const std::string path = entry.path().string();
    auto expected = loadDump(path);
    ASSERT_FALSE(expected.ok()) << path << " loads, but samples/bad should not";
    MainWindow w;
    w.showLoaded(loadDumpForView(QString::fromStdString(path)));
    EXPECT_EQ(w.errorText().toStdString(), expected.error().str()) << path;
    EXPECT_TRUE(w.graphNames().isEmpty()) << path;
  }
  EXPECT_GT(files, 20);
}

// Opening runs off the UI thread: openFile returns at once and the window fills in later; a bad
// file opened that way shows its error.
TEST(GuiMainWindow, OpenFileLoadsInTheBackground) {
  MainWindow w;
  w.openFile(data("tests/data/mlp-aot.fathom.json"));
  EXPECT_FALSE(w.idle());
  EXPECT_TRUE(w.graphNames().isEmpty());
  ASSERT_TRUE(settle(w));
  EXPECT_EQ(w.graphNames().size(), 3);
  w.openFile(data("samples/bad/cycle.json"));
  ASSERT_TRUE(settle(w));
  EXPECT_TRUE(w.errorText().contains(QStringLiteral("cycle.json"))) << w.errorText().toStdString();
}

// An AOT dump opens on the joint graph, with a tab per graph.
TEST(GuiMainWindow, OpensOneTabPerGraphJointFirst) {
  MainWindow w;
  w.resize(1200, 800);
  w.showLoaded(loadDumpForView(data("tests/data/mlp-aot.fathom.json")));
  ASSERT_TRUE(w.errorText().isEmpty()) << w.errorText().toStdString();
  EXPECT_EQ(w.graphNames(), (QStringList{"joint", "forward", "backward"}));
  EXPECT_EQ(w.currentGraphName(), QStringLiteral("joint"));
  ASSERT_TRUE(settle(w));
  EXPECT_FALSE(w.currentTab()->canvas()->scene().items.empty());
}

// A forward node saved for the backward stays selected (mapped) when switching to the backward.
TEST(GuiMainWindow, SelectionOfASavedValueFollowsToTheBackward) {
  MainWindow w;
  w.showLoaded(loadDumpForView(data("tests/data/mlp-aot.fathom.json")));
  ASSERT_TRUE(w.selectGraph(QStringLiteral("forward")));
  const GraphModel& forward = w.currentTab()->model();
  int32_t saved = -1;
  for (const NodeInfo& n : forward.nodes())
    if (n.role == PartitionRole::SavedForBackward) saved = n.index;
  ASSERT_GE(saved, 0) << "mlp-aot saves nothing?";
  ASSERT_TRUE(w.selectNode(QString::fromStdString(forward.node(saved).name)));
  EXPECT_TRUE(w.inspector()->toHtml().contains(QStringLiteral("saved")));
  ASSERT_TRUE(w.selectGraph(QStringLiteral("backward")));
  const auto& selection = w.currentTab()->state().selection();
  ASSERT_FALSE(selection.empty());
  // The backward placeholder of the same name, or its users.
  const GraphModel& backward = w.currentTab()->model();
  const int32_t same = backward.find(forward.node(saved).name);
  EXPECT_TRUE(same >= 0 && std::find(selection.begin(), selection.end(), same) != selection.end());
}

// The guards panel lists every guard and specialization; Z3 checks them in the background; an
// explain with sizes that fail marks the failing guards.
// Expanding a group lays it out on a worker thread: the status bar says so until it is done,
// and the group's children are then on the canvas.
TEST(GuiMainWindow, ExpandingShowsLayoutProgressInTheStatusBar) {
  MainWindow w;
  w.resize(1200, 800);
  w.showLoaded(loadDumpForView(data("samples/bert.fathom.json")));
  ASSERT_TRUE(settle(w));
  const size_t before = w.currentTab()->canvas()->scene().items.size();
  ASSERT_TRUE(w.expandGroup(QStringLiteral("attention")));
  EXPECT_TRUE(w.statusBar()->currentMessage().startsWith(QStringLiteral("Laying out"))) << w.statusBar()->currentMessage().toStdString();
  ASSERT_TRUE(settle(w));
  EXPECT_FALSE(w.statusBar()->currentMessage().startsWith(QStringLiteral("Laying out")));
  EXPECT_GT(w.currentTab()->canvas()->scene().items.size(), before);
}

// The collapsed BERT layer draws every edge downward: its "attention" module, whose parameters
// open the graph, comes after hidden_states, which feeds it (it was laid out above it).
TEST(GuiMainWindow, CollapsedModulesFollowTheDataFlow) {
  MainWindow w;
  w.resize(1200, 800);
  w.showLoaded(loadDumpForView(data("samples/bert.fathom.json")));
  ASSERT_TRUE(settle(w));
  const Scene& scene = w.currentTab()->canvas()->scene();
  const SceneItem* attention = nullptr;
  const SceneItem* hidden = nullptr;
  for (const SceneItem& item : scene.items) {
    if (!item.lines.empty() && item.lines.front().starts_with("attention (")) attention = &item;
    if (!item.lines.empty() && item.lines.front() == "hidden_states") hidden = &item;
  }
  ASSERT_TRUE(attention && hidden);
  EXPECT_LT(hidden->box.y + hidden->box.height, attention->box.y);
}

TEST(GuiMainWindow, GuardsPanelChecksAndExplains) {
  MainWindow w;
  w.showLoaded(loadDumpForView(data("tests/data/mlp-dynamic.fathom.json")));
  ASSERT_TRUE(w.errorText().isEmpty()) << w.errorText().toStdString();
  auto dump = loadDump(data("tests/data/mlp-dynamic.fathom.json").toStdString());
  ASSERT_TRUE(dump.ok() && dump->shapeEnv);
  const auto& env = *dump->shapeEnv;
  EXPECT_EQ(w.guardsPanel()->rowCount(), static_cast<int>(env.guards().size() + env.specializations().size()));
  ASSERT_TRUE(settle(w));
  if (!sym::Solver::available()) GTEST_SKIP() << "skipped: this build has no Z3";
  EXPECT_TRUE(w.guardsPanel()->statusText().contains(QStringLiteral("Z3: consistent"))) << w.guardsPanel()->statusText().toStdString();
  // mlp-dynamic pins s1 to 784 (Eq(s1, 784)): 600 fails that guard, and its node is highlighted.
  w.explainSizes(QStringLiteral("s0=4,s1=600"));
  ASSERT_TRUE(settle(w));
  ASSERT_EQ(w.guardsPanel()->failingGuards().size(), 1);
  const auto& guard = env.guards()[static_cast<size_t>(w.guardsPanel()->failingGuards().front())];
  EXPECT_EQ(guard.expr.str(), "Eq(s1, 784)");
  const int32_t node = w.currentTab()->model().find(guard.where.node);
  ASSERT_GE(node, 0);
  const Scene& scene = w.currentTab()->canvas()->scene();
  const int item = scene.itemOfNode(node);
  ASSERT_GE(item, 0);
  EXPECT_EQ(scene.items[static_cast<size_t>(item)].highlight, Highlight::Guard);
  // Sizes that pass mark nothing.
  w.explainSizes(QStringLiteral("s0=4,s1=784"));
  ASSERT_TRUE(settle(w));
  EXPECT_TRUE(w.guardsPanel()->failingGuards().isEmpty());
}

// Find by op regex walks the results in graph order and selects them.
TEST(GuiMainWindow, FindWalksResults) {
  MainWindow w;
  w.showLoaded(loadDumpForView(data("samples/mlp.fathom.json")));
  FindQuery q;
  q.op = "addmm";
  w.findPanel()->setQuery(q);
  ASSERT_TRUE(w.findPanel()->run());
  ASSERT_FALSE(w.findPanel()->results().empty());
  w.findPanel()->next();
  const auto& selection = w.currentTab()->state().selection();
  ASSERT_EQ(selection.size(), 1u);
  EXPECT_EQ(selection.front(), w.findPanel()->results().front());
  EXPECT_EQ(w.currentTab()->model().node(selection.front()).opShort, "addmm");
}

// Exports: SVG and PNG of the whole graph and DOT of the graph are written.
TEST(GuiMainWindow, ExportsSvgPngAndDot) {
  QTemporaryDir dir;
  MainWindow w;
  w.resize(1000, 700);
  w.showLoaded(loadDumpForView(data("samples/mlp.fathom.json")));
  ASSERT_TRUE(settle(w));
  ASSERT_TRUE(w.exportView(dir.filePath("g.svg"), true));
  ASSERT_TRUE(w.exportView(dir.filePath("g.png"), true));
  ASSERT_TRUE(w.exportDot(dir.filePath("g.dot")));
  EXPECT_GT(QFileInfo(dir.filePath("g.svg")).size(), 1000);
  EXPECT_GT(QFileInfo(dir.filePath("g.png")).size(), 1000);
  EXPECT_GT(QFileInfo(dir.filePath("g.dot")).size(), 100);
}

}  // namespace
}  // namespace fathom::viz

// Qt's font and platform stack keeps allocations to the end by design: no leak report for this
// executable (tests/CMakeLists.txt says why); ASan's memory errors and UBSan stay on.
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("fathom-tests"));
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
