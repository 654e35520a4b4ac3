// `fathom probe REPRO [--predicate P] [--backend B] [--graph NAME] [--json] ...`: asks once
// whether a graph fails as P says - the minifier's question about one candidate, as a command.
// It is what `fathom minify --launcher` runs on a cluster node for every query (the candidate
// written as a repro carrying its resolved predicate), and a script predicate of its own kind
// (`--predicate 'script:fathom probe --trust-repro'`): exit 0 means "still fails", like any
// script predicate. The graph runs in a worker subprocess with the time and memory limits
// (--in-process: here), so a crash or hang of the code under test is an answer.
// Exit 0: it fails as asked; 1: it does not (and what it did instead); 2: bad usage or input.
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>

#include "app/CliCommon.h"
#include "app/PredicateChoice.h"
#include "engine/dump/ProbeVerdictJson.h"
#include "minifier/Backends.h"
#include "minifier/Predicates.h"

namespace fathom::cli {
namespace {

struct ProbeCliOptions : PredicateChoice {
  DumpLoadFlags load;
  bool allowNonFinite = false, json = false;
};

struct Answer {
  bool fails = false;
  std::string what, predicate;  // predicate: resolved ("exception:<the message>") when it could be
};

// The oracle's answer on the graph itself. Making the oracle may have run it already (learning a
// default); then that run is the answer, else it runs once now, in a worker unless --in-process.
Result<Answer> ask(const minify::PredicateSpec& spec, const NamedGraph& g, const std::vector<ExampleInput>& inputs,
                   const minify::OracleContext& context, const std::string& asGiven) {
  auto oracle = minify::makeOracle(spec, g.graph, inputs, context);
  if (!oracle.ok()) {
    if (oracle.error().code == ErrorCode::Internal) return oracle.error();
    return Answer{false, oracle.error().message, asGiven};  // "the graph does not ...; instead: ..."
  }
  if (!oracle->originalFailure.empty()) return Answer{true, oracle->originalFailure, oracle->predicate};
  minify::WorkerLimits limits = context.limits;
  if (oracle->timeoutSeconds > 0) limits.timeoutSeconds = oracle->timeoutSeconds;
  const minify::Candidate candidate{g.graph, inputs};
  const minify::Oracle& o = oracle->oracle;
  const minify::WorkerResult r = minify::runProbe([&] { return o.probe(candidate); }, context.isolate, limits);
  return Answer{minify::oracleFails(o, r), r.verdict.what, oracle->predicate};
}

int runProbeCommand(ProbeCliOptions o) {
  if (o.dump.empty()) return usageError("probe: REPRO is required (see 'fathom probe --help')");
  Target t;
  if (int bad = openTarget(o, o.load, &t); bad != kExitOk) return bad;
  const NamedGraph* graph = t.graph;

  const auto work = std::filesystem::temp_directory_path() / ("fathom-probe-" + std::to_string(::getpid()));
  std::filesystem::create_directories(work);
  const RemovedAtExit cleanup{work};
  const minify::OracleContext context{&*t.dump, graph->name, work.string(), t.backend, !o.inProcess,
                                      {o.timeout, static_cast<size_t>(t.memoryBytes >> 20)}, o.allowNonFinite};
  const auto start = std::chrono::steady_clock::now();
  auto answer = ask(t.spec, *graph, t.inputs, context, o.predicate);
  if (!answer.ok()) return reportError(answer.error().within(o.dump));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (o.json) {
    std::cout << probeVerdictLine({o.dump, graph->name, answer->predicate, t.backend->name, answer->fails, answer->what, seconds, !o.inProcess})
              << "\n";
  } else {
    std::cout << (answer->fails ? "fails: " : "does not fail: ") << answer->what << "\n"
              << "(graph '" << graph->name << "' of " << o.dump << ", predicate " << answer->predicate << ", backend " << t.backend->name
              << ")\n";
  }
  return answer->fails ? kExitOk : kExitProblem;
}

}  // namespace

Command addProbeCommand(CLI::App& parent) {
  auto o = std::make_shared<ProbeCliOptions>();
  CLI::App* app = parent.add_subcommand("probe", "Ask once whether a repro still fails as its predicate says (what minify asks of each candidate)");
  app->footer("Exit 0: it fails as asked; 1: it does not (and what it did instead); 2: bad usage or input. Use it as a script "
              "predicate (--predicate 'script:fathom probe --trust-repro') or through minify --launcher on a cluster node.");
  app->add_option("REPRO", o->dump, "A repro or a dump (*.fathom.json); it is never modified")->required();
  addDumpLoadFlags(app, &o->load);
  addPredicateOptions(app, o.get());
  app->add_flag("--allow-nonfinite", o->allowNonFinite, "accuracy: also take inputs that hold NaN or Inf");
  app->add_flag("--json", o->json,
                "Print JSON: {file, graph, predicate (resolved: exception with the original's message, ...), backend, fails, what, "
                "seconds, isolated}");
  return {app, [o] { return runProbeCommand(*o); }};
}

}  // namespace fathom::cli
