// What "still fails" means for a candidate (--predicate), as an Oracle for minify(). Each runs
// the candidate with a backend (minifier/Backends.h):
//   exception[:REGEX]  the run raises an error whose message matches REGEX; without one, the
//                      original's own message (the op's text, without the node), so a
//                      different error is not taken for the same bug
//   crash[:SIGNAL]     the run dies by SIGNAL (SIGSEGV, ...; default: the original's signal)
//   timeout:SECONDS    the run does not finish in SECONDS
//   accuracy[:TOL]     a float output is further from a float64 reference run than PyTorch's rule
//                      allows: rmse(backend, fp64) > 2 * rmse(eager, fp64) + TOL / 10 (TOL
//                      default 1e-3, as torch._dynamo's repro_tolerance); a candidate whose
//                      inputs hold NaN/Inf is never taken unless allowNonFinite; accuracy:kernels
//                      (--backend jit): a generated kernel run alone on the eager values of its
//                      inputs differs from eager (kernel-by-kernel debugging, engine/jit/KernelCheck.h)
//   mismatch[:OP]      the debug interpreter, over the graph with the backend's meta, finds an
//                      origin at an OP node (default: the original's first origin's op)
//   guard              a guard recorded by a node still in the candidate fails for its inputs,
//                      or compiling the candidate (re-propagating its meta) adds a guard the
//                      recorded set lacks (a late guard)
//   script:CMD         `CMD PATH` exits 0, PATH being the candidate written as a dump
//                      (llvm-reduce's protocol); CMD is a shell command line
//   torch[:KIND]       the candidate, exported as a PyTorch script (minifier/Export.h), fails in
//                      PyTorch under Debian's /usr/bin/python3: KIND exception (default), it
//                      raises; meta[:OP], PyTorch's meta result disagrees with its real one at an
//                      OP node (default: the original's first) - a bug in PyTorch itself,
//                      minified with Fathom's isolation, parallelism and cache
// The crash, timeout and guard kinds need worker subprocesses (MinifyOptions::isolate). The kinds
// and their facts are one table: minifier/PredicateKind.h.
#pragma once

#include <string>
#include <vector>

#include "engine/dump/Dump.h"
#include "minifier/Backends.h"
#include "minifier/Minify.h"
#include "minifier/PredicateKind.h"
#include "minifier/Worker.h"

namespace fathom::minify {

struct PredicateSpec {
  PredicateKind kind = PredicateKind::Exception;
  std::string arg;  // the regex, signal, seconds, tolerance, op or command; empty when not given
};

// Whether candidates must run in worker subprocesses for this predicate (its kind's table row,
// or the plugin predicate's own say).
bool needsWorkers(const PredicateSpec& spec);

// "KIND[:ARG]", checked: an unknown kind or a bad argument is an error naming the text (the
// usage line of every kind is predicateKinds()).
Result<PredicateSpec> parsePredicate(const std::string& text);

// A candidate as a dump: the original's producer and symbols, the candidate's graph (named
// `graphName`) and its inputs.
Dump candidateDump(const Candidate& c, const Dump& original, const std::string& graphName);

struct OracleContext {
  const Dump* dump = nullptr;  // the original: symbols and guards, what candidate dumps keep
  std::string graphName;
  std::string workDir;         // where script predicates' candidate dumps are written
  const Backend* backend = nullptr;  // null: eager
  bool isolate = false;        // observe the original in a worker (it may crash or hang)
  WorkerLimits limits;
  bool allowNonFinite = false;  // accuracy: take candidates whose inputs hold NaN/Inf
};

struct PreparedOracle {
  Oracle oracle;
  std::string predicate;  // resolved for the repro: "exception:<the original's message>", ...
  double timeoutSeconds = 0;  // the worker time limit the predicate needs (timeout:S)
  // What the original did when making the oracle already ran it and saw it fail as `predicate`
  // says (learning a default, or timeout's check); empty when it did not run it. `fathom probe`
  // answers from it instead of running the original twice.
  std::string originalFailure;
};

// The oracle for `spec`; defaults that depend on the original (exception's message, crash's
// signal, mismatch's op) come from running it. An error when the original does not show the
// failure the kind needs to learn them (saying what it did instead).
Result<PreparedOracle> makeOracle(const PredicateSpec& spec, const Graph& graph, const std::vector<ExampleInput>& inputs,
                                  const OracleContext& context);

}  // namespace fathom::minify
