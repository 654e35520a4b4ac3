// `fathom guards --check | --explain SIZES | A B --overlap` (see GuardsAnalysis.h).
#include "app/GuardsAnalysis.h"

#include <iostream>
#include <memory>

#include "app/CliCommon.h"
#include "engine/cache/ShapeTracing.h"
#include "engine/core/TraceLog.h"
#include "engine/dump/SkipUnreadableGuards.h"
#include "engine/symbolic/ExplainSizesText.h"
#include "engine/symbolic/GuardCheck.h"
#include "engine/symbolic/GuardExplain.h"
#include "engine/symbolic/GuardOverlap.h"

namespace fathom::cli {
namespace {

using sym::SolveStatus;

// A dump loaded for analysis: guards it cannot read are skipped and reported, not fatal.
struct Loaded {
  Dump dump;
  std::shared_ptr<sym::ShapeEnv> env;  // an empty env for a static trace
  std::vector<std::string> skipped;
  std::vector<size_t> dumpIndex;  // each env guard's position in the dump's shape_env/guards
};

std::optional<Loaded> load(const std::string& path, int* rc, const DumpLoadFlags& flags) {
  SkipUnreadableGuards skip;
  auto dump = loadDumpOrReport(path, rc, flags);
  if (!dump) return std::nullopt;
  Loaded out{std::move(*dump), nullptr, {}, {}};
  out.env = out.dump.shapeEnv ? out.dump.shapeEnv : sym::ShapeEnv::create();
  // Skipped guards leave gaps: report the others by where they are in the file.
  const auto& gaps = skip.skippedPositions();
  for (size_t pos = 0, gap = 0; out.dumpIndex.size() < out.env->guards().size(); ++pos) {
    if (gap < gaps.size() && gaps[gap] == pos) ++gap;
    else out.dumpIndex.push_back(pos);
  }
  for (const auto& s : skip.skipped()) {
    out.skipped.push_back(path + ": " + s);
    std::cerr << "fathom: warning: " << path << ": " << s << " (guard skipped; the rest is analysed)\n";
  }
  return out;
}

// The forward graph's inputs with their recorded sizes: what the cache checks a call against.
Result<std::vector<sym::GuardedInput>> tracedInputs(const Loaded& l, const std::string& path) {
  auto graph = selectGraph(l.dump, l.dump.graph("forward") ? "forward" : "", path);
  if (!graph.ok()) return graph.error();
  auto inputs = guardedInputsOf((*graph)->graph);
  if (!inputs.ok()) return invalidInput(inputs.error().message, path);
  return inputs;
}

Json guardJson(const Loaded& l, size_t i) {
  const sym::Guard& g = l.env->guards()[i];
  Json j = {{"index", l.dumpIndex[i]}, {"expr", g.expr.str()}};
  if (g.raw) j["raw"] = g.raw->str();
  putGuardContext(j, g.where);
  j["reason"] = g.reason;
  return j;
}
Json guardsJson(const Loaded& l, const std::vector<size_t>& indices) {
  Json out = Json::array();
  for (size_t i : indices) out.push_back(guardJson(l, i));
  return out;
}
// One line per guard: its expression (the raw one, as it was asked, with `raw`) and provenance.
void printGuardLine(const sym::ShapeEnv& env, size_t i, const std::string& indent, bool raw = false) {
  const sym::Guard& g = env.guards()[i];
  const sym::Relation& e = raw && g.raw ? *g.raw : g.expr;
  std::cout << indent << "[" << g.where.stage << "] " << e.str() << "    " << guardWhere(g.where) << "\n";
}

Json valuesJson(const std::map<int32_t, int64_t>& values) {
  Json j = Json::object();
  for (const auto& [s, v] : values) j[sym::symbolName(s)] = v;
  return j;
}
// The input dimensions the symbol values stand for: {"input_ids.size(0)": 4, ...}.
Json inputsJson(const sym::ShapeEnv& env, const std::map<int32_t, int64_t>& values) {
  Json j = Json::object();
  for (const auto& [s, v] : values)
    if (s >= 0 && static_cast<size_t>(s) < env.symbols().size())
      for (const auto& src : env.symbols()[static_cast<size_t>(s)].sources) j[src] = v;
  return j;
}
std::string valuesText(const std::map<int32_t, int64_t>& values) {
  std::string out;
  for (const auto& [s, v] : values) out += (out.empty() ? "" : ", ") + sym::symbolName(s) + " = " + std::to_string(v);
  return out;
}

Json queriesJson(const std::vector<sym::GuardQuery>& queries) {
  Json out = Json::array();
  for (const auto& q : queries) out.push_back({{"check", q.check}, {"subject", q.subject}, {"status", sym::solveStatusName(q.status)}, {"ms", q.ms}});
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
    log->emit("guard_check", 0, "guards", {{"check", q.check}, {"subject", q.subject}, {"status", std::string(sym::solveStatusName(q.status))}, {"ms", q.ms}});
  return true;
}

int noSolver() { return reportError(invalidInput("this build has no Z3: install libz3-dev and rebuild (./fathom builds with it)")); }

Json undecidedJson(const std::vector<sym::Undecided>& list) {
  Json out = Json::array();
  for (const auto& u : list) out.push_back({{"check", u.check}, {"subject", u.subject}, {"reason", u.reason}});
  return out;
}

// ---- --check ----------------------------------------------------------------------------

std::string consistencyStatus(const sym::Consistency& c) {
  return c.status == SolveStatus::Sat ? "consistent" : c.status == SolveStatus::Unsat ? "inconsistent" : "undecided";
}
std::string soundnessStatus(const sym::Soundness& s) {
  if (!s.ran) return "skipped";
  if (s.looser == SolveStatus::Sat || s.stricter == SolveStatus::Sat) return "unsound";
  if (s.looser == SolveStatus::Unsat && s.stricter == SolveStatus::Unsat) return "sound";
  return "undecided";
}

Json counterexampleJson(const Loaded& l, SolveStatus status, const std::optional<sym::Counterexample>& c) {
  Json j = {{"status", sym::solveStatusName(status)}};
  if (!c) return j;
  j["values"] = valuesJson(c->values);
  j["inputs"] = inputsJson(*l.env, c->values);
  j["raw_rejecting"] = guardsJson(l, c->rawRejecting);
  j["simplified_rejecting"] = c->simplifiedRejecting;
  return j;
}

Json checkJson(const Loaded& l, const std::string& path, const sym::GuardCheckReport& r, unsigned timeoutMs) {
  const sym::ShapeEnv& env = *l.env;
  Json consistency = {{"status", consistencyStatus(r.consistency)}};
  if (r.consistency.status == SolveStatus::Sat) consistency["witness"] = valuesJson(r.consistency.witness);
  if (r.consistency.status == SolveStatus::Unsat) {
    consistency["conflict"] = guardsJson(l, r.consistency.conflict);
    Json ranges = Json::array();
    for (int32_t s : r.consistency.rangesInConflict) ranges.push_back(sym::symbolName(s) + " in " + env.symbols()[static_cast<size_t>(s)].range.str());
    consistency["ranges_in_conflict"] = ranges;
  }
  Json redundant = Json::array();
  for (const auto& g : r.redundancy.redundant) {
    Json j = guardJson(l, g.guard);
    j["implied_by"] = guardsJson(l, g.impliedBy);
    j["by_ranges_alone"] = g.impliedBy.empty();
    redundant.push_back(std::move(j));
  }
  Json minimal = Json::array();
  for (size_t i : r.redundancy.minimal) minimal.push_back(env.guards()[i].expr.str());
  Json simplified = Json::array();
  for (const auto& c : r.soundness.simplified) simplified.push_back({{"kind", c.kind}, {"expr", c.rel.str()}});
  Json specializations = Json::array();
  for (const auto& f : r.specializations)
    specializations.push_back({{"symbol", sym::symbolName(f.symbol)}, {"kind", f.kind}, {"value", f.value.str()},
                               {"recorded", f.recorded}, {"implied", f.implied}, {"caused_by", guardsJson(l, f.causedBy)}});
  return {{"file", path},
          {"symbolic", l.dump.shapeEnv != nullptr},
          {"guards", env.guards().size()},
          {"symbols", env.symbols().size()},
          {"skipped_guards", l.skipped},
          {"consistency", consistency},
          {"redundancy", {{"status", r.redundancy.ran ? "ran" : "skipped"}, {"redundant", redundant}, {"minimal", minimal}}},
          {"soundness", {{"status", soundnessStatus(r.soundness)}, {"raw_recorded", r.soundness.rawRecorded}, {"simplified", simplified},
                         {"looser", counterexampleJson(l, r.soundness.looser, r.soundness.looserExample)},
                         {"stricter", counterexampleJson(l, r.soundness.stricter, r.soundness.stricterExample)}}},
          {"specializations", specializations},
          {"undecided", undecidedJson(r.undecided)},
          {"problem", r.problemFound()},
          {"timeout_ms", timeoutMs},
          {"queries", queriesJson(r.queries)},
          {"ms", r.ms}};
}

void printCounterexample(const sym::ShapeEnv& env, const sym::Counterexample& c, const char* what) {
  std::cout << "      " << what << ": " << valuesText(c.values) << "\n";
  const Json inputs = inputsJson(env, c.values);
  if (!inputs.empty()) {
    std::cout << "        as inputs:";
    for (auto it = inputs.begin(); it != inputs.end(); ++it) std::cout << " " << it.key() << " = " << it.value().dump();
    std::cout << "\n";
  }
  for (size_t i : c.rawRejecting) printGuardLine(env, i, "        the raw guards reject it: ", true);
  for (const auto& s : c.simplifiedRejecting) std::cout << "        the simplified set rejects it: " << s << "\n";
}

void printCheck(const Loaded& l, const std::string& path, const sym::GuardCheckReport& r) {
  const sym::ShapeEnv& env = *l.env;
  std::cout << path << ": " << env.guards().size() << " guards over " << env.symbols().size() << " symbols (z3: "
            << r.queries.size() << " queries, " << static_cast<int64_t>(r.ms) << " ms)\n";
  const auto& c = r.consistency;
  std::cout << "  consistency: " << consistencyStatus(c);
  if (c.status == SolveStatus::Sat) std::cout << " (e.g. " << valuesText(c.witness) << ")\n";
  else std::cout << "\n";
  if (c.status == SolveStatus::Unsat) {
    std::cout << "    these guards cannot hold together (none can be dropped from the conflict):\n";
    for (size_t i : c.conflict) printGuardLine(env, i, "      ");
    for (int32_t s : c.rangesInConflict)
      std::cout << "      with the range " << sym::symbolName(s) << " in " << env.symbols()[static_cast<size_t>(s)].range.str() << "\n";
  }
  if (!r.redundancy.ran) std::cout << "  redundancy: skipped (the guards are not known consistent)\n";
  else if (r.redundancy.redundant.empty()) std::cout << "  redundancy: none (the " << r.redundancy.minimal.size() << " guards are a minimal set)\n";
  else {
    std::cout << "  redundancy: " << r.redundancy.redundant.size() << " of " << env.guards().size() << " guards are implied by the rest\n";
    for (const auto& g : r.redundancy.redundant) {
      printGuardLine(env, g.guard, "    ");
      if (g.impliedBy.empty()) std::cout << "      implied by the symbols' ranges alone\n";
      for (size_t i : g.impliedBy) printGuardLine(env, i, "      implied by: ");
    }
  }
  const auto& s = r.soundness;
  std::cout << "  soundness: " << soundnessStatus(s);
  if (s.ran && soundnessStatus(s) == "sound")
    std::cout << ": the simplified set (" << s.simplified.size() << " checks) accepts exactly what the guards as asked accept"
              << (s.rawRecorded ? "" : " (this dump has no raw guards: compared with the recorded ones)");
  std::cout << "\n";
  if (s.looserExample) printCounterexample(env, *s.looserExample, "the simplified set accepts what the raw guards reject (an entry would run inputs it was not traced for)");
  if (s.stricterExample) printCounterexample(env, *s.stricterExample, "the simplified set rejects what the raw guards accept (needless recompiles)");
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

}  // namespace

int runGuardCheck(const GuardsAnalysisOptions& o) {
  if (!sym::Solver::available()) return noSolver();
  int rc = kExitOk;
  auto l = load(o.dumps.front(), &rc, o.load);
  if (!l) return rc;
  auto report = sym::checkGuards(*l->env, {o.timeoutMs});
  if (!logQueries(o.traceLog, report.queries, &rc)) return rc;
  if (o.json) printJson(checkJson(*l, o.dumps.front(), report, o.timeoutMs));
  else printCheck(*l, o.dumps.front(), report);
  return report.problemFound() ? kExitProblem : kExitOk;
}

namespace {

Json sizesJson(const std::map<std::string, std::vector<int64_t>>& inputs) {
  Json j = Json::object();
  for (const auto& [name, dims] : inputs) j[name] = dims;
  return j;
}
std::string sizesText(const std::vector<int64_t>& dims) {
  std::string out;
  for (size_t i = 0; i < dims.size(); ++i) out += (i ? "x" : "") + std::to_string(dims[i]);
  return out;
}

}  // namespace

int runGuardExplain(const GuardsAnalysisOptions& o) {
  if (!sym::Solver::available()) return noSolver();
  int rc = kExitOk;
  auto l = load(o.dumps.front(), &rc, o.load);
  if (!l) return rc;
  const sym::ShapeEnv& env = *l->env;
  // Without a forward graph to read them from (a dump of several unnamed graphs), static
  // dimensions go unchecked and are noted as such.
  auto inputs = tracedInputs(*l, o.dumps.front());
  const std::vector<sym::GuardedInput> traced = inputs.ok() ? std::move(*inputs) : std::vector<sym::GuardedInput>{};
  auto sizes = sym::parseExplainSizes(o.explain, env, traced);
  if (!sizes.ok()) return reportError(sizes.error());
  auto report = sym::explainSizes(env, *sizes, {o.timeoutMs}, traced);
  if (!report.ok()) return reportError(report.error());
  if (!logQueries(o.traceLog, report->queries, &rc)) return rc;
  const bool given = !sizes->inputs.empty();
  if (o.json) {
    Json failed = Json::array();
    for (const auto& f : report->failed) {
      Json j = f.guard ? guardJson(*l, *f.guard) : Json{{"expr", f.expr}};
      j["kind"] = f.kind;
      j["actual"] = f.actual;
      failed.push_back(std::move(j));
    }
    Json nearest = {{"status", sym::solveStatusName(report->nearest.status)}};
    if (report->nearest.status == SolveStatus::Sat) {
      nearest["values"] = valuesJson(report->nearest.model);
      if (given) nearest["inputs"] = sizesJson(report->nearestInputs);
    } else {
      nearest["reason"] = report->nearest.reason;
    }
    printJson({{"file", o.dumps.front()}, {"sizes", o.explain}, {"values", valuesJson(report->values)}, {"passes", report->failed.empty()},
               {"failed", failed}, {"nearest", nearest}, {"notes", report->notes}, {"skipped_guards", l->skipped},
               {"queries", queriesJson(report->queries)}});
  } else {
    std::cout << o.dumps.front() << ": " << o.explain << " (" << valuesText(report->values) << ")\n";
    if (report->failed.empty()) std::cout << "  passes every check: an entry traced with these guards runs these sizes\n";
    else std::cout << "  fails " << report->failed.size() << " check" << (report->failed.size() == 1 ? "" : "s") << " (a call with these sizes recompiles):\n";
    for (const auto& f : report->failed) {
      std::cout << "    [" << f.kind << "] " << f.expr << "    with " << f.actual << "\n";
      if (f.guard) {
        const sym::Guard& g = env.guards()[*f.guard];
        std::cout << "        " << guardWhere(g.where) << "\n        why: " << g.reason << "\n";
      }
    }
    for (const auto& n : report->notes) std::cout << "  note: " << n << "\n";
    if (report->nearest.status == SolveStatus::Sat) {
      std::cout << "  nearest sizes that pass: ";
      if (given) {
        bool first = true;
        for (const auto& [name, dims] : report->nearestInputs) std::cout << (first ? "" : ", ") << name << "=" << sizesText(dims), first = false;
        std::cout << "  (" << valuesText(report->nearest.model) << ")\n";
      } else {
        std::cout << valuesText(report->nearest.model) << "\n";
      }
    } else {
      std::cout << "  nearest sizes that pass: none found (" << sym::solveStatusName(report->nearest.status)
                << (report->nearest.reason.empty() ? "" : ": " + report->nearest.reason) << ")\n";
    }
  }
  return report->failed.empty() ? kExitOk : kExitProblem;
}

int runGuardOverlap(const GuardsAnalysisOptions& o) {
  if (!sym::Solver::available()) return noSolver();
  if (o.dumps.size() < 2) return usageError("--overlap: give two or more dumps (compiled entries of one function)");
  int rc = kExitOk;
  std::vector<Loaded> loaded;
  std::vector<sym::GuardedEntry> entries;
  for (const auto& path : o.dumps) {
    auto l = load(path, &rc, o.load);
    if (!l) return rc;
    auto inputs = tracedInputs(*l, path);
    if (!inputs.ok()) return reportError(inputs.error());
    entries.push_back({path, l->env.get(), std::move(*inputs)});  // the env is shared: moving `l` keeps it
    loaded.push_back(std::move(*l));
  }
  Json pairs = Json::array();
  std::vector<sym::GuardQuery> queries;
  bool anyOverlap = false;
  if (!o.json) std::cout << "overlap of " << entries.size() << " entries:\n";
  for (size_t i = 0; i < entries.size(); ++i)
    for (size_t j = i + 1; j < entries.size(); ++j) {
      auto r = sym::overlap(entries[i], entries[j], {o.timeoutMs});
      queries.insert(queries.end(), r.queries.begin(), r.queries.end());
      const std::string verdict = r.status == SolveStatus::Sat ? "overlap" : r.status == SolveStatus::Unsat ? "disjoint" : "undecided";
      anyOverlap |= r.status == SolveStatus::Sat;
      Json witness = Json::object();
      for (const auto& [name, dims] : r.witness) witness[name] = dims;
      pairs.push_back({{"a", o.dumps[i]}, {"b", o.dumps[j]}, {"result", verdict}, {"witness", witness}, {"separating", r.separating}, {"reason", r.reason}});
      if (o.json) continue;
      std::cout << "  " << o.dumps[i] << " and " << o.dumps[j] << ": " << verdict << "\n";
      if (r.status == SolveStatus::Sat) {
        std::cout << "    both accept the call:";
        for (const auto& [name, dims] : r.witness) std::cout << " " << name << "=" << sizesText(dims);
        std::cout << "\n";
      }
      if (!r.reason.empty()) std::cout << "    " << r.reason << "\n";
      if (!r.separating.empty()) std::cout << "    no call passes both; these checks separate them:\n";
      for (const auto& s : r.separating) std::cout << "      " << s << "\n";
    }
  if (!logQueries(o.traceLog, queries, &rc)) return rc;
  if (o.json) printJson({{"files", o.dumps}, {"overlap", anyOverlap}, {"pairs", pairs}, {"queries", queriesJson(queries)}});
  return anyOverlap ? kExitProblem : kExitOk;
}

}  // namespace fathom::cli
