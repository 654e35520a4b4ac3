// MinifyRun: the minifier panel's model, without Qt. The panel runs the real `fathom minify` as a
// subprocess (its queries run in the minifier's own forked workers, so a crash or hang of the
// code under test never reaches the GUI) with `--progress json`; this class builds that command
// line from the user's choices and turns the process's stderr, line by line, into the state the
// panel shows. The stream's format is engine/dump/MinifyProgressJson.h.
//
//   MinifyRun run;
//   run.begin(choices);                    // the panel starts `fathom` with minifyArguments(choices)
//   run.feed(line);                        // each stderr line: an event, the CLI's "fathom: ..."
//                                          // error line, or anything else (kept, shown on failure)
//   run.requestCancel();                   // Cancel: the panel sends SIGINT; the CLI writes its
//                                          // best so far and exits 130
//   run.finish(exitCode, crashed);         // the process ended: Minimized, Cancelled, NotFailing, Failed
//
// A malformed progress line is counted and skipped, never fatal: the exit code decides how the
// run ended, and the result file (choices.output) is what the panel opens and exports.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/dump/MinifyProgressJson.h"

namespace fathom::viz {

// What the user picked in the panel.
struct MinifyChoices {
  std::string input;          // the dump to minify
  std::string graph;          // empty: the repro's graph, else the first
  std::string predicate;      // empty: the repro's own (its repro section)
  std::string backend;        // empty: the repro's own, else eager
  size_t jobs = 1;            // candidates tested at once (-j)
  double timeoutSeconds = 60; // per candidate (--timeout)
  std::string output;         // the result and every checkpoint; overwritten (--force)
  bool keepUnknownOps = false, trustPaths = false;  // as the dump was opened
};

// `fathom`'s arguments (after the program) for the choices:
//   minify INPUT -o OUTPUT --force --progress json -j N --timeout S [--graph G] [--predicate P] [--backend B]
//          [--keep-unknown-ops] [--trust-paths]
std::vector<std::string> minifyArguments(const MinifyChoices& choices);

// The predicates the panel offers, from the minifier's one table (minifier/PredicateKind.h): each
// kind, and its literal arguments ("accuracy:kernels", "torch:meta"); a kind whose argument is
// required shows it as its usage spells it ("timeout:SECONDS", "script:CMD"), for the user to fill in.
std::vector<std::string> predicateChoices();
// The backends (minifier/Backends.h): name and one-line description, eager first.
std::vector<std::pair<std::string, std::string>> backendChoices();

enum class MinifyPhase { Idle, Running, Minimized, Cancelled, NotFailing, Failed };
const char* minifyPhaseName(MinifyPhase phase);  // "idle", "running", ...

class MinifyRun {
 public:
  // What a line changed, for the panel to redraw only that.
  enum class Change { None, Started, Progress, Improved, Ended, Message };

  void begin(const MinifyChoices& choices);
  Change feed(std::string_view line);
  void requestCancel() { cancelRequested_ = true; }
  // The process ended: its exit code, or crashed (killed by a signal, or it could not start:
  // `why` then says so).
  void finish(int exitCode, bool crashed, const std::string& why = {});

  MinifyPhase phase() const { return phase_; }
  bool running() const { return phase_ == MinifyPhase::Running; }
  bool cancelRequested() const { return cancelRequested_; }
  const MinifyChoices& choices() const { return choices_; }
  // The start event once it came (predicate and backend resolved, the graph chosen).
  const std::optional<MinifyEvent>& started() const { return start_; }
  const std::optional<MinifyEvent>& lastImprovement() const { return improve_; }
  const std::optional<MinifyEvent>& ended() const { return end_; }

  size_t startNodes() const { return startNodes_; }
  size_t nodes() const { return nodes_; }
  size_t queries() const { return queries_; }
  size_t cacheHits() const { return cacheHits_; }
  size_t improvements() const { return improvements_; }
  const std::string& pass() const { return pass_; }
  double seconds() const { return seconds_; }
  // Isolated queries under way at the last "waiting" event, and the oldest one's seconds (0 after
  // a query ends, until the next "waiting").
  size_t queriesInFlight() const { return running_; }
  double longestInFlight() const { return longest_; }
  size_t malformedLines() const { return malformed_; }
  // The CLI's error line ("fathom: ..."), else what ended the run; empty while all is well.
  const std::string& message() const { return message_; }
  // Whether a minimized repro (or the best so far) is on disk at choices().output.
  bool hasResult() const;

  // One line for the panel: "986 -> 7 nodes · 35 queries (7 cached) · nodes to inputs · 14.2 s",
  // with " · 2 running (longest 3.1 s)" while isolated queries are under way.
  std::string progressLine() const;
  // The outcome in words: "minimized: 13 -> 5 nodes in 12 queries (0.2 s)", "cancelled: the best
  // so far, 986 -> 94 nodes, is kept", ...
  std::string outcome() const;

 private:
  Change apply(MinifyEvent e);

  MinifyChoices choices_;
  MinifyPhase phase_ = MinifyPhase::Idle;
  bool cancelRequested_ = false;
  std::optional<MinifyEvent> start_, improve_, end_;
  size_t startNodes_ = 0, nodes_ = 0, queries_ = 0, cacheHits_ = 0, improvements_ = 0, malformed_ = 0;
  std::string pass_, message_, otherLine_;
  double seconds_ = 0, longest_ = 0;
  size_t running_ = 0;
};

}  // namespace fathom::viz
