// The failure `minify` and `probe` look for (see the header).
#include "app/PredicateChoice.h"

#include "minifier/RunCommand.h"

namespace fathom::cli {

namespace {

// The one line that refuses to run a repro's script predicate nobody on this machine named.
int untrustedScript(const std::string& dump, const std::string& command) {
  return usageError(dump + ": /repro/predicate: the repro's predicate would run the command '" + command +
                    "'; name it yourself with --predicate " + minify::shellQuoted("script:" + command) + " or pass --trust-repro to run it");
}

}  // namespace

int resolvePredicate(PredicateChoice& c, const Dump& dump, minify::PredicateSpec& spec) {
  const bool predicateFromRepro = dump.repro && c.predicate.empty();
  if (dump.repro) {
    if (c.predicate.empty()) c.predicate = dump.repro->predicate;
    if (c.backend.empty()) c.backend = dump.repro->backend;
    if (c.graph.empty()) c.graph = dump.repro->graph;
  }
  if (c.predicate.empty())
    return usageError(std::string("--predicate is required for a dump without a repro section (") + minify::predicateKinds() + ")");
  if (c.backend.empty()) c.backend = "eager";
  auto parsed = minify::parsePredicate(c.predicate);
  if (!parsed.ok()) return reportError(parsed.error());
  if (predicateFromRepro && parsed->kind == minify::PredicateKind::Script && !c.trustRepro) return untrustedScript(c.dump, parsed->arg);
  spec = *parsed;
  return kExitOk;
}

const minify::Backend* resolveFailure(PredicateChoice& c, const Dump& dump, minify::PredicateSpec& spec, int* rc) {
  if ((*rc = resolvePredicate(c, dump, spec)) != kExitOk) return nullptr;
  const minify::Backend* backend = minify::findBackend(c.backend);
  if (!backend) *rc = usageError("--backend must be one of " + minify::backendNames() + ", not '" + c.backend + "'");
  return backend;
}

int checkLimits(const PredicateChoice& c, const minify::PredicateSpec& spec, uint64_t* memoryBytes) {
  if (c.inProcess && minify::needsWorkers(spec))
    return usageError("--predicate " + (spec.kind == minify::PredicateKind::Plugin ? spec.arg : std::string(minify::predicateKindName(spec.kind))) +
                      " needs worker subprocesses: it cannot go with --in-process");
  if (!(c.timeout > 0)) return usageError("--timeout must be a positive number of seconds");
  auto memory = parseBytes(c.memoryLimit);
  if (!memory) return usageError("--memory-limit: expected a byte count like 512M or 8G, got '" + c.memoryLimit + "'");
  *memoryBytes = *memory;
  return kExitOk;
}

int openTarget(PredicateChoice& c, const DumpLoadFlags& load, Target* t) {
  int rc = kExitOk;
  t->dump = loadDumpOrReport(c.dump, &rc, load);
  if (!t->dump) return rc;
  t->backend = resolveFailure(c, *t->dump, t->spec, &rc);
  if (!t->backend) return rc;
  if (int bad = checkLimits(c, t->spec, &t->memoryBytes); bad != kExitOk) return bad;
  auto graph = selectGraph(*t->dump, c.graph, c.dump);
  if (!graph.ok()) return reportError(graph.error());
  t->graph = *graph;
  auto inputs = graphInputs(*t->dump, t->graph->name, "", c.dump, load);
  if (!inputs.ok()) return reportError(inputs.error());
  t->inputs = std::move(*inputs);
  return kExitOk;
}

void addPredicateOptions(CLI::App* app, PredicateChoice* c) {
  app->add_option("--predicate", c->predicate,
                  std::string("What failing means (default: the repro's): ") + minify::predicateKinds() +
                      ". Without an argument, exception, crash and mismatch keep the original's message, signal and op");
  app->add_option("--backend", c->backend, "What runs each candidate (default: the repro's, else eager): " + minify::backendNames());
  addGraphOption(app, &c->graph, "Which graph (default: the repro's, else the first)");
  app->add_option("--timeout", c->timeout, "Seconds a candidate may run before its worker is killed (default 60; timeout:S sets S)");
  app->add_option("--memory-limit", c->memoryLimit, "Address space a worker may add, like 512M or 8G (default 4G; not enforced in a sanitizer build)");
  app->add_flag("--in-process", c->inProcess, "Run candidates in this process, one at a time (not for crash, timeout or guard)");
  app->add_flag("--trust-repro", c->trustRepro,
                "Run the repro's own script:CMD predicate (a command from the file); without it such a repro is refused "
                "unless --predicate names the command");
}

}  // namespace fathom::cli
