// What `fathom minify` and `fathom probe` share about the failure they look for: the predicate,
// backend and graph from the command line, else from the dump's repro section, else defaults;
// a repro's own script:CMD predicate (a command someone else wrote) runs only when the user
// names it with --predicate or passes --trust-repro; and the worker limits they run it under.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "app/CliCommon.h"
#include "engine/dump/Dump.h"
#include "minifier/Backends.h"
#include "minifier/Predicates.h"

namespace fathom::cli {

struct PredicateChoice {
  std::string dump;  // the file, for messages
  std::string graph, predicate, backend;
  bool trustRepro = false;
  bool inProcess = false;
  double timeout = 60;
  std::string memoryLimit = "4G";
};

// Fills the choice's empty predicate, backend and graph from the repro section (backend: eager)
// and parses the predicate into `spec`; kExitOk, else the exit code of the error it printed.
int resolvePredicate(PredicateChoice& choice, const Dump& dump, minify::PredicateSpec& spec);
// resolvePredicate, then the backend the choice names: null, with *rc the exit code of the error
// it printed, when either is wrong.
const minify::Backend* resolveFailure(PredicateChoice& choice, const Dump& dump, minify::PredicateSpec& spec, int* rc);

// REPRO opened for a question about its failure: the dump, the predicate, the backend, the
// workers' memory limit, the graph and its inputs.
struct Target {
  std::optional<Dump> dump;
  minify::PredicateSpec spec;
  const minify::Backend* backend = nullptr;
  uint64_t memoryBytes = 0;
  const NamedGraph* graph = nullptr;  // in *dump
  std::vector<ExampleInput> inputs;
};

// Loads choice.dump and resolves all of the above (resolveFailure, checkLimits, the graph, its
// inputs); kExitOk, else the exit code of the error it printed.
int openTarget(PredicateChoice& choice, const DumpLoadFlags& load, Target* target);

// --in-process against predicates that need workers, --timeout, --memory-limit (its bytes into
// *memoryBytes); kExitOk, else the exit code of the error it printed.
int checkLimits(const PredicateChoice& choice, const minify::PredicateSpec& spec, uint64_t* memoryBytes);

// The options for the fields above, on `app`, with the help both commands give them.
void addPredicateOptions(CLI::App* app, PredicateChoice* choice);

}  // namespace fathom::cli
