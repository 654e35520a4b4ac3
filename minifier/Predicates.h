// What "still fails" means for a candidate (--predicate), as an Oracle for minify():
//   exception[:REGEX]  running it raises an error whose message matches REGEX; without one, the
//                      original error's own message (the op's text, without the node), so a
//                      different error is not taken for the same bug
//   mismatch           the debug interpreter finds a node whose recorded meta disagrees with
//                      its real result (an origin)
//   script:CMD         `CMD PATH` exits 0, PATH being the candidate written as a dump
//                      (llvm-reduce's protocol); CMD is a shell command line
#pragma once

#include <string>

#include "engine/dump/Dump.h"
#include "minifier/Minify.h"

namespace fathom::minify {

struct PredicateSpec {
  std::string kind;  // "exception", "mismatch", "script"
  std::string arg;   // the regex or the command; empty when not given
};

Result<PredicateSpec> parsePredicate(const std::string& text);

// A candidate as a dump: the original's producer and symbols, the candidate's graph (named
// `graphName`) and its inputs.
Dump candidateDump(const Candidate& c, const Dump& original, const std::string& graphName);

struct OracleContext {
  const Dump* dump = nullptr;  // for script predicates: what a candidate dump keeps
  std::string graphName;
  std::string workDir;         // where script predicates' candidate dumps are written
};

// The oracle for `spec`. For exception without a regex, the original (`graph` on `inputs`) is
// run to learn its error; an error when it raises none.
Result<Oracle> makeOracle(const PredicateSpec& spec, const Graph& graph, const std::vector<ExampleInput>& inputs,
                          const OracleContext& context);

}  // namespace fathom::minify
