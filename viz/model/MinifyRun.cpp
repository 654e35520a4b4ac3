// MinifyRun (see the header): the command line, the stream's events into state, the exit code
// into the outcome.
#include "viz/model/MinifyRun.h"

#include <cstdio>

#include "minifier/Backends.h"
#include "minifier/CustomPredicates.h"
#include "minifier/PredicateKind.h"

namespace fathom::viz {
namespace {

constexpr int kExitProblem = 1;       // the input does not fail as asked (app/CliCommon.h)
constexpr int kExitInterrupted = 130;  // SIGINT: the best so far is in the output

std::string number(double v, const char* format) {
  char buf[32];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

}  // namespace

std::vector<std::string> minifyArguments(const MinifyChoices& c) {
  std::vector<std::string> args = {"minify", c.input, "-o", c.output, "--force", "--progress", "json",
                                   "-j", std::to_string(c.jobs), "--timeout", number(c.timeoutSeconds, "%g")};
  if (!c.graph.empty()) args.insert(args.end(), {"--graph", c.graph});
  if (!c.predicate.empty()) args.insert(args.end(), {"--predicate", c.predicate});
  if (!c.backend.empty()) args.insert(args.end(), {"--backend", c.backend});
  if (c.keepUnknownOps) args.push_back("--keep-unknown-ops");
  if (c.trustPaths) args.push_back("--trust-paths");
  return args;
}

std::vector<std::string> predicateChoices() {
  std::vector<std::string> out;
  for (const auto& k : minify::allPredicateKinds()) {
    if (k.kind == minify::PredicateKind::Plugin) continue;  // each plugin predicate is listed by name below
    const std::string usage = k.usage;  // "exception[:REGEX]", "timeout:SECONDS", "torch[:exception|meta]"
    const size_t open = usage.find("[:");
    if (open == std::string::npos) {  // no argument, or a required one: as the usage spells it
      out.push_back(usage);
      continue;
    }
    out.push_back(k.name);
    // The literal alternatives (lower case) of the optional argument; REGEX, TOL, OP are placeholders.
    const std::string alternatives = usage.substr(open + 2, usage.find(']', open) - open - 2);
    for (size_t from = 0; from <= alternatives.size();) {
      size_t bar = alternatives.find('|', from);
      if (bar == std::string::npos) bar = alternatives.size();
      const std::string alt = alternatives.substr(from, bar - from);
      if (!alt.empty() && alt.find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ") == std::string::npos) out.push_back(std::string(k.name) + ":" + alt);
      from = bar + 1;
    }
  }
  for (const auto& p : minify::customPredicates()) out.push_back(p.name);
  return out;
}

std::vector<std::pair<std::string, std::string>> backendChoices() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& b : minify::backends()) out.emplace_back(b.name, b.description);
  return out;
}

const char* minifyPhaseName(MinifyPhase phase) {
  switch (phase) {
    case MinifyPhase::Idle: return "idle";
    case MinifyPhase::Running: return "running";
    case MinifyPhase::Minimized: return "minimized";
    case MinifyPhase::Cancelled: return "cancelled";
    case MinifyPhase::NotFailing: return "not failing";
    case MinifyPhase::Failed: return "failed";
  }
  return "?";
}

void MinifyRun::begin(const MinifyChoices& choices) {
  *this = MinifyRun{};
  choices_ = choices;
  phase_ = MinifyPhase::Running;
}

MinifyRun::Change MinifyRun::feed(std::string_view line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.empty()) return Change::None;
  if (line.front() == '{') {
    auto event = parseMinifyEvent(line);
    if (event.ok()) return apply(std::move(*event));
    ++malformed_;  // counted, skipped: the exit code still says how the run ended
    return Change::None;
  }
  if (startsWith(line, "fathom: ")) message_ = std::string(line);
  else otherLine_ = std::string(line);  // a script predicate's chatter; shown only if the run fails
  return Change::Message;
}

