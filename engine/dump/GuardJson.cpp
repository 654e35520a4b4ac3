// How a ShapeEnv's facts are written as JSON, in the dump and in reports (see GuardJson.h).
#include "engine/dump/GuardJson.h"

#include <nlohmann/json.hpp>

#include "engine/symbolic/GuardSet.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom {
namespace {

using ojson = nlohmann::ordered_json;

ojson rangeEnd(int64_t v) {
  if (v == sym::ValueRange::kNegInf || v == sym::ValueRange::kPosInf) return nullptr;
  return v;
}

// The tail every guard-like entry ends with: where it was asked, and why.
void putProvenance(ojson& j, const sym::GuardContext& where, const std::string& reason, GuardJsonForm form) {
  putGuardContext(j, where, form);
  j["reason"] = reason;
}

// A recorded guard without its count: {expr, raw, stage, ..., reason}.
void putGuard(ojson& j, const sym::Guard& g, GuardJsonForm form) {
  j["expr"] = g.expr.str();
  if (g.raw) j["raw"] = g.raw->str();
  putProvenance(j, g.where, g.reason, form);
}

// The check a specialization amounts to: "Eq(s1, 128)", or "x.size(0) == 1" for a zero-one one.
std::string specializationCheck(const sym::Specialization& s) {
  return s.symbol.empty() ? s.source + " == " + s.value.str() : "Eq(" + s.symbol + ", " + s.value.str() + ")";
}

}  // namespace

void putGuardContext(ojson& j, const sym::GuardContext& where, GuardJsonForm form) {
  j["stage"] = where.stage;
  j["node"] = where.node;
  j["op"] = where.op;
  if (form == GuardJsonForm::Report || !where.argNames.empty()) j["args"] = where.argNames;
  j["source"] = where.source;
  j["module"] = where.module;
}

ojson symbolJson(const sym::SymbolInfo& s, GuardJsonForm form) {
  ojson j = ojson::object();
  j["name"] = s.name;
  j["hint"] = s.hint;
  if (form == GuardJsonForm::Dump) j["range"] = ojson::array({rangeEnd(s.range.lo), rangeEnd(s.range.hi)});
  else j["range"] = s.range.str();
  j["sources"] = s.sources;
  return j;
}

ojson guardJson(const sym::Guard& g, GuardJsonForm form) {
  ojson j = ojson::object();
  putGuard(j, g, form);
  j["count"] = g.count;
  return j;
}

ojson guardRefJson(const sym::Guard& g, size_t filePosition) {
  ojson j = ojson::object();
  j["index"] = filePosition;
  putGuard(j, g, GuardJsonForm::Report);
  return j;
}

ojson specializationJson(const sym::Specialization& s, GuardJsonForm form) {
  ojson j = ojson::object();
  j["symbol"] = s.symbol;
  j["value"] = s.value.str();
  j["kind"] = s.kind;
  if (form == GuardJsonForm::Report) j["expr"] = specializationCheck(s);
  if (!s.source.empty()) j["input"] = s.source;
  putProvenance(j, s.where, s.reason, form);
  return j;
}

ojson guardListingJson(const sym::ShapeEnv* env, const std::string& file) {
  ojson symbols = ojson::array(), guards = ojson::array(), specializations = ojson::array();
  if (env) {
    for (const auto& s : env->symbols()) symbols.push_back(symbolJson(s, GuardJsonForm::Report));
    for (const auto& g : env->guards()) guards.push_back(guardJson(g, GuardJsonForm::Report));
    for (const auto& s : env->specializations()) specializations.push_back(specializationJson(s, GuardJsonForm::Report));
  }
  ojson j = ojson::object();
  j["file"] = file;
  j["symbolic"] = env != nullptr;
  j["symbols"] = std::move(symbols);
  j["guards"] = std::move(guards);
  j["specializations"] = std::move(specializations);
  return j;
}

ojson guardFailureJson(size_t entry, const sym::GuardFailure& f) {
  ojson j = ojson::object();
  j["entry"] = entry;
  j["kind"] = f.kind;
  j["expr"] = f.expr;
  j["actual"] = f.actual;
  j["input"] = f.input;
  putProvenance(j, f.where, f.reason, GuardJsonForm::Report);
  return j;
}

ojson guardProvenanceJson(const std::string& expr, const sym::GuardContext& where, const std::string& reason) {
  ojson j = ojson::object();
  j["expr"] = expr;
  putProvenance(j, where, reason, GuardJsonForm::Report);
  return j;
}

}  // namespace fathom
