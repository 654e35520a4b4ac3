// What every minifier pass (passes/*.cpp, listed in Passes.def) gets from the driver: the best
// candidate so far, the oracle behind ask / replaceWithFirstFailing / accept, the candidate
// builder (Cut.h, CandidateBuilder.h), the options and the stats. A pass proposes cuts in a fixed
// order and lets the context decide: it asks the oracle once per distinct cut (answers cached by
// cutKey), in worker subprocesses when isolated (`jobs` at once, speculatively, with the answer a
// one-by-one run gives), skips candidates that fail Graph::verify() (counted in stats().invalid),
// and asks every candidate again, fresh, before it becomes the best (a flaky answer is not taken).
// Isolated, the workers are forked by the run's zygote (Zygote.h), started before the real values.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "minifier/CandidateBuilder.h"
#include "minifier/Cut.h"
#include "minifier/Minify.h"
#include "minifier/Worker.h"
#include "minifier/Zygote.h"

namespace fathom::minify {

class PassContext {
 public:
  PassContext(const Graph& graph, const std::vector<ExampleInput>& inputs, const Oracle& oracle, const MinifyOptions& options);

  // Isolated (and MinifyOptions::zygote): forks the zygote that forks every worker. Called before
  // computeRealValues, while this process is small; a zygote that cannot start is warned about.
  void startZygote();
  // Runs the original once for the real values of its nodes (CandidateBuilder::computeRealValues).
  Status computeRealValues() { return builder_.computeRealValues(); }
  // Asks the oracle about the whole original graph, the way every candidate is asked (in a worker
  // when isolated); it becomes best() either way. Whether it fails, and what the oracle saw.
  Result<Verdict> askOriginal();

  const Graph& graph() const { return graph_; }  // the original
  const MinifyOptions& options() const { return options_; }
  MinifyStats& stats() { return stats_; }
  Best& best() { return best_; }
  // The pass now running: its name goes to options().onQuery with every query.
  void setPass(const char* name) { pass_ = name; }
  // shouldStop() turned true (Ctrl-C); remembered in stats().stopped.
  bool stopRequested();
  // How many candidates one round may test at once: `jobs` when isolated, else 1.
  size_t parallelism() const;

  // The cuts that still fail - and have fewer nodes than `smallerThan`, when given - in order: only
  // the first (as a one-by-one run finds it) unless `all`. Answers are cached by cut. Isolated,
  // `jobs` workers test the cuts at once (ahead of the first, speculatively). A candidate that
  // fails Graph::verify() is not asked: it counts as not failing (and in stats().invalid).
  struct Asked {
    std::vector<size_t> failing;
    std::vector<std::optional<Candidate>> built;
  };
  Asked ask(const std::vector<Cut>& cuts, std::optional<size_t> smallerThan, bool all);
  // The first of `cuts` that still fails (and is smaller, with mustShrink) becomes `best` -
  // verified by accept() unless `verify` is false (a search that verifies once, at its end); its
  // position, or nothing.
  std::optional<size_t> replaceWithFirstFailing(Best& best, const std::vector<Cut>& cuts, bool mustShrink, bool verify = true);
  // Every candidate that becomes the best is asked once more, fresh (not from the cache): a
  // flaky answer - a timeout under load, a crash that does not always happen - must not steer
  // the rest of the run. One that fails to fail again is not taken, and its cut is remembered
  // as not failing.
  bool accept(Best& best, Best candidate);

  std::optional<Candidate> build(const Cut& cut) const { return builder_.build(cut); }
  // Whether original node `index` can become an input (it computed a real tensor value).
  bool hasRealValue(int32_t index) const { return builder_.hasRealValue(index); }
  // The call nodes the best candidate computes (not inputs), in graph order, as original nodes.
  std::vector<int32_t> computed(const Best& best) const;
  // Each chunk of `chunk` computed nodes of the best (latest first) cut into inputs.
  std::vector<Cut> chunkCuts(const Best& best, size_t chunk) const;

 private:
  std::optional<Candidate> buildValid(const Cut& cut);
  bool failsOn(const WorkerResult& r) const;
  WorkerLimits limits() const;
  WorkerSetup setup() const;
  WorkerCallbacks waiting();  // only onWaiting, passed on to the options' with the stats
  // One candidate asked the way the run asks all (in a worker when isolated), waited for.
  WorkerResult askOne(const Cut& cut, const Candidate& c);
  // The task of `cut` as the zygote's bytes; empty when there is no zygote or it cannot travel.
  std::string wire(const Cut& cut) const;
  // In a worker of the zygote: the candidate of a task (built as this process built it, from
  // the real values the task brought), asked.
  Verdict probeWire(std::string_view task);

  const Graph& graph_;
  const Oracle& oracle_;
  const MinifyOptions& options_;
  CandidateBuilder builder_;
  const char* pass_ = "checking the original";
  std::map<std::string, bool> cache_;  // by cutKey: does it fail?
  MinifyStats stats_;
  Best best_;
  std::unique_ptr<Zygote> zygote_;
};

}  // namespace fathom::minify
