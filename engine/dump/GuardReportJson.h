// GuardReportJson: the JSON of the Z3 guard analyses (engine/symbolic/GuardCheck.h, GuardExplain.h,
// GuardOverlap.h), the one encoder of each that `fathom guards --check | --explain | --overlap
// --json` print. A guard they name is written by guardRefJson (GuardJson.h): its expression,
// provenance and position in the dump's shape_env/guards ("index"). Keys in the order below.
//
//   guardCheckJson  {file, symbolic, guards, symbols, skipped_guards, consistency: {status,
//                   witness | conflict, ranges_in_conflict}, redundancy: {status, redundant,
//                   minimal}, soundness: {status, raw_recorded, simplified, looser, stricter},
//                   specializations, undecided, problem, timeout_ms, queries, ms}
//   explainJson     {file, sizes, values, passes, failed: [{..guard, kind, actual}], nearest:
//                   {status, values, inputs | reason}, notes, skipped_guards, queries}
//   overlapJson     {files, overlap, pairs: [{a, b, result, witness, separating, reason}], queries}
//   acceptsJson     {file, ranges, accepted, status, reason, counterexample, failed: [{..guard, kind,
//                   actual}], widest: {symbol: [lo, hi]}, stops: [{symbol, side, value, failed}],
//                   skipped_guards, queries}
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace fathom::sym {
struct GuardCheckReport;
struct ExplainSizes;
struct ExplainReport;
struct PairwiseOverlap;
struct AcceptsReport;
}  // namespace fathom::sym

namespace fathom {

struct GuardedDump;

// `timeoutMs`: each query's limit, as asked.
nlohmann::ordered_json guardCheckJson(const GuardedDump& d, const sym::GuardCheckReport& r, unsigned timeoutMs);
// `sizesText`: the sizes as the user wrote them; `sizes`: as read (input sizes given: the nearest
// passing sizes are written per input too).
nlohmann::ordered_json explainJson(const GuardedDump& d, const std::string& sizesText, const sym::ExplainSizes& sizes,
                                   const sym::ExplainReport& r);
// `files[i]`: the dump of entry i; `overlap` as overlapPairwise answers for those entries.
nlohmann::ordered_json overlapJson(const std::vector<std::string>& files, const sym::PairwiseOverlap& overlap);
// `rangesText`: the ranges as the user wrote them.
nlohmann::ordered_json acceptsJson(const GuardedDump& d, const std::string& rangesText, const sym::AcceptsReport& r);

}  // namespace fathom
