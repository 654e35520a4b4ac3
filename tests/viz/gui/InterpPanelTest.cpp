// The interpreter panel in the window (offscreen): the view follows the run and the graph tab
// draws its marks; the Debug actions carry their shortcuts; breakpoints show as dots; refused sizes
// say which guard; a check report is laid over the dump; and a long continue on the 12-layer BERT
// leaves the event loop answering (a timer keeps ticking) until Pause stops it between two nodes.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTimer>

#include "engine/dump/Dump.h"
#include "tests/TestDataDir.h"
#include "tests/viz/VizTestDumps.h"
#include "viz/gui/GraphCanvas.h"
#include "viz/gui/GraphTab.h"
#include "viz/gui/InterpPanel.h"
#include "viz/gui/MainWindow.h"

namespace fathom::viz {
namespace {

QString data(const char* relative) { return QDir(QString::fromUtf8(FATHOM_TEST_DATA_DIR)).filePath(QString::fromUtf8(relative)); }

bool settle(const MainWindow& w, int timeoutMs = 120000) {
  QElapsedTimer t;
  t.start();
  while (!w.idle() && t.elapsed() < timeoutMs) QApplication::processEvents(QEventLoop::AllEvents, 20);
  QApplication::processEvents();
  return w.idle();
}

NodeMark tabMark(MainWindow& w, const char* node) {
  const int32_t i = w.currentTab()->model().find(node);
  const auto& marks = w.currentTab()->state().marks();
  return i >= 0 && static_cast<size_t>(i) < marks.size() ? marks[static_cast<size_t>(i)] : NodeMark::None;
}

QAction* actionWithKey(InterpPanel& p, const QKeySequence& key) {
  for (QAction* a : p.debugActions())
    if (a->shortcuts().contains(key)) return a;
  return nullptr;
}

// F5 (continue) on the lying export stops at the origin: the view selects it, the tab marks it,
// the table shows the lying strides; F9 puts a breakpoint dot on the selected node.
TEST(GuiInterpPanel, ContinueFollowsTheOriginAndMarksTheTab) {
  MainWindow w;
  w.resize(1200, 800);
  w.showLoaded(loadDumpForView(data("tests/data/torch-fake-meta-lies.fathom.json")));
  ASSERT_TRUE(w.showPanel(QStringLiteral("interp")));
  InterpPanel& p = *w.interpPanel();
  for (auto key : {Qt::Key_F10, Qt::Key_F5, Qt::Key_F9}) ASSERT_TRUE(actionWithKey(p, QKeySequence(key))) << key;
  ASSERT_TRUE(actionWithKey(p, QKeySequence(Qt::CTRL | Qt::Key_F10)));
  ASSERT_TRUE(actionWithKey(p, QKeySequence(Qt::SHIFT | Qt::Key_F9)));
  ASSERT_TRUE(actionWithKey(p, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F5)));
  ASSERT_TRUE(actionWithKey(p, QKeySequence(Qt::Key_Escape)));
  actionWithKey(p, QKeySequence(Qt::Key_F5))->trigger();
  EXPECT_TRUE(p.running());
  ASSERT_TRUE(settle(w));
  const auto& sel = w.currentTab()->state().selection();
  ASSERT_EQ(sel.size(), 1u);
  EXPECT_EQ(w.currentTab()->model().node(sel.front()).name, "getitem") << "the view follows the origin";
  EXPECT_EQ(tabMark(w, "getitem"), NodeMark::Origin);
  EXPECT_EQ(tabMark(w, "getitem_1"), NodeMark::Current);
  EXPECT_EQ(p.mismatchRows(), 1);
  EXPECT_EQ(p.table().node, "getitem");
  EXPECT_TRUE(p.statusText().contains(QStringLiteral("1 mismatch (1 origin)"))) << p.statusText().toStdString();
  actionWithKey(p, QKeySequence(Qt::Key_F9))->trigger();
  const Scene& scene = w.currentTab()->canvas()->scene();
  EXPECT_TRUE(scene.items[static_cast<size_t>(scene.itemOfNode(sel.front()))].breakpoint);
  ASSERT_TRUE(w.selectNode(QStringLiteral("where")));
  actionWithKey(p, QKeySequence(Qt::CTRL | Qt::Key_F10))->trigger();
  ASSERT_TRUE(settle(w));
  EXPECT_EQ(tabMark(w, "where"), NodeMark::Origin);
  EXPECT_EQ(p.mismatchRows(), 2);
}

// Restart at sizes the guards refuse says which guard; a check report overlays its marks.
TEST(GuiInterpPanel, RefusedSizesAndCheckReport) {
  MainWindow w;
  auto dyn = testing::tracedDump("bert", 1, true);
  ASSERT_TRUE(dyn);
  w.showLoaded(LoadedDump{QStringLiteral("bert-dynamic"), dyn, {}, 0});
  InterpPanel& p = *w.interpPanel();
  ASSERT_TRUE(p.restartAt(QStringLiteral("s1=600")));
  ASSERT_TRUE(settle(w));
  EXPECT_TRUE(p.errorText().contains(QStringLiteral("s1 < 512 fails with s1 = 600"))) << p.errorText().toStdString();

  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("report.json"));
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(R"({"file": "x", "mismatches": [{"graph": "forward", "node": "getitem", "op": "getitem", "field": "strides",
              "expected": "[1, 6]", "actual": "[4, 1]", "origin": true}], "graphs": [{"graph": "forward"}]})");
  f.close();
  w.showLoaded(loadDumpForView(data("tests/data/torch-fake-meta-lies.fathom.json")));
  ASSERT_TRUE(p.openReport(path));
  ASSERT_TRUE(settle(w));
  EXPECT_TRUE(p.errorText().isEmpty()) << p.errorText().toStdString();
  EXPECT_EQ(tabMark(w, "getitem"), NodeMark::Origin);
  EXPECT_EQ(tabMark(w, "output"), NodeMark::Inherited);
  EXPECT_EQ(tabMark(w, "where"), NodeMark::Ran);
  ASSERT_TRUE(p.openReport(dir.filePath(QStringLiteral("missing.json"))));
  ASSERT_TRUE(settle(w));
  EXPECT_TRUE(p.errorText().contains(QStringLiteral("missing.json"))) << p.errorText().toStdString();
}

