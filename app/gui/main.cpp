// `fathom-gui [DUMP] [--trace-log LOG] [--screenshot OUT.png ...]`: the graph viewer (viz/gui/MainWindow). With
// --screenshot it renders one view headless (QT_QPA_PLATFORM=offscreen unless a platform is set),
// writes the PNG and exits: 0 when written, 2 with the CLI's one-line error for a bad file or
// bad option, 3 when the view did not settle in time.
#include <CLI/CLI.hpp>

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QTimer>

#include <cstdio>
#include <iostream>
#include <regex>

#include "viz/gui/DumpLoader.h"
#include "viz/gui/MainWindow.h"
#include "viz/gui/TimelinePanel.h"
#include "viz/model/Timeline.h"

namespace {

struct GuiOptions {
  std::string dump, screenshot, graph, select, expand, panel, size = "1600x1000", explain;
  std::string traceLog, event;  // the timeline: a trace log, and the event to open (KIND[:N])
  int failingGuard = 0;         // with --event on a recompile: which failing guard (1-based)
  bool keepUnknownOps = false, trustPaths = false;
};

int fail(const std::string& message, int code = 2) {
  std::string line = "fathom: ";  // the CLI's prefix: the same line as `fathom info`
  for (char c : message) line += (static_cast<unsigned char>(c) < 0x20) ? ' ' : c;
  std::cerr << line << '\n';
  return code;
}

bool parseSize(const std::string& text, int* w, int* h) {
  static const std::regex re(R"((\d{2,5})x(\d{2,5}))");
  std::smatch m;
  if (!std::regex_match(text, m, re)) return false;
  *w = std::stoi(m[1]);
  *h = std::stoi(m[2]);
  return *w >= 200 && *h >= 150 && *w <= 8000 && *h <= 8000;
}

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

// Headless: load, show the asked view, wait for background work, grab, write.
int screenshot(const GuiOptions& o, int width, int height) {
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
    auto loaded = fathom::viz::loadDumpForView(QString::fromStdString(dump), {o.keepUnknownOps, o.trustPaths});
    if (!loaded.dump) return fail(loaded.error);
    window.showLoaded(loaded);
  }
  if (timeline) {
    window.timelinePanel()->setTimeline(timeline);
    window.showTimelinePanel();
  }
  if (!o.panel.empty() && !window.showPanel(QString::fromStdString(o.panel)))
    return fail("--panel: no panel named '" + o.panel + "' (guards, inspector, find, timeline)");
  if (!o.graph.empty() && !window.selectGraph(QString::fromStdString(o.graph)))
    return fail(o.dump + ": no graph named '" + o.graph + "' (the dump has: " + window.graphNames().join(", ").toStdString() + ")");
  if (!o.expand.empty() && !window.expandGroup(QString::fromStdString(o.expand)))
    return fail(o.dump + ": no group '" + o.expand + "' in graph '" + window.currentGraphName().toStdString() + "'");
  if (!o.select.empty() && !window.selectNode(QString::fromStdString(o.select)))
    return fail(o.dump + ": no node '" + o.select + "' in graph '" + window.currentGraphName().toStdString() + "'");
  if (!o.explain.empty()) window.explainSizes(QString::fromStdString(o.explain));
  if (!o.event.empty())
    if (const std::string error = openTimelineEvent(*window.timelinePanel(), o); !error.empty()) return fail(error);
  QElapsedTimer timer;
  timer.start();
  do {
    QApplication::processEvents(QEventLoop::AllEvents, 50);
  } while ((!window.idle() || timer.elapsed() < 100) && timer.elapsed() < 60000);
  if (!window.idle()) return fail("the view did not settle within 60 s (layout or Z3 still running)", 3);
  const QImage image = window.grab().toImage();
  if (!image.save(QString::fromStdString(o.screenshot), "PNG")) return fail("cannot write " + o.screenshot);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  GuiOptions o;
  CLI::App app{"fathom-gui: see a captured graph - the forward/backward split, the saved values, every guard back to its source line"};
  app.add_option("DUMP", o.dump, "A dump, repro or PyTorch export (*.fathom.json) to open");
  app.add_option("--screenshot", o.screenshot, "Render headless into this PNG and exit (needs DUMP)");
  app.add_option("--graph", o.graph, "The graph tab to show (default: the joint graph when there is one, else the first)");
  app.add_option("--select", o.select, "Select this node (its name, with or without %) and center on it");
  app.add_option("--expand", o.expand, "Expand this group (its label or module path, e.g. encoder.layer.0)");
  app.add_option("--panel", o.panel, "Bring this panel to the front: guards, inspector, find or timeline");
  app.add_option("--trace-log", o.traceLog, "Open this trace log (from --trace-log) in the timeline; without DUMP, the first compile's dump it names");
  app.add_option("--event", o.event, "With --trace-log: open the N-th event of a kind, KIND[:N], e.g. recompile:2 (its graph, its node)");
  app.add_option("--failing-guard", o.failingGuard, "With --event on a recompile: open this failing guard (1-based) instead of the first");
  app.add_option("--explain", o.explain, "Explain these sizes in the guards panel: s0=4,s1=600 or input_ids=4x600");
  app.add_option("--size", o.size, "Window size for --screenshot, WxH (default 1600x1000)");
  app.add_flag("--keep-unknown-ops", o.keepUnknownOps, "Load ops this build does not know as opaque nodes");
  app.add_flag("--trust-paths", o.trustPaths, "Read side files outside the dump's folder");
  app.footer("Exit codes (--screenshot): 0 written; 2 bad usage or a bad file (one line on stderr); 3 the view did not settle.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    return fail(e.what());
  }
  int width = 0, height = 0;
  if (!parseSize(o.size, &width, &height)) return fail("--size takes WxH between 200x150 and 8000x8000, e.g. 1600x1000");
  if (!o.event.empty() && o.traceLog.empty()) return fail("--event needs --trace-log");
  if (o.failingGuard < 0 || (o.failingGuard > 0 && o.event.empty())) return fail("--failing-guard takes N >= 1 and goes with --event");
  if (!o.screenshot.empty()) {
    if (o.dump.empty() && o.traceLog.empty()) return fail("--screenshot needs a DUMP or a --trace-log to open");
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    // Headless, stderr carries only the one-line contract: Qt's platform chatter ("XDG_RUNTIME_DIR
    // not set", offscreen plugin limits) is dropped unless FATHOM_GUI_DEBUG is set.
    if (qEnvironmentVariableIsEmpty("FATHOM_GUI_DEBUG"))
      qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& message) {
        if (type == QtFatalMsg) std::cerr << message.toStdString() << '\n';
      });
  }
  QApplication qapp(argc, argv);
  QApplication::setApplicationName(QStringLiteral("fathom-gui"));
  QApplication::setOrganizationName(QStringLiteral("fathom"));
  if (!o.screenshot.empty()) return screenshot(o, width, height);
  fathom::viz::MainWindow window;
  window.resize(width, height);
  window.show();
  if (!o.dump.empty()) window.openFile(QString::fromStdString(o.dump), {o.keepUnknownOps, o.trustPaths});
  if (!o.traceLog.empty()) window.openTraceLog(QString::fromStdString(o.traceLog));
  return QApplication::exec();
}
