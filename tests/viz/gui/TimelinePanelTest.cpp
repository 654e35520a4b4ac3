// The Timeline panel under QT_QPA_PLATFORM=offscreen, on the CLI's BERT recompile session
// (tests/viz/BertRecompileSession.h): the log loads in the background and opens the first
// compile's dump; a recompile's failing guard opens the dump of the entry that refused the call
// and selects the node the guard came from (the other failing guards' nodes outlined); a click on
// the axis does the same; a guard_added event selects its node in its compile's dump; a file that
// is not a trace log shows its error; the list filters by kind; reading can be cancelled.
#include <gtest/gtest.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QMouseEvent>
#include <QStatusBar>

#include "tests/TestDataDir.h"
#include "tests/viz/BertRecompileSession.h"
#include "viz/gui/GraphTab.h"
#include "viz/gui/MainWindow.h"
#include "viz/gui/TimelinePanel.h"
#include "viz/gui/TimelineView.h"
#include "viz/model/Timeline.h"

namespace fathom::viz {
namespace {

bool settleWindow(const MainWindow& w) {
  QElapsedTimer t;
  t.start();
  do {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
  } while (!w.idle() && t.elapsed() < 60000);
  QApplication::processEvents();
  return w.idle();
}

bool sameFile(const QString& a, const std::string& b) {
  return QFileInfo(a).canonicalFilePath() == QFileInfo(QString::fromStdString(b)).canonicalFilePath();
}

// The node selected in the window's current graph, by name ("" when none or several).
std::string selectedNode(MainWindow& w) {
  auto* tab = w.currentTab();
  if (!tab || tab->state().selection().size() != 1) return {};
  return tab->model().node(tab->state().selection().front()).name;
}

int32_t nodeIndex(MainWindow& w, const char* name) { return w.currentTab()->model().find(name); }

// Loads the session's log like Ctrl+T and waits for the first compile's dump to open.
void openSession(MainWindow& w) {
  const auto& session = testing::bertRecompileSession();
  ASSERT_TRUE(session.error.empty()) << session.error;
  w.openTraceLog(QString::fromStdString(session.log));
  EXPECT_FALSE(w.idle()) << "the log should be read in the background";
  ASSERT_TRUE(settleWindow(w));
  ASSERT_NE(w.timelinePanel()->timeline(), nullptr) << w.timelinePanel()->errorText().toStdString();
  ASSERT_TRUE(settleWindow(w));
  ASSERT_TRUE(sameFile(w.dumpPath(), session.dumps[0])) << w.dumpPath().toStdString();
}

TEST(GuiTimeline, AFailingGuardOpensTheEntrysDumpAndSelectsItsNode) {
  const auto& session = testing::bertRecompileSession();
  MainWindow w;
  w.resize(1400, 900);
  openSession(w);
  TimelinePanel* panel = w.timelinePanel();
  EXPECT_EQ(panel->timeline()->summary.compiles, 3);
  EXPECT_EQ(panel->timeline()->summary.recompiles, 2);
  const int recompile = panel->findEvent(static_cast<int>(TimelineKind::Recompile), 1);  // 8x1
  ASSERT_GE(recompile, 0);
  const auto& failures = panel->timeline()->events[static_cast<size_t>(recompile)].failures;
  ASSERT_EQ(failures.size(), 4u);
  ASSERT_EQ(failures[2].expr, "attention_mask.size(0) == 1");  // a check of entry #1

  ASSERT_TRUE(panel->activateFailure(recompile, 2));
  ASSERT_TRUE(settleWindow(w));
  EXPECT_TRUE(sameFile(w.dumpPath(), session.dumps[1])) << "opened " << w.dumpPath().toStdString();
  EXPECT_EQ(w.currentGraphName(), QStringLiteral("forward"));
  EXPECT_EQ(selectedNode(w), "attention_mask");
  // Entry #1's other failing guards are about input_ids: outlined as failing guards' nodes.
  const Scene scene = w.currentTab()->state().scene();
  bool inputIdsOutlined = false;
  for (const SceneItem& item : scene.items)
    if (!item.isGroup && item.id == nodeIndex(w, "input_ids")) inputIdsOutlined = item.highlight == Highlight::Guard;
  EXPECT_TRUE(inputIdsOutlined);
  EXPECT_TRUE(w.statusBar()->currentMessage().contains(QStringLiteral("attention_mask.size(0) == 1"))) << w.statusBar()->currentMessage().toStdString();
  EXPECT_TRUE(panel->detailText().contains(QStringLiteral("4 failing guards"))) << panel->detailText().toStdString();

  // Entry #0's failing guard takes the window back to the first dump.
  ASSERT_TRUE(panel->activateFailure(recompile, 0));
  ASSERT_TRUE(settleWindow(w));
  EXPECT_TRUE(sameFile(w.dumpPath(), session.dumps[0]));
  EXPECT_EQ(selectedNode(w), "input_ids");
}

// A click on the first recompile's marker on the axis opens its failing guard: s0 >= 2 of entry
// #0, about input_ids (already shown: only the selection changes).
TEST(GuiTimeline, ClickingARecompileOnTheAxisOpensItsFailingGuard) {
  MainWindow w;
  w.resize(1400, 900);
  w.show();
  openSession(w);
  TimelinePanel* panel = w.timelinePanel();
  ASSERT_TRUE(w.selectNode(QStringLiteral("slice_1")));
  const int recompile = panel->findEvent(static_cast<int>(TimelineKind::Recompile), 0);
  const QPoint at = panel->view()->positionOf(recompile);
  ASSERT_EQ(panel->view()->eventAt(at), recompile);
  QMouseEvent press(QEvent::MouseButtonPress, QPointF(at), panel->view()->mapToGlobal(QPointF(at)), Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(panel->view(), &press);
  ASSERT_TRUE(settleWindow(w));
  EXPECT_EQ(panel->selectedEvent(), recompile);
  EXPECT_EQ(selectedNode(w), "input_ids");
}

// guard_added names its node; its compile names the dump (compile 1's guard is in entry #1's dump).
TEST(GuiTimeline, AGuardAddedEventSelectsItsNodeInItsCompilesDump) {
  const auto& session = testing::bertRecompileSession();
  MainWindow w;
  openSession(w);
  TimelinePanel* panel = w.timelinePanel();
  const int guard = panel->findEvent(static_cast<int>(TimelineKind::GuardAdded), 1);
  ASSERT_GE(guard, 0);
  ASSERT_TRUE(panel->activateEvent(guard));
  ASSERT_TRUE(settleWindow(w));
  EXPECT_TRUE(sameFile(w.dumpPath(), session.dumps[1]));
  EXPECT_EQ(selectedNode(w), "slice_1");
}

TEST(GuiTimeline, FiltersTheListByKind) {
  MainWindow w;
  openSession(w);
  TimelinePanel* panel = w.timelinePanel();
  const int all = panel->visibleEventCount();
  EXPECT_EQ(all, static_cast<int>(panel->timeline()->events.size()));
  panel->setKindFilter(static_cast<int>(TimelineKind::Recompile));
  EXPECT_EQ(panel->visibleEventCount(), 2);
  panel->setKindFilter(static_cast<int>(TimelineKind::CacheHit));
  EXPECT_EQ(panel->visibleEventCount(), 1);
  panel->setKindFilter(-1);
  EXPECT_EQ(panel->visibleEventCount(), all);
}

// A dump opened as a trace log: the panel shows the error naming the file and line, no dump opens.
TEST(GuiTimeline, AFileThatIsNotATraceLogShowsItsError) {
  MainWindow w;
  const QString dump = QString::fromUtf8(FATHOM_TEST_DATA_DIR) + QStringLiteral("/samples/mlp.fathom.json");
  w.openTraceLog(dump);
  ASSERT_TRUE(settleWindow(w));
  EXPECT_EQ(w.timelinePanel()->timeline(), nullptr);
  EXPECT_TRUE(w.timelinePanel()->errorText().contains(dump + QStringLiteral(": line 1: not a trace log"))) << w.timelinePanel()->errorText().toStdString();
  EXPECT_TRUE(w.timelinePanel()->statusText().contains(QStringLiteral("Cannot read the trace log")));
  EXPECT_TRUE(w.dumpPath().isEmpty());
}

TEST(GuiTimeline, ReadingCanBeCancelled) {
  const auto& session = testing::bertRecompileSession();
  MainWindow w;
  w.openTraceLog(QString::fromStdString(session.log));
  EXPECT_FALSE(w.timelinePanel()->idle());
  w.timelinePanel()->cancelLoad();
  EXPECT_TRUE(w.timelinePanel()->idle());
  ASSERT_TRUE(settleWindow(w));
  EXPECT_EQ(w.timelinePanel()->timeline(), nullptr);  // the late result is dropped
  EXPECT_TRUE(w.timelinePanel()->statusText().contains(QStringLiteral("cancelled")));
  EXPECT_TRUE(w.dumpPath().isEmpty());
}

}  // namespace
}  // namespace fathom::viz
