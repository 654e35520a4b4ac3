// The dump's "shape_env" section (see ShapeEnvJson.h and engine/dump/README.md).
#include "engine/dump/ShapeEnvJson.h"

#include "engine/core/Error.h"
#include "engine/dump/GuardJson.h"
#include "engine/dump/JsonText.h"
#include "engine/dump/SkipUnreadableGuards.h"

namespace fathom::dumpread {
namespace {

using ojson = nlohmann::ordered_json;
thread_local sym::ShapeEnv* tCurrentEnv = nullptr;
thread_local SkipUnreadableGuards* tSkippedGuards = nullptr;

ojson optionsJson(const sym::ShapeEnv& env) {
  ojson j = ojson::object();
  j["duck_sizing"] = env.options().duckSizing;
  j["specialize_zero_one"] = env.options().specializeZeroOne;
  return j;
}

ojson replacementsJson(const sym::ShapeEnv& env) {
  ojson j = ojson::object();
  for (const auto& [s, e] : env.replacements()) j[sym::symbolName(s)] = e.str();
  return j;
}

template <class Items, class Fn>
std::string lines(const Items& items, const std::string& indent, Fn&& text) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ",\n" : "\n") + indent + "  " + text(items[i]).dump();
  return out + (items.empty() ? "]" : "\n" + indent + "]");
}

// ---- reading ------------------------------------------------------------------------------

sym::Expr readExpr(const json& j, const Ptr& ptr, const sym::ShapeEnv& env) {
  const std::string& text = requireString(j, ptr);
  auto e = sym::parseExpr(text);
  if (!e.ok()) fail(ptr, e.error().message);
  for (int32_t s : e->symbols())
    if (s >= static_cast<int32_t>(env.symbols().size()))
      fail(ptr, "'" + text + "' names " + sym::symbolName(s) + ", which shape_env/symbols does not declare");
  return *e;
}

std::string optionalString(const json& j, const Ptr& ptr, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) return {};
  const Ptr p = child(ptr, key);
  return requireString(*it, p);
}

// A guard's relation: parsed, over declared symbols only.
sym::Relation readGuardRelation(const json& j, const Ptr& ptr, const sym::ShapeEnv& env) {
  const std::string& text = requireString(j, ptr);
  auto rel = sym::parseRelation(text);
  if (!rel.ok()) fail(ptr, rel.error().message);
  for (const sym::Expr* side : {&rel->lhs, &rel->rhs})
    for (int32_t s : side->symbols())
      if (s >= static_cast<int32_t>(env.symbols().size()))
        fail(ptr, "guard '" + text + "' names " + sym::symbolName(s) + ", which shape_env/symbols does not declare");
  return *rel;
}

sym::GuardContext readContext(const json& j, const Ptr& ptr) {
  sym::GuardContext c;
  c.stage = optionalString(j, ptr, "stage");
  c.node = optionalString(j, ptr, "node");
  c.op = optionalString(j, ptr, "op");
  c.source = optionalString(j, ptr, "source");
  c.module = optionalString(j, ptr, "module");
  if (auto it = j.find("args"); it != j.end()) {
    const Ptr ap = child(ptr, "args");
    requireArray(*it, ap);
    for (size_t i = 0; i < it->size(); ++i) c.argNames.push_back(requireString((*it)[i], child(ap, i)));
  }
  return c;
}

bool readBool(const json& j, const Ptr& ptr, const char* key, bool fallback) {
  auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (!it->is_boolean()) fail(child(ptr, key), "expected true or false");
  return it->get<bool>();
}