MinifyRun::Change MinifyRun::apply(MinifyEvent e) {
  switch (e.kind) {
    case MinifyEventKind::Start:
      startNodes_ = e.startNodes;
      nodes_ = e.nodes;
      start_ = std::move(e);
      return Change::Started;
    case MinifyEventKind::Query:
      queries_ = e.queries;
      cacheHits_ = e.cacheHits;
      pass_ = e.pass;
      nodes_ = e.nodes;
      seconds_ = e.seconds;
      running_ = 0;
      return Change::Progress;
    case MinifyEventKind::Waiting:
      pass_ = e.pass;
      seconds_ = e.seconds;
      running_ = e.running;
      longest_ = e.longestSeconds;
      return Change::Progress;
    case MinifyEventKind::Improve:
      nodes_ = e.nodes;
      queries_ = e.queries;
      seconds_ = e.seconds;
      ++improvements_;
      improve_ = std::move(e);
      return Change::Improved;
    case MinifyEventKind::End:
      nodes_ = e.nodes;
      queries_ = e.queries;
      cacheHits_ = e.cacheHits;
      seconds_ = e.seconds;
      running_ = 0;
      end_ = std::move(e);
      return Change::Ended;
  }
  return Change::None;
}

void MinifyRun::finish(int exitCode, bool crashed, const std::string& why) {
  const bool minimized = end_ && end_->result == "minimized";
  if (crashed) {
    // Cancelled before the minifier took over SIGINT (still loading): nothing was kept.
    phase_ = cancelRequested_ && !start_ ? MinifyPhase::Cancelled : MinifyPhase::Failed;
    if (phase_ == MinifyPhase::Failed && message_.empty()) message_ = why.empty() ? "fathom minify was killed by a signal" : why;
  } else if (exitCode == 0 && minimized) {
    phase_ = MinifyPhase::Minimized;
  } else if (exitCode == kExitInterrupted) {
    phase_ = MinifyPhase::Cancelled;
  } else if (exitCode == kExitProblem) {
    phase_ = MinifyPhase::NotFailing;
  } else {
    phase_ = MinifyPhase::Failed;
  }
  if (phase_ != MinifyPhase::Failed || !message_.empty()) return;
  message_ = !otherLine_.empty() ? otherLine_
             : exitCode == 0    ? "fathom minify exited without reporting its end (is it an older fathom?)"
                                : "fathom minify exited with status " + std::to_string(exitCode);
}

bool MinifyRun::hasResult() const {
  return end_ && !end_->output.empty() && (phase_ == MinifyPhase::Minimized || phase_ == MinifyPhase::Cancelled);
}

std::string MinifyRun::progressLine() const {
  std::string line = std::to_string(startNodes_) + " -> " + std::to_string(nodes_) + " nodes · " + std::to_string(queries_) +
                     " queries (" + std::to_string(cacheHits_) + " cached)";
  if (!pass_.empty() && phase_ == MinifyPhase::Running) line += " · " + pass_;  // the pass at work
  line += " · " + number(seconds_, "%.1f") + " s";
  if (running_ > 0 && phase_ == MinifyPhase::Running)
    line += " · " + std::to_string(running_) + " running (longest " + number(longest_, "%.1f") + " s)";
  return line;
}

std::string MinifyRun::outcome() const {
  const std::string sizes = std::to_string(startNodes_) + " -> " + std::to_string(nodes_) + " nodes";
  switch (phase_) {
    case MinifyPhase::Idle: return "";
    case MinifyPhase::Running: return cancelRequested_ ? "cancelling: the minifier writes its best so far…" : "minifying: " + sizes;
    case MinifyPhase::Minimized:
      return "minimized: " + sizes + " in " + std::to_string(queries_) + " queries (" + number(seconds_, "%.1f") + " s)";
    case MinifyPhase::Cancelled:
      return hasResult() ? "cancelled: the best so far, " + sizes + ", is kept" : "cancelled before the minifier started";
    case MinifyPhase::NotFailing: return "the input does not fail as asked";
    case MinifyPhase::Failed: return "fathom minify failed";
  }
  return "";
}

}  // namespace fathom::viz
