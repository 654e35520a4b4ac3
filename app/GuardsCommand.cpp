// `fathom guards DUMP [--json]`: every guard and specialization a symbolic trace recorded, with
// its stage, expression, node, op, model source line, module path and reason - the answer to
// "where did this guard come from?". A static dump has none; that is said, not an error.
// --check, --explain and --overlap run the Z3 analyses (GuardsAnalysis.cpp).
#include <iostream>
#include <memory>

#include "app/CliCommon.h"
#include "app/GuardsAnalysis.h"
#include "engine/dump/GuardJson.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom::cli {
namespace {

struct GuardsOptions {
  GuardsAnalysisOptions analysis;
  bool check = false, overlap = false;
};

}  // namespace

std::string guardWhere(const sym::GuardContext& c) {
  std::string out;
  if (!c.node.empty()) {
    out += "%" + c.node + " = " + c.op;
    for (size_t i = 0; i < c.argNames.size(); ++i) out += (i ? ", %" : "(%") + c.argNames[i];
    if (!c.argNames.empty()) out += ")";
  }
  if (!c.source.empty()) out += (out.empty() ? "" : "  at ") + c.source;
  if (!c.module.empty()) out += (out.empty() ? "" : "  in ") + c.module;
  return out.empty() ? "(no node)" : out;
}

namespace {

void printGuardsText(const sym::ShapeEnv* env, const std::string& path) {
  std::cout << path << "\n";
  if (!env) {
    std::cout << "  static trace: no symbols, no guards (trace with --dynamic for symbolic shapes)\n";
    return;
  }
  std::cout << "  symbols (" << env->symbols().size() << "):\n";
  for (const auto& s : env->symbols()) {
    std::cout << "    " << s.name << " = " << s.hint << "  range " << s.range.str() << "  from ";
    for (size_t i = 0; i < s.sources.size(); ++i) std::cout << (i ? ", " : "") << s.sources[i];
    std::cout << "\n";
  }
  std::cout << "  guards (" << env->guards().size() << "):\n";
  for (const auto& g : env->guards()) {
    std::cout << "    [" << g.where.stage << "] " << g.expr.str() << (g.count > 1 ? "  (asked " + std::to_string(g.count) + "x)" : "") << "\n"
              << "        " << guardWhere(g.where) << "\n"
              << "        why: " << g.reason << "\n";
  }
  std::cout << "  specializations (" << env->specializations().size() << "):\n";
  for (const auto& s : env->specializations()) {
    std::cout << "    [" << s.where.stage << "] " << (s.symbol.empty() ? s.source : s.symbol) << " -> " << s.value.str()
              << "  (" << s.kind << ")\n";
    if (!s.where.node.empty() || !s.where.source.empty()) std::cout << "        " << guardWhere(s.where) << "\n";
    std::cout << "        why: " << s.reason << "\n";
  }
}

}  // namespace

Command addGuardsCommand(CLI::App& parent) {
  auto opts = std::make_shared<GuardsOptions>();
  auto& a = opts->analysis;
  CLI::App* app = parent.add_subcommand("guards", "List a dump's guards with their provenance; check them with Z3 (--check, --explain, --overlap, --accepts)");
  app->add_option("DUMP", a.dumps, "The dump file (*.fathom.json), e.g. from `fathom trace MODEL --dynamic -o FILE`; two or more with --overlap")->required();
  app->add_flag("--check", opts->check,
                "Prove things about the guard set with Z3: consistency (else a minimal conflicting subset), redundancy (a minimal "
                "equivalent set), soundness of the simplification (a counterexample otherwise), specializations with the guards "
                "that cause them. Exit 1 when the guards are inconsistent or the simplification unsound");
  app->add_option("--explain", a.explain,
                  "Which guards these sizes fail, with provenance, and the nearest sizes that pass: s0=4,s1=64 or "
                  "input_ids=4x64,attention_mask=4x64. Exit 1 when some check fails");
  app->add_option("--accepts", a.accepts,
                  "Prove that every size in these ranges passes every guard (no recompile), else a counterexample with the "
                  "checks it fails and, per symbol, the widest passing range around the trace's size: s0=1..64,s1=2..512. "
                  "Exit 1 when the ranges are not all accepted");
  app->add_flag("--overlap", opts->overlap,
                "Given two or more dumps (compiled entries of one function): is there a call every pair accepts (a witness), or "
                "are they disjoint (the checks that separate them)? Exit 1 when some pair overlaps");
  app->add_option("--timeout", a.timeoutMs, "Time limit of each Z3 query in milliseconds (default 1000); a query past it is reported undecided")
      ->check(CLI::Range(1u, 3600000u));
  addDumpLoadFlags(app, &a.load);
  app->add_option("--trace-log", a.traceLog, "With --check, --explain, --accepts or --overlap: append each Z3 query (check, subject, status, ms) as a guard_check event");
  app->add_flag("--json", a.json,
                "Print JSON. Listing: {file, symbolic, symbols, guards: [{expr, raw, stage, node, op, source, module, reason, count}], "
                "specializations}. --check: {consistency, redundancy, soundness, specializations, undecided, problem, queries, ms}. "
                "--explain: {values, passes, failed, nearest}. --accepts: {ranges, accepted, counterexample, failed, widest}. --overlap: {overlap, pairs: [{a, b, result, witness, separating}]}");
  app->footer("Exit codes: 0 listed, or nothing wrong found; 1 a problem found (see each option); 2 bad usage or input.");
  return {app, [opts] {
            const auto& a = opts->analysis;
            const int modes = int(opts->check) + int(!a.explain.empty()) + int(opts->overlap) + int(!a.accepts.empty());
            if (modes > 1) return usageError("guards: give one of --check, --explain, --accepts and --overlap");
            if (!opts->overlap && a.dumps.size() > 1) return usageError("guards: one DUMP (two or more only with --overlap)");
            if (modes == 0 && !a.traceLog.empty()) return usageError("guards: --trace-log goes with --check, --explain, --accepts or --overlap");
            if (opts->check) return runGuardCheck(a);
            if (!a.explain.empty()) return runGuardExplain(a);
            if (!a.accepts.empty()) return runGuardAccepts(a);
            if (opts->overlap) return runGuardOverlap(a);
            int rc = kExitOk;
            auto dump = loadDumpOrReport(a.dumps.front(), &rc, a.load);
            if (!dump) return rc;
            if (a.json) printJson(guardListingJson(dump->shapeEnv.get(), a.dumps.front()));
            else printGuardsText(dump->shapeEnv.get(), a.dumps.front());
            return kExitOk;
          }};
}

}  // namespace fathom::cli
