// `fathom guards --check | --explain SIZES | A B --overlap` (see GuardsAnalysis.h): each loads
// its dumps (engine/dump/GuardedDump.h), runs the engine's analysis and prints it as text, or as
// the JSON of engine/dump/GuardReportJson.h.
#include "app/GuardsAnalysis.h"

#include <iostream>
#include <memory>

#include "app/CliCommon.h"
#include "engine/core/TraceEvents.h"
#include "engine/core/TraceLog.h"
#include "engine/dump/GuardReportJson.h"
#include "engine/dump/GuardedDump.h"
#include "engine/graph/GraphGuards.h"
#include "engine/symbolic/ExplainSizesText.h"
#include "engine/symbolic/GuardAccepts.h"
#include "engine/symbolic/GuardCheck.h"
#include "engine/symbolic/GuardExplain.h"
#include "engine/symbolic/GuardOverlap.h"

namespace fathom::cli {
namespace {

using sym::SolveStatus;

// A dump loaded for analysis: each guard it cannot read is a warning line, and the rest analysed.
std::optional<GuardedDump> load(const std::string& path, int* rc, const DumpLoadFlags& flags) {
  auto loaded = loadGuardedDump(path, flags.readOptions());
  if (!loaded.ok()) {
    *rc = reportError(loaded.error());
    return std::nullopt;
  }
  for (const auto& s : loaded->skipped) std::cerr << "fathom: warning: " << s << " (guard skipped; the rest is analysed)\n";
  return std::move(*loaded);
}

// The traced graph's inputs with their recorded sizes: what the cache checks a call against.
Result<std::vector<sym::GuardedInput>> tracedInputs(const GuardedDump& l) {
  const Graph* graph = tracedGraph(l.dump);
  if (!graph) return invalidInput("the dump has no graphs", l.path);
  auto inputs = guardedInputsOf(*graph);
  if (!inputs.ok()) return invalidInput(inputs.error().message, l.path);
  return inputs;
}

// One line per guard: its expression (the raw one, as it was asked, with `raw`) and provenance.
void printGuardLine(const sym::ShapeEnv& env, size_t i, const std::string& indent, bool raw = false) {
  const sym::Guard& g = env.guards()[i];
  const sym::Relation& e = raw && g.raw ? *g.raw : g.expr;
  std::cout << indent << "[" << g.where.stage << "] " << e.str() << "    " << guardWhere(g.where) << "\n";
}

std::string valuesText(const std::map<int32_t, int64_t>& values) {
  std::string out;
  for (const auto& [s, v] : values) out += (out.empty() ? "" : ", ") + sym::symbolName(s) + " = " + std::to_string(v);
  return out;
}

std::string sizesText(const std::vector<int64_t>& dims) {
  std::string out;
  for (size_t i = 0; i < dims.size(); ++i) out += (i ? "x" : "") + std::to_string(dims[i]);
  return out;
}

// Each query as a `guard_check` event; false with the error printed when the log cannot open.
bool logQueries(const std::string& path, const std::vector<sym::GuardQuery>& queries, int* rc) {
  if (path.empty()) return true;
  auto log = TraceLog::open(path);
  if (!log.ok()) {
    *rc = reportError(log.error());
    return false;
  }
  for (const auto& q : queries)
    log->emit(0, "guards", GuardCheckEvent{q.check, q.subject, std::string(sym::solveStatusName(q.status)), q.ms});
  return true;
}

int noSolver() { return reportError(invalidInput("this build has no Z3: install libz3-dev and rebuild (./fathom builds with it)")); }

// ---- --check ----------------------------------------------------------------------------

void printCounterexample(const sym::ShapeEnv& env, const sym::Counterexample& c, const char* what) {
  std::cout << "      " << what << ": " << valuesText(c.values) << "\n";
  const auto inputs = sym::inputDimensions(env, c.values);
  if (!inputs.empty()) {
    std::cout << "        as inputs:";
    for (const auto& [source, v] : inputs) std::cout << " " << source << " = " << v;
    std::cout << "\n";
  }
  for (size_t i : c.rawRejecting) printGuardLine(env, i, "        the raw guards reject it: ", true);
  for (const auto& s : c.simplifiedRejecting) std::cout << "        the simplified set rejects it: " << s << "\n";
}

void printConsistency(const sym::ShapeEnv& env, const sym::Consistency& c) {
  std::cout << "  consistency: " << c.verdict();
  if (c.status == SolveStatus::Sat) std::cout << " (e.g. " << valuesText(c.witness) << ")\n";
  else std::cout << "\n";
  if (c.status != SolveStatus::Unsat) return;
  std::cout << "    these guards cannot hold together (none can be dropped from the conflict):\n";
  for (size_t i : c.conflict) printGuardLine(env, i, "      ");
  for (int32_t s : c.rangesInConflict)
    std::cout << "      with the range " << sym::symbolName(s) << " in " << env.symbols()[static_cast<size_t>(s)].range.str() << "\n";
}

void printRedundancy(const sym::ShapeEnv& env, const sym::Redundancy& r) {
  if (!r.ran) std::cout << "  redundancy: skipped (the guards are not known consistent)\n";
  else if (r.redundant.empty()) std::cout << "  redundancy: none (the " << r.minimal.size() << " guards are a minimal set)\n";
  else {
    std::cout << "  redundancy: " << r.redundant.size() << " of " << env.guards().size() << " guards are implied by the rest\n";
    for (const auto& g : r.redundant) {
      printGuardLine(env, g.guard, "    ");
      if (g.impliedBy.empty()) std::cout << "      implied by the symbols' ranges alone\n";
      for (size_t i : g.impliedBy) printGuardLine(env, i, "      implied by: ");
    }
  }
}

void printSoundness(const sym::ShapeEnv& env, const sym::Soundness& s) {
  std::cout << "  soundness: " << s.verdict();
  if (s.ran && s.verdict() == "sound")
    std::cout << ": the simplified set (" << s.simplified.size() << " checks) accepts exactly what the guards as asked accept"
              << (s.rawRecorded ? "" : " (this dump has no raw guards: compared with the recorded ones)");
  std::cout << "\n";
  if (s.looserExample) printCounterexample(env, *s.looserExample, "the simplified set accepts what the raw guards reject (an entry would run inputs it was not traced for)");
  if (s.stricterExample) printCounterexample(env, *s.stricterExample, "the simplified set rejects what the raw guards accept (needless recompiles)");
}

void printCheck(const GuardedDump& l, const sym::GuardCheckReport& r) {
  const sym::ShapeEnv& env = *l.env;
  std::cout << l.path << ": " << env.guards().size() << " guards over " << env.symbols().size() << " symbols (z3: "
            << r.queries.size() << " queries, " << static_cast<int64_t>(r.ms) << " ms)\n";
  printConsistency(env, r.consistency);
  printRedundancy(env, r.redundancy);
  printSoundness(env, r.soundness);
  std::cout << "  specializations (" << r.specializations.size() << "):\n";
  for (const auto& f : r.specializations) {
    std::cout << "    " << sym::symbolName(f.symbol) << " -> " << f.value.str() << "  (" << f.kind << ", "
              << (f.recorded ? "recorded" : "implied, not recorded") << ")\n";
    if (f.recorded && !f.implied) std::cout << "      UNSOUND: the guards do not imply it\n";
    for (size_t i : f.causedBy) printGuardLine(env, i, "      caused by: ");
  }
  if (!r.undecided.empty()) {
    std::cout << "  undecided (" << r.undecided.size() << "):\n";
    for (const auto& u : r.undecided) std::cout << "    " << u.check << ": " << u.subject << ": " << u.reason << "\n";
  }
}

// ---- --explain ----------------------------------------------------------------------------

// Failed checks, each with a guard's provenance (--explain, --accepts).
void printFailed(const GuardedDump& l, const std::vector<sym::FailedCheck>& failed, const std::string& indent) {
  for (const auto& f : failed) {
    std::cout << indent << "[" << f.kind << "] " << f.expr << "    with " << f.actual << "\n";
    if (f.guard) {
      const sym::Guard& g = l.env->guards()[*f.guard];
      std::cout << indent << "    " << guardWhere(g.where) << "\n";
      if (!g.reason.empty()) std::cout << indent << "    why: " << g.reason << "\n";
    }
  }
}


void printNearest(const sym::ExplainSizes& sizes, const sym::ExplainReport& r) {
  if (r.nearest.status != SolveStatus::Sat) {
    std::cout << "  nearest sizes that pass: none found (" << sym::solveStatusName(r.nearest.status)
              << (r.nearest.reason.empty() ? "" : ": " + r.nearest.reason) << ")\n";
    return;
  }
  std::cout << "  nearest sizes that pass: ";
  if (sizes.inputs.empty()) {
    std::cout << valuesText(r.nearest.model) << "\n";
    return;
  }
  bool first = true;
  for (const auto& [name, dims] : r.nearestInputs) std::cout << (first ? "" : ", ") << name << "=" << sizesText(dims), first = false;
  std::cout << "  (" << valuesText(r.nearest.model) << ")\n";
}

void printExplain(const GuardedDump& l, const std::string& sizesGiven, const sym::ExplainSizes& sizes, const sym::ExplainReport& r) {
  std::cout << l.path << ": " << sizesGiven << " (" << valuesText(r.values) << ")\n";
  if (r.failed.empty()) std::cout << "  passes every check: an entry traced with these guards runs these sizes\n";
  else std::cout << "  fails " << r.failed.size() << " check" << (r.failed.size() == 1 ? "" : "s") << " (a call with these sizes recompiles):\n";
  printFailed(l, r.failed, "    ");
  for (const auto& n : r.notes) std::cout << "  note: " << n << "\n";
  printNearest(sizes, r);
}

// ---- --overlap ----------------------------------------------------------------------------

void printOverlap(const std::vector<std::string>& files, const sym::PairwiseOverlap& overlap) {
  std::cout << "overlap of " << files.size() << " entries:\n";
  for (const auto& p : overlap.pairs) {
    const sym::OverlapReport& r = p.report;
    std::cout << "  " << files[p.a] << " and " << files[p.b] << ": " << r.verdict() << "\n";
    if (r.status == SolveStatus::Sat) {
      std::cout << "    both accept the call:";
      for (const auto& [name, dims] : r.witness) std::cout << " " << name << "=" << sizesText(dims);
      std::cout << "\n";
    }
    if (!r.reason.empty()) std::cout << "    " << r.reason << "\n";
    if (!r.separating.empty()) std::cout << "    no call passes both; these checks separate them:\n";
    for (const auto& s : r.separating) std::cout << "      " << s << "\n";
  }
}

// ---- --accepts ----------------------------------------------------------------------------

std::string rangeText(int32_t symbol, std::pair<int64_t, int64_t> lohi) {
  return sym::symbolName(symbol) + "=" + std::to_string(lohi.first) + ".." + std::to_string(lohi.second);
}

void printAccepts(const GuardedDump& l, const std::string& rangesGiven, const sym::AcceptsReport& r) {
  std::cout << l.path << ": " << rangesGiven << "\n";
  if (r.accepted) {
    std::cout << "  accepted: every size in the range passes every guard and range (Z3: unsat), so no call there recompiles\n";
    return;
  }
  if (r.status != SolveStatus::Sat) {
    std::cout << "  undecided: " << sym::solveStatusName(r.status) << (r.reason.empty() ? "" : ": " + r.reason) << "\n";
    return;
  }
  std::cout << "  not accepted: " << valuesText(r.counterexample) << " fails " << r.failed.size() << " check"
            << (r.failed.size() == 1 ? "" : "s") << " (a call there recompiles):\n";
  printFailed(l, r.failed, "    ");
  for (const auto& [symbol, lohi] : r.widest)
    std::cout << "  " << (lohi.first <= lohi.second ? "accepted around the trace's size: " + rangeText(symbol, lohi)
                                                     : "not even the trace's size of " + sym::symbolName(symbol) + " passes")
              << "\n";
  for (const auto& stop : r.stops) {
    std::cout << "  " << (stop.side == "below" ? "below" : "above") << " it, " << sym::symbolName(stop.symbol) << " = " << stop.value
              << " fails:\n";
    printFailed(l, stop.failed, "    ");
  }
}

}  // namespace

int runGuardCheck(const GuardsAnalysisOptions& o) {
  if (!sym::Solver::available()) return noSolver();
  int rc = kExitOk;
  auto l = load(o.dumps.front(), &rc, o.load);
  if (!l) return rc;
  auto report = sym::checkGuards(*l->env, {o.timeoutMs});
  if (!logQueries(o.traceLog, report.queries, &rc)) return rc;
  if (o.json) printJson(guardCheckJson(*l, report, o.timeoutMs));
  else printCheck(*l, report);
  return report.problemFound() ? kExitProblem : kExitOk;
}

int runGuardExplain(const GuardsAnalysisOptions& o) {
  if (!sym::Solver::available()) return noSolver();
  int rc = kExitOk;
  auto l = load(o.dumps.front(), &rc, o.load);
  if (!l) return rc;
  // Without a forward graph to read them from (a dump of several unnamed graphs), static
  // dimensions go unchecked and are noted as such.
  auto inputs = tracedInputs(*l);
  const std::vector<sym::GuardedInput> traced = inputs.ok() ? std::move(*inputs) : std::vector<sym::GuardedInput>{};
  auto sizes = sym::parseExplainSizes(o.explain, *l->env, traced);
  if (!sizes.ok()) return reportError(sizes.error());
  auto report = sym::explainSizes(*l->env, *sizes, {o.timeoutMs}, traced);
  if (!report.ok()) return reportError(report.error());
  if (!logQueries(o.traceLog, report->queries, &rc)) return rc;
  if (o.json) printJson(explainJson(*l, o.explain, *sizes, *report));
  else printExplain(*l, o.explain, *sizes, *report);
  return report->failed.empty() ? kExitOk : kExitProblem;
}

int runGuardOverlap(const GuardsAnalysisOptions& o) {
  if (!sym::Solver::available()) return noSolver();
  if (o.dumps.size() < 2) return usageError("--overlap: give two or more dumps (compiled entries of one function)");
  int rc = kExitOk;
  std::vector<GuardedDump> loaded;
  std::vector<sym::GuardedEntry> entries;
  for (const auto& path : o.dumps) {
    auto l = load(path, &rc, o.load);
    if (!l) return rc;
    auto inputs = tracedInputs(*l);
    if (!inputs.ok()) return reportError(inputs.error());
    entries.push_back({path, l->env.get(), std::move(*inputs)});  // the env is shared: moving `l` keeps it
    loaded.push_back(std::move(*l));
  }
  const sym::PairwiseOverlap overlap = sym::overlapPairwise(entries, {o.timeoutMs});
  if (!o.json) printOverlap(o.dumps, overlap);
  if (!logQueries(o.traceLog, overlap.queries, &rc)) return rc;
  if (o.json) printJson(overlapJson(o.dumps, overlap));
  return overlap.anyOverlap ? kExitProblem : kExitOk;
}

int runGuardAccepts(const GuardsAnalysisOptions& o) {
  if (!sym::Solver::available()) return noSolver();
  int rc = kExitOk;
  auto l = load(o.dumps.front(), &rc, o.load);
  if (!l) return rc;
  auto ranges = sym::parseAcceptsRanges(o.accepts, *l->env);
  if (!ranges.ok()) return reportError(ranges.error());
  auto report = sym::provesAccepts(*l->env, *ranges, {o.timeoutMs});
  if (!report.ok()) return reportError(report.error());
  if (!logQueries(o.traceLog, report->queries, &rc)) return rc;
  if (o.json) printJson(acceptsJson(*l, o.accepts, *report));
  else printAccepts(*l, o.accepts, *report);
  return report->accepted ? kExitOk : kExitProblem;
}

}  // namespace fathom::cli
