// GuardJson: one JSON encoder for each fact a ShapeEnv records - a symbol, a guard with where it
// was asked, a specialization - shared by the dump's shape_env section (ShapeEnvJson.cpp) and
// every command that reports a guard: `fathom guards --json`, the Z3 reports (GuardReportJson.h),
// `fathom trace --calls` (the checks a call failed) and `trace --aot --lazy-backward` (late guards).
//
// A fact has two forms, which differ only where the dump file must stay compact and stable:
//   Dump    the file (engine/dump/README.md): "args" only when the op read any, a symbol's range
//           as [low, high] with null for an open end
//   Report  what commands print: "args" always (maybe []), a range as text ("[2, inf]"), and a
//           specialization with the check it amounts to ("expr": "Eq(s1, 128)")
// Keys keep the order below, in both forms: the dump's bytes and every report's are fixed by it.
//
//   guardJson(g, GuardJsonForm::Report)
//     {"expr": "s1 < 512", "stage": "trace", "node": "slice_1", "op": "aten.slice.Tensor",
//      "args": ["x"], "source": "Bert.cpp:88", "module": "embeddings", "reason": "...", "count": 1}
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <string>

namespace fathom::sym {
struct GuardContext;
struct Guard;
struct Specialization;
struct SymbolInfo;
struct GuardFailure;
class ShapeEnv;
}  // namespace fathom::sym

namespace fathom {

enum class GuardJsonForm { Dump, Report };

// Where a guard was asked, added to j: stage, node, op, args, source, module.
void putGuardContext(nlohmann::ordered_json& j, const sym::GuardContext& where, GuardJsonForm form);

// {name, hint, range, sources}
nlohmann::ordered_json symbolJson(const sym::SymbolInfo& s, GuardJsonForm form);
// {expr, raw (when recorded: the decision as asked), stage, node, op, args, source, module, reason, count}
nlohmann::ordered_json guardJson(const sym::Guard& g, GuardJsonForm form);
// A guard an analysis names (Report form, without count): {index, expr, raw, stage, ..., reason},
// index being its position in the file's shape_env/guards (GuardedDump::filePosition).
nlohmann::ordered_json guardRefJson(const sym::Guard& g, size_t filePosition);
// {symbol, value, kind, expr (Report), input (the dimension, for zero-one), stage, ..., reason}
nlohmann::ordered_json specializationJson(const sym::Specialization& s, GuardJsonForm form);

// `fathom guards DUMP --json`: {file, symbolic, symbols, guards, specializations}, in the Report
// form; env is null for a static trace (symbolic false, empty lists).
nlohmann::ordered_json guardListingJson(const sym::ShapeEnv* env, const std::string& file);

// A check of compiled entry `entry` that a call failed (`fathom trace --calls`):
// {entry, kind, expr, actual, input, stage, node, op, args, source, module, reason}; input names
// the placeholder a check without provenance is about (GuardFailure::input).
nlohmann::ordered_json guardFailureJson(size_t entry, const sym::GuardFailure& f);
// A guard known by its text and provenance (the late guards of `trace --aot --lazy-backward`):
// {expr, stage, node, op, args, source, module, reason}.
nlohmann::ordered_json guardProvenanceJson(const std::string& expr, const sym::GuardContext& where, const std::string& reason);

}  // namespace fathom
