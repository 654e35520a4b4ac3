// `fathom-gui [DUMP] [--screenshot OUT.png ...]`: the graph viewer (viz/gui/MainWindow). With
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
#include "viz/gui/InterpPanel.h"
#include "viz/gui/MainWindow.h"

namespace {

struct GuiOptions {
  std::string dump, screenshot, graph, select, expand, panel, size = "1600x1000", explain;
  std::string runTo, breakAt, checkReport;  // the interpreter panel
  int step = 0;
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

// Runs Qt's loop until the window has nothing left to do, at most 60 s.
bool settle(const fathom::viz::MainWindow& window) {
  QElapsedTimer timer;
  timer.start();
  do {
    QApplication::processEvents(QEventLoop::AllEvents, 50);
  } while ((!window.idle() || timer.elapsed() < 100) && timer.elapsed() < 60000);
  return window.idle();
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
int screenshot(const GuiOptions& o, int width, int height) {
  fathom::viz::LoadOptions load{o.keepUnknownOps, o.trustPaths};
  auto loaded = fathom::viz::loadDumpForView(QString::fromStdString(o.dump), load);
  if (!loaded.dump) return fail(loaded.error);
  fathom::viz::MainWindow window;
  window.resize(width, height);
  window.show();
  window.showLoaded(loaded);
  if (!o.panel.empty() && !window.showPanel(QString::fromStdString(o.panel)))
    return fail("--panel: no panel named '" + o.panel + "' (guards, inspector, find, interp)");
  if (!o.graph.empty() && !window.selectGraph(QString::fromStdString(o.graph)))
    return fail(o.dump + ": no graph named '" + o.graph + "' (the dump has: " + window.graphNames().join(", ").toStdString() + ")");
  if (!o.expand.empty() && !window.expandGroup(QString::fromStdString(o.expand)))
    return fail(o.dump + ": no group '" + o.expand + "' in graph '" + window.currentGraphName().toStdString() + "'");
  if (!o.breakAt.empty() || !o.checkReport.empty() || o.step > 0 || !o.runTo.empty())
    if (const std::string error = driveInterpreter(o, window); !error.empty()) return fail(o.dump + ": " + error);
  if (!o.select.empty() && !window.selectNode(QString::fromStdString(o.select)))
    return fail(o.dump + ": no node '" + o.select + "' in graph '" + window.currentGraphName().toStdString() + "'");
  if (!o.explain.empty()) window.explainSizes(QString::fromStdString(o.explain));
  if (!settle(window)) return fail("the view did not settle within 60 s (layout or Z3 still running)", 3);
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
  app.add_option("--panel", o.panel, "Bring this panel to the front: guards, inspector, find or interp");
  app.add_option("--explain", o.explain, "Explain these sizes in the guards panel: s0=4,s1=600 or input_ids=4x600");
  app.add_option("--break", o.breakAt, "Interpreter: break before this node (%x or x) or every node of this op, in the graph shown");
  app.add_option("--check-report", o.checkReport, "Interpreter: lay this `fathom check --json` report over the dump");
  app.add_option("--step", o.step, "Interpreter: run N nodes before the screenshot")->check(CLI::Range(1, 100000000));
  app.add_option("--run-to", o.runTo, "Interpreter: run until this node of the graph shown has run (after --step)");
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
  if (!o.screenshot.empty()) {
    if (o.dump.empty()) return fail("--screenshot needs a DUMP to open");
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
  return QApplication::exec();
}
