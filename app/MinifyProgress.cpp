// `fathom minify --progress` (see the header). Every line goes to stderr in one write, so the
// stream interleaves with nothing: workers are forked with stdout silenced and write no stderr.
#include "app/MinifyProgress.h"

#include <cstdio>

namespace fathom::cli {

std::optional<ProgressMode> parseProgressMode(const std::string& text) {
  if (text == "none") return ProgressMode::None;
  if (text == "line") return ProgressMode::Line;
  if (text == "json") return ProgressMode::Json;
  return std::nullopt;
}

MinifyReporter::MinifyReporter(ProgressMode mode, size_t startNodes, size_t nodes)
    : mode_(mode), startNodes_(startNodes), nodes_(nodes), began_(std::chrono::steady_clock::now()) {}

double MinifyReporter::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - began_).count();
}

void MinifyReporter::emit(const MinifyEvent& event) const {
  const std::string line = minifyEventLine(event) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

void MinifyReporter::start(MinifyEvent start) {
  if (mode_ != ProgressMode::Json) return;
  start.kind = MinifyEventKind::Start;
  start.startNodes = startNodes_;
  start.nodes = nodes_;
  emit(start);
}

// The one rewriting line; with queries in flight, how many and the longest's time, so it moves
// during a slow query. \033[K clears what a longer line left.
void MinifyReporter::printLine(const minify::MinifyStats& s, const char* pass, const minify::InFlight* inFlight) {
  std::fprintf(stderr, "\rminify: %zu nodes (from %zu), %zu queries, %zu cached, %.1f s, %s", nodes_, startNodes_, s.queries, s.cacheHits,
               seconds(), pass);
  if (inFlight && inFlight->running) std::fprintf(stderr, ", %zu running (longest %.1f s)", inFlight->running, inFlight->longestSeconds);
  std::fprintf(stderr, "\033[K");
  lineOpen_ = true;
}

void MinifyReporter::query(const minify::MinifyStats& s, const char* pass) {
  if (mode_ == ProgressMode::Line) printLine(s, pass, nullptr);
  if (mode_ != ProgressMode::Json) return;
  MinifyEvent e;
  e.kind = MinifyEventKind::Query;
  e.queries = s.queries;
  e.cacheHits = s.cacheHits;
  e.pass = pass;
  e.nodes = nodes_;
  e.seconds = seconds();
  emit(e);
}

void MinifyReporter::waiting(const minify::MinifyStats& s, const char* pass, const minify::InFlight& inFlight) {
  if (mode_ == ProgressMode::Line) printLine(s, pass, &inFlight);
  const double now = seconds();
  if (mode_ != ProgressMode::Json || now - lastWaitingEvent_ < 0.5) return;
  lastWaitingEvent_ = now;
  MinifyEvent e;
  e.kind = MinifyEventKind::Waiting;
  e.queries = s.queries;
  e.pass = pass;
  e.nodes = nodes_;
  e.seconds = now;
  e.running = inFlight.running;
  e.longestSeconds = inFlight.longestSeconds;
  emit(e);
}

void MinifyReporter::warning(const std::string& text) {
  const std::string line = (lineOpen_ ? "\n" : "") + std::string("fathom: warning: ") + text + "\n";
  lineOpen_ = false;
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

void MinifyReporter::improve(const minify::Candidate& best, const minify::MinifyStats& s, const std::string& checkpoint,
                             const std::string& error) {
  nodes_ = best.graph.size();
  if (mode_ != ProgressMode::Json) return;
  MinifyEvent e;
  e.kind = MinifyEventKind::Improve;
  e.nodes = nodes_;
  e.queries = s.queries;
  e.seconds = seconds();
  e.checkpoint = checkpoint;
  e.checkpointError = error;
  for (const Node& n : best.graph.nodes()) {
    if (n.kind == NodeKind::Placeholder) e.inputs.push_back(n.name);
    else if (n.kind == NodeKind::Call) e.calls.push_back(n.name);
  }
  emit(e);
}

void MinifyReporter::abandon() {
  if (lineOpen_) std::fprintf(stderr, "\n");
  lineOpen_ = false;
}

void MinifyReporter::end(const minify::MinifyResult& r, const std::string& output) {
  abandon();
  if (mode_ != ProgressMode::Json) return;
  const minify::MinifyStats& s = r.stats;
  MinifyEvent e;
  e.kind = MinifyEventKind::End;
  e.result = !r.originalFails ? "not-failing" : s.stopped ? "interrupted" : "minimized";
  if (!r.originalFails) e.what = r.originalWhat;
  e.startNodes = startNodes_;
  e.nodes = r.originalFails ? s.endNodes : nodes_;
  e.queries = s.queries;
  e.cacheHits = s.cacheHits;
  e.verifications = s.verifications;
  e.flaky = s.flaky;
  e.invalid = s.invalid;
  e.passes = s.passesThatHelped;
  e.seconds = seconds();
  if (r.originalFails) e.output = output;
  emit(e);
}

}  // namespace fathom::cli
