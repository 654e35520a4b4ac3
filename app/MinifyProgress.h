// How `fathom minify` reports while it runs (`--progress`): nothing, the one rewriting line on a
// terminal, or the machine-readable stream of engine/dump/MinifyProgressJson.h on stderr - one
// JSON object per line for the start, every query, every improvement (after its checkpoint was
// written) and the end - which fathom-gui's minifier panel reads from its subprocess.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "engine/dump/MinifyProgressJson.h"
#include "minifier/Minify.h"

namespace fathom::cli {

enum class ProgressMode { None, Line, Json };
// "none", "line", "json"; nullopt otherwise.
std::optional<ProgressMode> parseProgressMode(const std::string& text);

class MinifyReporter {
 public:
  // `startNodes`: the node count the first run began with; `nodes`: this run's start (they
  // differ after --resume). The clock starts here.
  MinifyReporter(ProgressMode mode, size_t startNodes, size_t nodes);

  // `start` carries file, graph, predicate, backend, output, passes, jobs, isolated, resumed.
  void start(MinifyEvent start);
  void query(const minify::MinifyStats& stats, const char* pass);
  // Isolated queries under way (MinifyOptions::onWaiting, ~10 a second): the line shows them at
  // once; JSON mode writes a "waiting" event at most twice a second.
  void waiting(const minify::MinifyStats& stats, const char* pass, const minify::InFlight& inFlight);
  // Something went wrong that does not stop the run: a "fathom: warning: ..." line (after the
  // progress line's newline on a terminal).
  void warning(const std::string& text);
  // A new best: `checkpoint` where it was just written, else `error` says why not.
  void improve(const minify::Candidate& best, const minify::MinifyStats& stats, const std::string& checkpoint,
               const std::string& error);
  // The run's end: "minimized", "interrupted" or "not-failing" (with what the original did).
  void end(const minify::MinifyResult& result, const std::string& output);
  // The run stopped on an error (its one line follows): ends the terminal line.
  void abandon();
  double seconds() const;

 private:
  void emit(const MinifyEvent& event) const;
  void printLine(const minify::MinifyStats& s, const char* pass, const minify::InFlight* inFlight);

  ProgressMode mode_;
  size_t startNodes_, nodes_;
  std::chrono::steady_clock::time_point began_;
  double lastWaitingEvent_ = -1;  // seconds() of the last "waiting" event written
  bool lineOpen_ = false;         // a progress line is on the terminal without its newline
};

}  // namespace fathom::cli
