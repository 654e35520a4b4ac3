// `fathom guards DUMP [--json]`: every guard and specialization a symbolic trace recorded, with
// its stage, expression, node, op, model source line, module path and reason - the answer to
// "where did this guard come from?". A static dump has none; that is said, not an error.
#include <iostream>
#include <memory>

#include "app/CliCommon.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom::cli {
namespace {

struct GuardsOptions {
  std::string dump;
  bool json = false;
};

void putContext(Json& j, const sym::GuardContext& c) {
  j["stage"] = c.stage;
  j["node"] = c.node;
  j["op"] = c.op;
  j["args"] = c.argNames;
  j["source"] = c.source;
  j["module"] = c.module;
}

Json guardsJson(const sym::ShapeEnv* env, const std::string& path) {
  Json symbols = Json::array(), guards = Json::array(), specializations = Json::array();
  if (env) {
    for (const auto& s : env->symbols())
      symbols.push_back({{"name", s.name}, {"hint", s.hint}, {"range", s.range.str()}, {"sources", s.sources}});
    for (const auto& g : env->guards()) {
      Json j = {{"expr", g.expr.str()}};
      putContext(j, g.where);
      j["reason"] = g.reason;
      j["count"] = g.count;
      guards.push_back(std::move(j));
    }
    for (const auto& s : env->specializations()) {
      Json j = {{"symbol", s.symbol}, {"value", s.value.str()}, {"kind", s.kind}, {"expr", s.symbol.empty() ? s.source + " == " + s.value.str() : "Eq(" + s.symbol + ", " + s.value.str() + ")"}};
      if (!s.source.empty()) j["input"] = s.source;
      putContext(j, s.where);
      j["reason"] = s.reason;
      specializations.push_back(std::move(j));
    }
  }
  return {{"file", path}, {"symbolic", env != nullptr}, {"symbols", symbols}, {"guards", guards},
          {"specializations", specializations}};
}

std::string where(const sym::GuardContext& c) {
  std::string out;
  if (!c.node.empty()) {
    out += "%" + c.node + " = " + c.op + "(";
    for (size_t i = 0; i < c.argNames.size(); ++i) out += (i ? ", %" : "%") + c.argNames[i];
    out += ")";
  }
  if (!c.source.empty()) out += (out.empty() ? "" : "  at ") + c.source;
  if (!c.module.empty()) out += (out.empty() ? "" : "  in ") + c.module;
  return out.empty() ? "(no node)" : out;
}

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
              << "        " << where(g.where) << "\n"
              << "        why: " << g.reason << "\n";
  }
  std::cout << "  specializations (" << env->specializations().size() << "):\n";
  for (const auto& s : env->specializations()) {
    std::cout << "    [" << s.where.stage << "] " << (s.symbol.empty() ? s.source : s.symbol) << " -> " << s.value.str()
              << "  (" << s.kind << ")\n";
    if (!s.where.node.empty() || !s.where.source.empty()) std::cout << "        " << where(s.where) << "\n";
    std::cout << "        why: " << s.reason << "\n";
  }
}

}  // namespace

Command addGuardsCommand(CLI::App& parent) {
  auto opts = std::make_shared<GuardsOptions>();
  CLI::App* app = parent.add_subcommand("guards", "List a dump's guards and specializations with their provenance");
  app->add_option("DUMP", opts->dump, "The dump file (*.fathom.json), e.g. from `fathom trace MODEL --dynamic -o FILE`")->required();
  app->add_flag("--json", opts->json,
                "Print JSON: {file, symbolic, symbols, guards: [{expr, stage, node, op, source, module, reason, count}], "
                "specializations: [...]}");
  return {app, [opts] {
            int rc = kExitOk;
            auto dump = loadDumpOrReport(opts->dump, &rc);
            if (!dump) return rc;
            if (opts->json) printJson(guardsJson(dump->shapeEnv.get(), opts->dump));
            else printGuardsText(dump->shapeEnv.get(), opts->dump);
            return kExitOk;
          }};
}

}  // namespace fathom::cli
