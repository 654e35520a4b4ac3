// The JSON of the guard analyses (see GuardReportJson.h).
#include "engine/dump/GuardReportJson.h"

#include <nlohmann/json.hpp>

#include "engine/dump/GuardJson.h"
#include "engine/dump/GuardedDump.h"
#include "engine/symbolic/GuardAccepts.h"
#include "engine/symbolic/GuardExplain.h"
#include "engine/symbolic/GuardOverlap.h"

namespace fathom {
namespace {

using ojson = nlohmann::ordered_json;
using sym::SolveStatus;

ojson guardRefsJson(const GuardedDump& d, const std::vector<size_t>& guards) {
  ojson out = ojson::array();
  for (size_t i : guards) out.push_back(guardRefJson(d.env->guards()[i], d.filePosition[i]));
  return out;
}

ojson valuesJson(const std::map<int32_t, int64_t>& values) {
  ojson j = ojson::object();
  for (const auto& [s, v] : values) j[sym::symbolName(s)] = v;
  return j;
}

// The input dimensions the symbol values stand for: {"input_ids.size(0)": 4, ...}.
ojson inputsJson(const sym::ShapeEnv& env, const std::map<int32_t, int64_t>& values) {
  ojson j = ojson::object();
  for (const auto& [source, v] : sym::inputDimensions(env, values)) j[source] = v;
  return j;
}

ojson queriesJson(const std::vector<sym::GuardQuery>& queries) {
  ojson out = ojson::array();
  for (const auto& q : queries) out.push_back({{"check", q.check}, {"subject", q.subject}, {"status", sym::solveStatusName(q.status)}, {"ms", q.ms}});
  return out;
}

ojson undecidedJson(const std::vector<sym::Undecided>& list) {
  ojson out = ojson::array();
  for (const auto& u : list) out.push_back({{"check", u.check}, {"subject", u.subject}, {"reason", u.reason}});
  return out;
}

// ---- --check ------------------------------------------------------------------------------

ojson consistencyJson(const GuardedDump& d, const sym::Consistency& c) {
  ojson j = {{"status", c.verdict()}};
  if (c.status == SolveStatus::Sat) j["witness"] = valuesJson(c.witness);
  if (c.status == SolveStatus::Unsat) {
    j["conflict"] = guardRefsJson(d, c.conflict);
    ojson ranges = ojson::array();
    for (int32_t s : c.rangesInConflict) ranges.push_back(sym::symbolName(s) + " in " + d.env->symbols()[static_cast<size_t>(s)].range.str());
    j["ranges_in_conflict"] = ranges;
  }
  return j;
}

ojson redundancyJson(const GuardedDump& d, const sym::Redundancy& r) {
  ojson redundant = ojson::array();
  for (const auto& g : r.redundant) {
    ojson j = guardRefJson(d.env->guards()[g.guard], d.filePosition[g.guard]);
    j["implied_by"] = guardRefsJson(d, g.impliedBy);
    j["by_ranges_alone"] = g.impliedBy.empty();
    redundant.push_back(std::move(j));
  }
  ojson minimal = ojson::array();
  for (size_t i : r.minimal) minimal.push_back(d.env->guards()[i].expr.str());
  return {{"status", r.ran ? "ran" : "skipped"}, {"redundant", redundant}, {"minimal", minimal}};
}

ojson counterexampleJson(const GuardedDump& d, SolveStatus status, const std::optional<sym::Counterexample>& c) {
  ojson j = {{"status", sym::solveStatusName(status)}};
  if (!c) return j;
  j["values"] = valuesJson(c->values);
  j["inputs"] = inputsJson(*d.env, c->values);
  j["raw_rejecting"] = guardRefsJson(d, c->rawRejecting);
  j["simplified_rejecting"] = c->simplifiedRejecting;
  return j;
}

ojson soundnessJson(const GuardedDump& d, const sym::Soundness& s) {
  ojson simplified = ojson::array();
  for (const auto& c : s.simplified) simplified.push_back({{"kind", c.kind}, {"expr", c.rel.str()}});
  return {{"status", s.verdict()}, {"raw_recorded", s.rawRecorded}, {"simplified", simplified},
          {"looser", counterexampleJson(d, s.looser, s.looserExample)},
          {"stricter", counterexampleJson(d, s.stricter, s.stricterExample)}};
}

ojson findingsJson(const GuardedDump& d, const std::vector<sym::SymbolFinding>& findings) {
  ojson out = ojson::array();
  for (const auto& f : findings)
    out.push_back({{"symbol", sym::symbolName(f.symbol)}, {"kind", f.kind}, {"value", f.value.str()},
                   {"recorded", f.recorded}, {"implied", f.implied}, {"caused_by", guardRefsJson(d, f.causedBy)}});
  return out;
}

// ---- --explain ----------------------------------------------------------------------------

ojson failedJson(const GuardedDump& d, const std::vector<sym::FailedCheck>& failed) {
  ojson out = ojson::array();
  for (const auto& f : failed) {
    ojson j = f.guard ? guardRefJson(d.env->guards()[*f.guard], d.filePosition[*f.guard]) : ojson{{"expr", f.expr}};
    j["kind"] = f.kind;
    j["actual"] = f.actual;
    out.push_back(std::move(j));
  }
  return out;
}

ojson nearestJson(const sym::ExplainSizes& sizes, const sym::ExplainReport& r) {
  ojson j = {{"status", sym::solveStatusName(r.nearest.status)}};
  if (r.nearest.status != SolveStatus::Sat) {
    j["reason"] = r.nearest.reason;
    return j;
  }
  j["values"] = valuesJson(r.nearest.model);
  if (!sizes.inputs.empty()) {
    ojson inputs = ojson::object();
    for (const auto& [name, dims] : r.nearestInputs) inputs[name] = dims;
    j["inputs"] = std::move(inputs);
  }
  return j;
}

}  // namespace

ojson guardCheckJson(const GuardedDump& d, const sym::GuardCheckReport& r, unsigned timeoutMs) {
  return {{"file", d.path},
          {"symbolic", d.symbolic()},
          {"guards", d.env->guards().size()},
          {"symbols", d.env->symbols().size()},
          {"skipped_guards", d.skipped},
          {"consistency", consistencyJson(d, r.consistency)},
          {"redundancy", redundancyJson(d, r.redundancy)},
          {"soundness", soundnessJson(d, r.soundness)},
          {"specializations", findingsJson(d, r.specializations)},
          {"undecided", undecidedJson(r.undecided)},
          {"problem", r.problemFound()},
          {"timeout_ms", timeoutMs},
          {"queries", queriesJson(r.queries)},
          {"ms", r.ms}};
}

ojson explainJson(const GuardedDump& d, const std::string& sizesText, const sym::ExplainSizes& sizes, const sym::ExplainReport& r) {
  return {{"file", d.path}, {"sizes", sizesText}, {"values", valuesJson(r.values)}, {"passes", r.failed.empty()},
          {"failed", failedJson(d, r.failed)}, {"nearest", nearestJson(sizes, r)}, {"notes", r.notes},
          {"skipped_guards", d.skipped}, {"queries", queriesJson(r.queries)}};
}

ojson overlapJson(const std::vector<std::string>& files, const sym::PairwiseOverlap& overlap) {
  ojson pairs = ojson::array();
  for (const auto& p : overlap.pairs) {
    const sym::OverlapReport& r = p.report;
    ojson witness = ojson::object();
    for (const auto& [name, dims] : r.witness) witness[name] = dims;
    pairs.push_back({{"a", files[p.a]}, {"b", files[p.b]}, {"result", r.verdict()}, {"witness", witness},
                     {"separating", r.separating}, {"reason", r.reason}});
  }
  return {{"files", files}, {"overlap", overlap.anyOverlap}, {"pairs", pairs}, {"queries", queriesJson(overlap.queries)}};
}

ojson acceptsJson(const GuardedDump& d, const std::string& rangesText, const sym::AcceptsReport& r) {
  ojson widest = ojson::object();
  for (const auto& [symbol, lohi] : r.widest)
    widest[sym::symbolName(symbol)] = lohi.first <= lohi.second ? ojson{lohi.first, lohi.second} : ojson(nullptr);
  ojson stops = ojson::array();
  for (const auto& stop : r.stops)
    stops.push_back({{"symbol", sym::symbolName(stop.symbol)}, {"side", stop.side}, {"value", stop.value}, {"failed", failedJson(d, stop.failed)}});
  return {{"file", d.path}, {"ranges", rangesText}, {"accepted", r.accepted}, {"status", sym::solveStatusName(r.status)},
          {"reason", r.reason}, {"counterexample", valuesJson(r.counterexample)}, {"failed", failedJson(d, r.failed)},
          {"widest", widest}, {"stops", stops}, {"skipped_guards", d.skipped}, {"queries", queriesJson(r.queries)}};
}

}  // namespace fathom
