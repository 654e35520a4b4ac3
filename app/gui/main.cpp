// `fathom-gui [DUMP] [--screenshot OUT.png ...] [--diff OTHER_DUMP]`: the graph viewer (viz/gui/MainWindow). With
// --screenshot it renders one view headless (QT_QPA_PLATFORM=offscreen unless a platform is set),
// writes the PNG and exits: 0 when written, 2 with the CLI's one-line error for a bad file or
// bad option, 3 when the view did not settle in time.
#include <CLI/CLI.hpp>

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QImage>
#include <QTimer>

#include <cstdio>
#include <iostream>
#include <regex>

#include "viz/gui/DumpLoader.h"
#include "viz/gui/MainWindow.h"
#include "viz/gui/MinifyPanel.h"

namespace {

// What --panel takes (MainWindow::showPanel: the docks' object names).
constexpr const char* kPanels = "guards, inspector, find, diff or minify";

struct GuiOptions {
  std::string dump, screenshot, graph, select, expand, panel, size = "1600x1000", explain, diff, diffMode;
  bool keepUnknownOps = false, trustPaths = false;
  std::string minify, minifyBackend;  // --minify PREDICATE ("repro": the repro's own), --minify-backend
  int minifyJobs = 1;
  size_t minifyStopAfter = 0;         // queries; 0: run to the end
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

// Headless: load, show the asked view, wait for background work, grab, write.
int screenshot(const GuiOptions& o, int width, int height) {
  fathom::viz::LoadOptions load{o.keepUnknownOps, o.trustPaths};
  auto loaded = fathom::viz::loadDumpForView(QString::fromStdString(o.dump), load);
  if (!loaded.dump) return fail(loaded.error);
  fathom::viz::MainWindow window;
  window.resize(width, height);
  window.show();
  window.showLoaded(loaded);
  window.minifyPanel()->setLoadOptions(load);
  if (!o.graph.empty() && !window.selectGraph(QString::fromStdString(o.graph)))
    return fail(o.dump + ": no graph named '" + o.graph + "' (the dump has: " + window.graphNames().join(", ").toStdString() + ")");
  if (!o.expand.empty() && !window.expandGroup(QString::fromStdString(o.expand)))
    return fail(o.dump + ": no group '" + o.expand + "' in graph '" + window.currentGraphName().toStdString() + "'");
  if (!o.select.empty() && !window.selectNode(QString::fromStdString(o.select)))
    return fail(o.dump + ": no node '" + o.select + "' in graph '" + window.currentGraphName().toStdString() + "'");
  if (!o.explain.empty()) window.explainSizes(QString::fromStdString(o.explain));
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

}  // namespace

int main(int argc, char** argv) {
  GuiOptions o;
  CLI::App app{"fathom-gui: see a captured graph - the forward/backward split, the saved values, every guard back to its source line"};
  app.add_option("DUMP", o.dump, "A dump, repro or PyTorch export (*.fathom.json) to open");
  app.add_option("--screenshot", o.screenshot, "Render headless into this PNG and exit (needs DUMP)");
  app.add_option("--graph", o.graph, "The graph tab to show (default: the joint graph when there is one, else the first)");
  app.add_option("--select", o.select, "Select this node (its name, with or without %) and center on it");
  app.add_option("--expand", o.expand, "Expand this group (its label or module path, e.g. encoder.layer.0)");
  app.add_option("--panel", o.panel, std::string("Bring this panel to the front: ") + kPanels);
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
  app.add_option("--size", o.size, "Window size for --screenshot, WxH (default 1600x1000)");
  app.add_flag("--keep-unknown-ops", o.keepUnknownOps, "Load ops this build does not know as opaque nodes");
  app.add_flag("--trust-paths", o.trustPaths, "Read side files outside the dump's folder");
  app.footer("Exit codes (--screenshot): 0 written; 2 bad usage or a bad file (one line on stderr); 3 the view did not settle; "
             "1 (--minify) written, but the minification ended without a result (the input does not fail as asked, a bad predicate: "
             "its line on stderr).");
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
  return QApplication::exec();
}
