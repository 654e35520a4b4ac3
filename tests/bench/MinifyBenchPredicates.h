// The predicates of fathom_minify_predicates_bench on Fathom's side: the same questions
// tests/bench/minify_predicates_torch.py asks of FX candidates, asked of Fathom candidates, with
// their parameters (which nodes, which op, which shape, how wrong) read from that script's
// "key value" lines so both sides use one definition:
//   one        the candidate executes call node `culprits[0]` (the run stops there, raising)
//   two-nodes  it runs cleanly and executed every call node of `culprits`
//   two-ops    it runs cleanly and executed a call of every op of `ops`
//   shape      it executes a call of `shape.op` whose argument `shape.arg` (schema order) has
//              size >= `shape.least` in dim `shape.dim` (the run stops there, raising)
//   accuracy   run twice, seeded alike (random ops draw alike): plainly, and with `perturbed`'s
//              result off by `delta` in its first element; some floating output differs beyond
//              allclose(rtol = atol = `tol`)
// A candidate that raises anything else does not fail.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "engine/graph/Graph.h"
#include "minifier/Minify.h"

namespace fathom::bench {

// A call of `op` whose argument `arg` has size >= `least` in dim `dim` fails.
struct ShapeRule {
  std::string op;
  size_t arg = 0;
  int64_t dim = 0, least = 0;
};

struct PredicateSpec {
  std::string key;                     // "one", "two-nodes", ...
  std::vector<std::string> culprits;  // call nodes that must execute
  std::vector<std::string> ops;       // ops that must execute
  std::optional<ShapeRule> shape;
  std::string perturbed;               // accuracy: the node computed wrongly
  double delta = 0, tol = 0;
};

bool isPredicateKey(const std::string& key);
std::string predicateKeyList();  // "one, two-nodes, ..."

// Predicate `key` with the parameters the PyTorch side printed (`KEY.culprits`, `KEY.ops`,
// `KEY.shape` = op,arg,dim,least, `KEY.accuracy` = node,delta,tol); an error naming the line when
// it is missing or malformed.
Result<PredicateSpec> predicateSpec(const std::string& key, const std::map<std::string, std::string>& lines);

// The first node the spec names that is not a call node of `graph` (the export renamed it), or "".
std::string missingNode(const PredicateSpec& spec, const Graph& graph);

// Whether `candidate` fails under `spec`, and what it showed.
minify::Verdict probe(const PredicateSpec& spec, const minify::Candidate& candidate);

}  // namespace fathom::bench