// A long continue runs off the UI thread: a 20 ms timer keeps ticking (no gap over 200 ms) while
// the 12-layer BERT runs; Pause stops it between two nodes, before the end, and it can go on.
TEST(GuiInterpPanel, LongContinueKeepsTheUiAnsweringAndPauseStopsIt) {
  auto bert = testing::tracedDump("bert", 12, true);
  ASSERT_TRUE(bert);
  MainWindow w;
  w.resize(1200, 800);
  w.showLoaded(LoadedDump{QStringLiteral("bert-12"), bert, {}, 0});
  InterpPanel& p = *w.interpPanel();
  ASSERT_TRUE(p.restartAt(QStringLiteral("s0=8,s1=128")));  // long enough to pause on any machine
  ASSERT_TRUE(settle(w));
  ASSERT_TRUE(p.errorText().isEmpty()) << p.errorText().toStdString();

  QElapsedTimer clock;
  qint64 last = 0, worstGap = 0;
  int ticks = 0;
  QTimer timer;
  timer.setInterval(20);
  QObject::connect(&timer, &QTimer::timeout, [&] {
    const qint64 now = clock.elapsed();
    worstGap = std::max(worstGap, now - last);
    last = now;
    ++ticks;
  });
  ASSERT_TRUE(p.continueRun());
  clock.start();
  timer.start();
  while (clock.elapsed() < 600) QApplication::processEvents(QEventLoop::AllEvents, 10);
  ASSERT_TRUE(p.running()) << "the run ended before Pause: " << p.statusText().toStdString();
  EXPECT_TRUE(p.statusText().contains(QStringLiteral("running"))) << p.statusText().toStdString();
  EXPECT_FALSE(p.continueRun()) << "one operation at a time";
  p.pause();
  QElapsedTimer paused;
  paused.start();
  while (p.running() && paused.elapsed() < 10000) QApplication::processEvents(QEventLoop::AllEvents, 10);
  timer.stop();
  EXPECT_FALSE(p.running()) << "Pause did not stop the run within 10 s";
  EXPECT_GE(ticks, 10);
  EXPECT_LT(worstGap, 200) << "the event loop stalled for " << worstGap << " ms";
  EXPECT_EQ(p.snapshot().stop, InterpStop::Paused);
  EXPECT_EQ(p.snapshot().state, InterpState::Ready);
  EXPECT_LT(p.snapshot().cursor, p.snapshot().nodes);
  const size_t at = p.snapshot().cursor;
  ASSERT_TRUE(p.step());
  ASSERT_TRUE(settle(w));
  EXPECT_EQ(p.snapshot().cursor, at + 1) << "a paused run goes on";
  std::printf("long continue: %d ticks, worst gap %lld ms, paused at node %zu of %zu\n", ticks,
              static_cast<long long>(worstGap), at, p.snapshot().nodes);
}

}  // namespace
}  // namespace fathom::viz
