// The minifier's core: delta debugging over graphs, knowing nothing about ops (llvm-reduce is
// the model). A candidate is a cut of the original graph - which of its nodes are inputs and
// which values it returns - so every pass is a small function over that one value, and every
// candidate is the original graph's extractGraph (aot/GraphExtract.h): nodes upstream of an
// input and not needed by an output drop out on their own (dead-code elimination for free).
// A call node that becomes an input takes the real value it computed on the original inputs.
//
//   auto r = minify::minify(graph, inputs, [](const minify::Candidate& c) { return stillFails(c); });
//
// The oracle answers "does this candidate still fail the same way?"; answers are cached by the
// candidate's cut. Every candidate is asked again, fresh, before it becomes the best (a flaky
// answer is not taken), so the result fails; it is 1-minimal: no single call node of it can
// become an input, no single output can go, and no output can move up to one of its operands,
// without losing the failure. The passes are a table (Passes.def: one file each in passes/,
// over a PassContext); MinifyOptions::passes picks which run. Every candidate is checked with
// Graph::verify() before it is asked; an invalid one is skipped and counted. Worker subprocesses
// (Worker.h), predicates (Predicates.h) and the CLI come on top of this core.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/core/Result.h"
#include "engine/dump/Dump.h"
#include "engine/graph/Graph.h"
#include "minifier/Passes.h"

namespace fathom::sym {
class ShapeEnv;
}

namespace fathom::minify {

// A graph to test and the example inputs it runs with (one per placeholder).
struct Candidate {
  Graph graph;
  std::vector<ExampleInput> inputs;
};

// What running a candidate showed: whether it still fails, and what happened, in a few words
// ("raised: mm: shapes ...", "ran cleanly") for messages when the input does not fail.
struct Verdict {
  bool fails = false;
  std::string what;
};

// How an isolated worker (a forked subprocess running one candidate) ended.
enum class WorkerEnd { Answered, Crashed, TimedOut, OutOfMemory };

// "Does this candidate still fail the same way?"
struct Oracle {
  // Runs the candidate: in a worker subprocess when isolated, else in this process.
  std::function<Verdict(const Candidate&)> probe;
  // Whether a worker that ended without answering still fails: it crashed (with `signal`),
  // timed out or ran out of memory. Null: never (the crash and timeout predicates say yes).
  std::function<bool(WorkerEnd, int signal)> lostWorkerFails;

  Oracle() = default;
  // From a callable returning a Verdict, or a plain yes/no predicate (in-process tests).
  template <class F, class R = std::invoke_result_t<F&, const Candidate&>>
    requires(!std::is_same_v<std::decay_t<F>, Oracle>)
  Oracle(F f, std::function<bool(WorkerEnd, int)> lost = {})  // NOLINT: implicit on purpose
      : lostWorkerFails(std::move(lost)) {
    if constexpr (std::is_same_v<R, Verdict>) probe = std::move(f);
    else probe = [f = std::move(f)](const Candidate& c) { return Verdict{static_cast<bool>(f(c)), ""}; };
  }
};

struct MinifyStats {
  size_t startNodes = 0, endNodes = 0;
  size_t queries = 0;    // oracle calls
  size_t cacheHits = 0;  // candidates answered from the cache
  size_t verifications = 0;  // of those queries, re-asking a candidate before it became the best
  size_t flaky = 0;          // candidates that failed once and not when re-asked (not taken)
  size_t invalid = 0;        // candidates built that failed Graph::verify(): skipped, never asked
  std::vector<std::string> passesThatHelped;
  bool stopped = false;  // shouldStop() ended it early: the result is the best so far
};

// The isolated queries running right now (MinifyOptions::onWaiting).
struct InFlight {
  size_t running = 0;
  double longestSeconds = 0;  // how long the oldest of them has been running
};

struct MinifyResult {
  Candidate best;  // the original itself when it does not fail
  MinifyStats stats;
  bool originalFails = true;
  std::string originalWhat;  // what the oracle saw on the original ("ran cleanly", ...)
};

struct MinifyOptions {
  // Called with each new best candidate (the caller writes it to disk: never lose work).
  std::function<void(const Candidate&, const MinifyStats&)> onImprove;
  // Called after every oracle query, with the pass running (progress lines).
  std::function<void(const MinifyStats&, const char* pass)> onQuery;
  // Called about every 100 ms while isolated queries run (in-process, the query holds this
  // thread): how many run and for how long the oldest has, so progress moves during a slow query.
  std::function<void(const MinifyStats&, const char* pass, const InFlight&)> onWaiting;
  // Called when something went wrong that does not stop the run (the zygote died: the rest of
  // the run forks its workers from this process).
  std::function<void(const std::string&)> onWarning;
  // Isolation: each candidate runs in a forked worker subprocess, with a time limit and an
  // address-space limit, so a crash, hang or OOM of the code under test is an answer, not the
  // end of the minifier. `jobs` workers run at once, testing the next candidates of a pass
  // speculatively (the first failing one in the pass's order wins, as if run one by one).
  bool isolate = false;
  size_t jobs = 1;
  double timeoutSeconds = 0;  // per candidate; 0: no limit
  size_t memoryLimitMb = 0;   // per worker; 0: no limit
  // Isolated: workers are forked by a small process started before the real values exist
  // (Zygote.h), not by this one, which then holds them all: a fork of it costs 40-75 ms a query
  // on the BERT-12 graphs, 2-8 ms through the zygote. Off: this process forks them (tests compare).
  bool zygote = true;
  // The symbols the graph's sizes are over (a dynamic trace's): lets the minifier rebind them
  // to smaller sizes that the recorded guards allow. Null: sizes stay.
  std::shared_ptr<const sym::ShapeEnv> shapeEnv;
  // Real values of call nodes bigger than spillBytes go to this file (minifier/Spill.h); empty:
  // all stay in memory.
  std::string spillFile;
  size_t spillBytes = 64 << 10;
  // Checked between queries (Ctrl-C): when true the minifier stops and returns the best so far.
  std::function<bool()> shouldStop;
  // The passes to run, by key (Passes.def); they run in table order whatever the order here.
  // An unknown key is an error of minify(). Default: the table's default passes (not the ones
  // that run only on request).
  std::vector<std::string> passes = defaultPassKeys();
};

// Minimizes `graph` (with `inputs`, one per placeholder) under `oracle`. An error when the graph
// cannot run on its inputs (the real values of its nodes are needed) or options.passes names an
// unknown pass; originalFails is false (and nothing was minimized) when the original does not fail.
Result<MinifyResult> minify(const Graph& graph, const std::vector<ExampleInput>& inputs, const Oracle& oracle,
                            const MinifyOptions& options = {});

}  // namespace fathom::minify
