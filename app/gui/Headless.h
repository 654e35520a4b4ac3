// fathom-gui's command line (app/gui/main.cpp parses it) and its headless mode (Headless.cpp):
// load the dump, drive the panels the flags name (interpreter, diff, minifier), wait until the
// window is idle, grab it into a PNG.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace fathom::gui {

// What --panel takes (MainWindow::showPanel: the docks' object names).
inline constexpr const char* kPanels = "guards, inspector, find, interp, diff, minify or timeline";

struct GuiOptions {
  std::string dump, screenshot, graph, select, expand, panel, size = "1600x1000", explain, diff, diffMode;
  std::string runTo, breakAt, checkReport;  // the interpreter panel
  int step = 0;
  bool keepUnknownOps = false, trustPaths = false;
  std::vector<std::string> plugins;  // --plugin
  std::string minify, minifyBackend;  // --minify PREDICATE ("repro": the repro's own), --minify-backend
  int minifyJobs = 1;
  size_t minifyStopAfter = 0;         // queries; 0: run to the end
  std::string traceLog, event;  // the timeline: a trace log, and the event to open (KIND[:N])
  int failingGuard = 0;         // with --event on a recompile: which failing guard (1-based)
};

// "fathom: MESSAGE" (control characters blanked) on stderr, as the CLI prints; returns `code`.
int fail(const std::string& message, int code = 2);

// --screenshot: 0 written; 1 (--minify) written but the minification ended without a result;
// 2 a bad file or flag (one line on stderr); 3 the view did not settle within 60 s.
int screenshot(const GuiOptions& options, int width, int height);

}  // namespace fathom::gui