sym::SymbolInfo readSymbol(const json& j, const Ptr& ptr, size_t index) {
  requireObject(j, ptr);
  onlyKeys(j, ptr, {"name", "hint", "range", "sources"});
  sym::SymbolInfo s;
  s.name = requireString(requireKey(j, ptr, "name"), child(ptr, "name"));
  if (s.name != sym::symbolName(static_cast<int32_t>(index)))
    fail(child(ptr, "name"), "symbol " + std::to_string(index) + " must be named " + sym::symbolName(static_cast<int32_t>(index)) + ", not '" + s.name + "'");
  const Ptr hintPtr = child(ptr, "hint");
  s.hint = readInt(requireKey(j, ptr, "hint"), hintPtr);
  if (auto it = j.find("range"); it != j.end()) {
    const Ptr rp = child(ptr, "range");
    requireArray(*it, rp);
    if (it->size() != 2) fail(rp, "a range is [low, high], with null for an open end");
    const Ptr lo = child(rp, size_t{0}), hi = child(rp, size_t{1});
    s.range.lo = (*it)[0].is_null() ? sym::ValueRange::kNegInf : readInt((*it)[0], lo);
    s.range.hi = (*it)[1].is_null() ? sym::ValueRange::kPosInf : readInt((*it)[1], hi);
    if (s.range.lo > s.range.hi) fail(rp, "empty range " + s.range.str());
    if (s.hint < s.range.lo || s.hint > s.range.hi)
      fail(hintPtr, "hint " + std::to_string(s.hint) + " is outside the symbol's range " + s.range.str());
  }
  if (auto it = j.find("sources"); it != j.end()) {
    const Ptr sp = child(ptr, "sources");
    requireArray(*it, sp);
    for (size_t i = 0; i < it->size(); ++i) s.sources.push_back(requireString((*it)[i], child(sp, i)));
  }
  return s;
}

}  // namespace

ojson shapeEnvJson(const sym::ShapeEnv& env) {
  ojson j = ojson::object();
  j["options"] = optionsJson(env);
  j["symbols"] = ojson::array();
  for (const auto& s : env.symbols()) j["symbols"].push_back(symbolJson(s, GuardJsonForm::Dump));
  j["replacements"] = replacementsJson(env);
  j["guards"] = ojson::array();
  for (const auto& g : env.guards()) j["guards"].push_back(guardJson(g, GuardJsonForm::Dump));
  j["specializations"] = ojson::array();
  for (const auto& s : env.specializations()) j["specializations"].push_back(specializationJson(s, GuardJsonForm::Dump));
  return j;
}

std::string shapeEnvText(const sym::ShapeEnv& env, const std::string& indent) {
  const std::string in = indent + "  ";
  std::string out = "{\n" + in + "\"options\": " + optionsJson(env).dump();
  auto symbol = [](const sym::SymbolInfo& s) { return symbolJson(s, GuardJsonForm::Dump); };
  auto guard = [](const sym::Guard& g) { return guardJson(g, GuardJsonForm::Dump); };
  auto specialization = [](const sym::Specialization& s) { return specializationJson(s, GuardJsonForm::Dump); };
  out += ",\n" + in + "\"symbols\": " + lines(env.symbols(), in, symbol);
  out += ",\n" + in + "\"replacements\": " + replacementsJson(env).dump();
  out += ",\n" + in + "\"guards\": " + lines(env.guards(), in, guard);
  out += ",\n" + in + "\"specializations\": " + lines(env.specializations(), in, specialization);
  return out + "\n" + indent + "}";
}

