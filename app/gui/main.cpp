// `fathom-gui [DUMP] [--trace-log LOG] [--diff OTHER_DUMP] [--screenshot OUT.png ...]`: the graph viewer (viz/gui/MainWindow). With
// --screenshot it renders one view headless (QT_QPA_PLATFORM=offscreen unless a platform is set),
// writes the PNG and exits: 0 when written, 2 with the CLI's one-line error for a bad file or
// bad option, 3 when the view did not settle in time.
#include <CLI/CLI.hpp>

#include <QApplication>
#include <QMessageBox>
#include <QTimer>

#include <cstdlib>
#include <iostream>
#include <regex>

#include "app/gui/Headless.h"
#include "plugins/host/PluginHost.h"
#include "viz/gui/MainWindow.h"
#include "viz/gui/MinifyPanel.h"

namespace {

using fathom::gui::fail;
using fathom::gui::kPanels;

bool parseSize(const std::string& text, int* w, int* h) {
  static const std::regex re(R"((\d{2,5})x(\d{2,5}))");
  std::smatch m;
  if (!std::regex_match(text, m, re)) return false;
  *w = std::stoi(m[1]);
  *h = std::stoi(m[2]);
  return *w >= 200 && *h >= 150 && *w <= 8000 && *h <= 8000;
}

// Every flag of fathom-gui, into `o`.
void addOptions(CLI::App& app, fathom::gui::GuiOptions& o) {
  app.add_option("DUMP", o.dump, "A dump, repro or PyTorch export (*.fathom.json) to open");
  app.add_option("--screenshot", o.screenshot, "Render headless into this PNG and exit (needs DUMP)");
  app.add_option("--graph", o.graph, "The graph tab to show (default: the joint graph when there is one, else the first)");
  app.add_option("--select", o.select, "Select this node (its name, with or without %) and center on it");
  app.add_option("--expand", o.expand, "Expand this group (its label or module path, e.g. encoder.layer.0)");
  app.add_option("--panel", o.panel, std::string("Bring this panel to the front: ") + kPanels);
  app.add_option("--trace-log", o.traceLog, "Open this trace log (from --trace-log) in the timeline; without DUMP, the first compile's dump it names");
  app.add_option("--event", o.event, "With --trace-log: open the N-th event of a kind, KIND[:N], e.g. recompile:2 (its graph, its node)");
  app.add_option("--failing-guard", o.failingGuard, "With --event on a recompile: open this failing guard (1-based) instead of the first");
  app.add_option("--explain", o.explain, "Explain these sizes in the guards panel: s0=4,s1=600 or input_ids=4x600");
  app.add_option("--diff", o.diff, "Compare the shown graph (left) with OTHER_DUMP's graph of the same name, else its first (right)")
      ->type_name("OTHER_DUMP");
  app.add_option("--diff-mode", o.diffMode, "How --diff shows the two graphs: side (side by side, the default) or overlay");
  CLI::Option* shot = app.get_option("--screenshot");
  CLI::Option* minify = app.add_option("--minify", o.minify,
                 "Minify the dump in the minifier panel before the screenshot (fathom minify next to fathom-gui, in worker "
                 "processes): PREDICATE as `fathom minify --predicate` takes it, or 'repro' for the repro's own predicate and backend; "
                 "the outcome and the result's path go to stdout")
      ->needs(shot);
  app.add_option("--minify-backend", o.minifyBackend, "With --minify: the backend (default: eager; with 'repro' the repro's own)")->needs(minify);
  app.add_option("--minify-jobs", o.minifyJobs, "With --minify: candidates tested at once (-j, default 1)")->needs(minify)->check(CLI::Range(1, 256));
  app.add_option("--minify-stop-after", o.minifyStopAfter,
                 "With --minify: take the screenshot after N queries, with the run in flight, then cancel it (it keeps its best so far)")
      ->needs(minify);
  app.add_option("--break", o.breakAt, "Interpreter: break before this node (%x or x) or every node of this op, in the graph shown");
  app.add_option("--check-report", o.checkReport, "Interpreter: lay this `fathom check --json` report over the dump");
  app.add_option("--step", o.step, "Interpreter: run N nodes before the screenshot")->check(CLI::Range(1, 100000000));
  app.add_option("--run-to", o.runTo, "Interpreter: run until this node of the graph shown has run (after --step)");
  app.add_option("--size", o.size, "Window size for --screenshot, WxH (default 1600x1000)");
  app.add_flag("--keep-unknown-ops", o.keepUnknownOps, "Load ops this build does not know as opaque nodes");
  app.add_flag("--trust-paths", o.trustPaths, "Read side files outside the dump's folder");
  app.add_option("--plugin", o.plugins,
                 "Load a plugin (a .so: custom ops, backends, predicates, importers; any number of times); FATHOM_PLUGIN_PATH lists more");
  app.footer("Exit codes (--screenshot): 0 written; 2 bad usage or a bad file (one line on stderr); 3 the view did not settle; "
             "1 (--minify) written, but the minification ended without a result (the input does not fail as asked, a bad predicate: "
             "its line on stderr).");
}

// --plugin's and FATHOM_PLUGIN_PATH's plugins, before any dump loads: the first --plugin that
// failed, else "" (a FATHOM_PLUGIN_PATH failure is a warning line). fathom-gui's `fathom minify`
// gets them all through FATHOM_PLUGIN_PATH.
std::string loadGuiPlugins(const std::vector<std::string>& asked) {
  return fathom::plugin::loadProgramPlugins(asked, [](const std::string& line) { std::cerr << "fathom: " << line << '\n'; });
}

}  // namespace

int main(int argc, char** argv) {
  fathom::gui::GuiOptions o;
  CLI::App app{"fathom-gui: see a captured graph - the forward/backward split, the saved values, every guard back to its source line"};
  addOptions(app, o);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    return fail(e.what());
  }
  const std::string pluginError = loadGuiPlugins(o.plugins);
  if (!pluginError.empty() && !o.screenshot.empty()) return fail(pluginError);
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
  if (!o.screenshot.empty()) return fathom::gui::screenshot(o, width, height);
  if (!pluginError.empty()) {  // interactive: the one line, and the same in a dialog
    QMessageBox::critical(nullptr, QStringLiteral("fathom-gui"), QString::fromStdString("A plugin did not load:\n" + pluginError));
    return fail(pluginError);
  }
  fathom::viz::MainWindow window;
  window.resize(width, height);
  window.show();
  window.minifyPanel()->setLoadOptions({o.keepUnknownOps, o.trustPaths});
  if (!o.dump.empty()) window.openFile(QString::fromStdString(o.dump), {o.keepUnknownOps, o.trustPaths});
  if (!o.dump.empty() && !o.diff.empty()) {
    // The comparison starts once the dump is shown (it loads in the background too).
    auto* poll = new QTimer(&window);
    QObject::connect(poll, &QTimer::timeout, &window, [&window, poll, o] {
      if (window.graphNames().isEmpty() && window.errorText().isEmpty()) return;
      poll->stop();
      if (!window.errorText().isEmpty()) return;
      window.compareWith(QString::fromStdString(o.diff), {o.keepUnknownOps, o.trustPaths});
      if (!o.diffMode.empty()) window.setDiffMode(QString::fromStdString(o.diffMode));
    });
    poll->start(50);
  }
  if (!o.traceLog.empty()) window.openTraceLog(QString::fromStdString(o.traceLog));
  return QApplication::exec();
}
