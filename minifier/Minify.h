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
// candidate's cut. Every accepted candidate was answered by the oracle, so the result fails; it
// is 1-minimal: no single call node of it can become an input, no single output can go, and
// no output can move up to one of its operands, without losing the failure. (Isolation, predicates and the CLI come on top of this core.)
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "engine/dump/Dump.h"
#include "engine/graph/Graph.h"

namespace fathom::minify {

// A graph to test and the example inputs it runs with (one per placeholder).
struct Candidate {
  Graph graph;
  std::vector<ExampleInput> inputs;
};

// True when the candidate still shows the failure being minimized.
using Oracle = std::function<bool(const Candidate&)>;

struct MinifyStats {
  size_t startNodes = 0, endNodes = 0;
  size_t queries = 0;    // oracle calls
  size_t cacheHits = 0;  // candidates answered from the cache
  std::vector<std::string> passesThatHelped;
};

struct MinifyResult {
  Candidate best;
  MinifyStats stats;
};

struct MinifyOptions {
  // Called with each new best candidate (the caller writes it to disk: never lose work).
  std::function<void(const Candidate&, const MinifyStats&)> onImprove;
  // Called after every oracle query, with the pass running (progress lines).
  std::function<void(const MinifyStats&, const char* pass)> onQuery;
};

// Minimizes `graph` (with `inputs`, one per placeholder) under `oracle`. An error when the graph
// cannot run on its inputs (the real values of its nodes are needed) or when the original
// does not fail.
Result<MinifyResult> minify(const Graph& graph, const std::vector<ExampleInput>& inputs, const Oracle& oracle,
                            const MinifyOptions& options = {});

}  // namespace fathom::minify