std::shared_ptr<sym::ShapeEnv> readShapeEnv(const json& j, const Ptr& ptr) {
  requireObject(j, ptr);
  onlyKeys(j, ptr, {"options", "symbols", "replacements", "guards", "specializations"});
  sym::ShapeEnvOptions options;
  if (auto it = j.find("options"); it != j.end()) {
    const Ptr op = child(ptr, "options");
    requireObject(*it, op);
    onlyKeys(*it, op, {"duck_sizing", "specialize_zero_one"});
    options.duckSizing = readBool(*it, op, "duck_sizing", true);
    options.specializeZeroOne = readBool(*it, op, "specialize_zero_one", true);
  }
  auto env = sym::ShapeEnv::create(options);
  const Ptr symbolsPtr = child(ptr, "symbols");
  const json& symbols = requireKey(j, ptr, "symbols");
  requireArray(symbols, symbolsPtr);
  for (size_t i = 0; i < symbols.size(); ++i) env->addSymbol(readSymbol(symbols[i], child(symbolsPtr, i), i));

  if (auto it = j.find("replacements"); it != j.end()) {
    const Ptr rp = child(ptr, "replacements");
    requireObject(*it, rp);
    for (auto kv = it->begin(); kv != it->end(); ++kv) {
      const Ptr p = child(rp, kv.key());
      auto s = env->symbolIndex(kv.key());
      if (!s) fail(p, "replacement for '" + kv.key() + "', which shape_env/symbols does not declare");
      env->addReplacement(*s, readExpr(kv.value(), p, *env));
    }
  }
  if (auto it = j.find("guards"); it != j.end()) {
    const Ptr gp = child(ptr, "guards");
    requireArray(*it, gp);
    for (size_t i = 0; i < it->size(); ++i) {
      const json& g = (*it)[i];
      const Ptr p = child(gp, i);
      requireObject(g, p);
      try {
        onlyKeys(g, p, {"expr", "raw", "stage", "node", "op", "args", "source", "module", "reason", "count"});
        sym::Guard guard{readGuardRelation(requireKey(g, p, "expr"), child(p, "expr"), *env), readContext(g, p),
                         optionalString(g, p, "reason"), 1, std::nullopt};
        if (auto r = g.find("raw"); r != g.end()) guard.raw = readGuardRelation(*r, child(p, "raw"), *env);
        if (auto c = g.find("count"); c != g.end()) {
          const Ptr cp = child(p, "count");
          guard.count = readInt(*c, cp);
        }
        env->addGuard(std::move(guard));
      } catch (const ReadError& e) {
        if (!tSkippedGuards) throw;
        tSkippedGuards->add(i, sanitizeForTerminal(e.pointer + ": " + e.message));
      }
    }
  }
  if (auto it = j.find("specializations"); it != j.end()) {
    const Ptr sp = child(ptr, "specializations");
    requireArray(*it, sp);
    for (size_t i = 0; i < it->size(); ++i) {
      const json& s = (*it)[i];
      const Ptr p = child(sp, i);
      requireObject(s, p);
      onlyKeys(s, p, {"symbol", "value", "kind", "input", "stage", "node", "op", "args", "source", "module", "reason"});
      const Ptr vp = child(p, "value");
      env->addSpecialization({optionalString(s, p, "symbol"), readExpr(requireKey(s, p, "value"), vp, *env),
                              requireString(requireKey(s, p, "kind"), child(p, "kind")), optionalString(s, p, "input"),
                              readContext(s, p), optionalString(s, p, "reason")});
    }
  }
  return env;
}

ShapeEnvScope::ShapeEnvScope(sym::ShapeEnv* env) : previous_(tCurrentEnv) { tCurrentEnv = env; }
ShapeEnvScope::~ShapeEnvScope() { tCurrentEnv = previous_; }
sym::ShapeEnv* ShapeEnvScope::current() { return tCurrentEnv; }


SymInt readSymbolicInt(const std::string& text, const Ptr& ptr, const char* what) {
  sym::ShapeEnv* env = ShapeEnvScope::current();
  if (!env) fail(ptr, "symbolic " + std::string(what) + " '" + text + "' but the dump has no shape_env declaring its symbols");
  auto e = sym::parseExpr(text);
  if (!e.ok()) fail(ptr, e.error().message);
  for (int32_t s : e->symbols())
    if (s >= static_cast<int32_t>(env->symbols().size()))
      fail(ptr, "symbolic " + std::string(what) + " '" + text + "' names " + sym::symbolName(s) + ", which shape_env/symbols does not declare");
  try {
    return env->fromExpr(*e);
  } catch (const OpError& err) {
    fail(ptr, err.what());
  }
}

nlohmann::ordered_json symIntJson(const SymInt& s) {
  if (!s.isSymbolic()) return s.hint();
  if (!sym::shapeEnvOf(s)) return s.str();  // a symbol from outside any ShapeEnv (tests)
  const sym::Expr e = sym::exprOf(s);
  if (auto c = e.constant()) return *c;
  return e.str();
}

nlohmann::ordered_json symIntListJson(const SymIntList& l) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& s : l) out.push_back(symIntJson(s));
  return out;
}

}  // namespace fathom::dumpread

namespace fathom {

SkipUnreadableGuards::SkipUnreadableGuards() : previous_(dumpread::tSkippedGuards) { dumpread::tSkippedGuards = this; }
SkipUnreadableGuards::~SkipUnreadableGuards() { dumpread::tSkippedGuards = previous_; }

}  // namespace fathom
