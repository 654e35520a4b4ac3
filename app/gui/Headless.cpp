// fathom-gui's headless mode (Headless.h).
#include "app/gui/Headless.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QImage>

#include <iostream>
#include <memory>
#include <regex>

#include "viz/gui/DumpLoader.h"
#include "viz/gui/InterpPanel.h"
#include "viz/gui/MainWindow.h"
#include "viz/gui/MinifyPanel.h"
#include "viz/gui/TimelinePanel.h"
#include "viz/model/Timeline.h"

namespace fathom::gui {

int fail(const std::string& message, int code) {
  std::string line = "fathom: ";  // the CLI's prefix: the same line as `fathom info`
  for (char c : message) line += (static_cast<unsigned char>(c) < 0x20) ? ' ' : c;
  std::cerr << line << '\n';
  return code;
}

namespace {



// Runs the event loop until the window has nothing left to do (at least 100 ms), at most 60 s.
bool settle(const fathom::viz::MainWindow& window) {
  QElapsedTimer timer;
  timer.start();
  do {
    QApplication::processEvents(QEventLoop::AllEvents, 50);
  } while ((!window.idle() || timer.elapsed() < 100) && timer.elapsed() < 60000);
  return window.idle();
}

// --minify: starts the minifier panel on the open dump and runs the event loop until the run
// ends, or until --minify-stop-after queries (the screenshot then shows it in flight). False,
// with the panel's message, when it cannot start.
bool startMinify(const GuiOptions& o, fathom::viz::MainWindow& window, std::string* error) {
  auto* panel = window.minifyPanel();
  window.showPanel(QStringLiteral("minify"));
  panel->setPredicate(o.minify == "repro" ? QString() : QString::fromStdString(o.minify));
  if (!o.minifyBackend.empty() || o.minify != "repro")
    panel->setBackend(QString::fromStdString(o.minifyBackend.empty() ? "eager" : o.minifyBackend));
  panel->setJobs(o.minifyJobs);
  if (!panel->start()) return *error = panel->statusText().toStdString(), false;
  // An event loop of its own, woken by the panel's signals: waiting costs no CPU beside the run.
  QEventLoop loop;
  QObject::connect(panel, &fathom::viz::MinifyPanel::finished, &loop, &QEventLoop::quit);
  QObject::connect(panel, &fathom::viz::MinifyPanel::progressed, &loop, [&] {
    if (o.minifyStopAfter > 0 && panel->run().queries() >= o.minifyStopAfter) loop.quit();
  });
  if (panel->running()) loop.exec();
  return true;
}

// After the screenshot: a run still going is cancelled (it keeps its best so far) and waited for;
// the outcome goes to stdout. 0 when the run ended with a result, else 1 with its message.
int finishMinify(fathom::viz::MainWindow& window) {
  auto* panel = window.minifyPanel();
  if (panel->running()) {
    QEventLoop loop;
    QObject::connect(panel, &fathom::viz::MinifyPanel::finished, &loop, &QEventLoop::quit);
    panel->cancel();
    loop.exec();
  }
  std::cout << "minify: " << panel->run().outcome() << (panel->resultPath().isEmpty() ? "" : "; result: ")
            << panel->resultPath().toStdString() << '\n';
  if (!panel->resultPath().isEmpty()) return 0;
  std::string message = panel->run().message();
  return fail(message.rfind("fathom: ", 0) == 0 ? message.substr(8) : message.empty() ? panel->run().outcome() : message, 1);
}

// The interpreter flags, in order: a breakpoint, a check report, N steps, run to a node (each
// operation finished before the next starts). An empty string when all went, else the error.
std::string driveInterpreter(const GuiOptions& o, fathom::viz::MainWindow& window) {
  fathom::viz::InterpPanel& panel = *window.interpPanel();
  const QString graph = window.currentGraphName();
  auto done = [&](bool started, const std::string& flag) -> std::string {
    if (started && settle(window) && panel.errorText().isEmpty()) return {};
    return flag + ": " + (panel.errorText().isEmpty() ? std::string("did not finish within 60 s") : panel.errorText().toStdString());
  };
  std::string error;
  if (!o.breakAt.empty()) error = done(panel.addBreakpoint(graph, QString::fromStdString(o.breakAt)), "--break");
  if (error.empty() && !o.checkReport.empty()) error = done(panel.openReport(QString::fromStdString(o.checkReport)), "--check-report");
  if (error.empty() && o.step > 0) error = done(panel.step(o.step), "--step");
  if (error.empty() && !o.runTo.empty()) error = done(panel.runTo(graph, QString::fromStdString(o.runTo)), "--run-to");
  return error;
}

// Headless: load, show the asked view, wait for background work, grab, write.
// --event KIND[:N] on the timeline: selects the N-th (1-based) event of that kind and opens what
// it names (a recompile: its --failing-guard, the first by default). Empty on success.
std::string openTimelineEvent(fathom::viz::TimelinePanel& panel, const GuiOptions& o) {
  using namespace fathom::viz;
  const auto colon = o.event.find(':');
  const std::string name = o.event.substr(0, colon);
  int nth = 1;
  if (colon != std::string::npos && !(std::regex_match(o.event.substr(colon + 1), std::regex("[1-9][0-9]{0,6}")) &&
                                      (nth = std::stoi(o.event.substr(colon + 1))) > 0))
    return "--event takes KIND or KIND:N (N from 1), e.g. recompile:2, not '" + o.event + "'";
  const TimelineKind kind = timelineKindOf(name);
  if (kind == TimelineKind::Other) return "--event: '" + name + "' is not an event kind (e.g. recompile, cache_hit, guard_added, compile_start)";
  const int event = panel.findEvent(static_cast<int>(kind), nth - 1);
  if (event < 0) return o.traceLog + ": no " + name + " event number " + std::to_string(nth) + " in the log";
  const auto& failures = panel.timeline()->events[static_cast<size_t>(event)].failures;
  if (o.failingGuard > static_cast<int>(failures.size()))
    return "--failing-guard " + std::to_string(o.failingGuard) + ": the " + name + " has " + std::to_string(failures.size()) + " failing guard(s)";
  if (o.failingGuard > 0 ? !panel.activateFailure(event, o.failingGuard - 1) : !panel.activateEvent(event)) panel.selectEvent(event);
  return {};
}

}  // namespace

int screenshot(const GuiOptions& o, int width, int height) {
  fathom::viz::LoadOptions load{o.keepUnknownOps, o.trustPaths};
  std::shared_ptr<const fathom::viz::Timeline> timeline;
  std::string dump = o.dump;
  if (!o.traceLog.empty()) {
    auto read = fathom::viz::loadTimeline(o.traceLog);
    if (!read.ok()) return fail(read.error().str());
    timeline = std::make_shared<const fathom::viz::Timeline>(std::move(*read));
    if (dump.empty()) dump = fathom::viz::resolveTimelineDump(o.traceLog, timeline->firstDump());
  }
  fathom::viz::MainWindow window;
  window.resize(width, height);
  window.show();
  if (!dump.empty()) {
    auto loaded = fathom::viz::loadDumpForView(QString::fromStdString(dump), load);
    if (!loaded.dump) return fail(loaded.error);
    window.showLoaded(loaded);
  }
  if (timeline) {
    window.timelinePanel()->setTimeline(timeline);
    window.showTimelinePanel();
  }
  window.minifyPanel()->setLoadOptions(load);
  if (!o.graph.empty() && !window.selectGraph(QString::fromStdString(o.graph)))
    return fail(dump + ": no graph named '" + o.graph + "' (the dump has: " + window.graphNames().join(", ").toStdString() + ")");
  if (!o.expand.empty() && !window.expandGroup(QString::fromStdString(o.expand)))
    return fail(dump + ": no group '" + o.expand + "' in graph '" + window.currentGraphName().toStdString() + "'");
  if (!o.breakAt.empty() || !o.checkReport.empty() || o.step > 0 || !o.runTo.empty())
    if (const std::string error = driveInterpreter(o, window); !error.empty()) return fail(dump + ": " + error);
  if (!o.select.empty() && !window.selectNode(QString::fromStdString(o.select)))
    return fail(dump + ": no node '" + o.select + "' in graph '" + window.currentGraphName().toStdString() + "'");
  if (!o.explain.empty()) window.explainSizes(QString::fromStdString(o.explain));
  if (!o.event.empty())
    if (const std::string error = openTimelineEvent(*window.timelinePanel(), o); !error.empty()) return fail(error);
  if (!o.diff.empty()) {
    window.compareWith(QString::fromStdString(o.diff), load);
    if (!settle(window)) return fail("the comparison did not finish within 60 s", 3);
    if (!window.diffError().isEmpty()) return fail(window.diffError().toStdString());
  }
  if (!o.diffMode.empty() && !window.setDiffMode(QString::fromStdString(o.diffMode)))
    return fail("--diff-mode takes side or overlay, not '" + o.diffMode + "'");
  if (!o.panel.empty() && !window.showPanel(QString::fromStdString(o.panel)))
    return fail("--panel: no panel named '" + o.panel + "' (" + kPanels + ")");
  std::string minifyError;
  if (!o.minify.empty() && !startMinify(o, window, &minifyError)) return fail(minifyError);
  if (!settle(window)) return fail("the view did not settle within 60 s (layout or Z3 still running)", 3);
  const QImage image = window.grab().toImage();
  if (!image.save(QString::fromStdString(o.screenshot), "PNG")) return fail("cannot write " + o.screenshot);
  return o.minify.empty() ? 0 : finishMinify(window);
}


}  // namespace fathom::gui
