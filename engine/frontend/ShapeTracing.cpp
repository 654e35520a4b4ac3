#include "engine/frontend/ShapeTracing.h"

#include <chrono>

#include "engine/core/Error.h"

namespace fathom {
namespace {

std::vector<LogField> contextFields(const sym::GuardContext& c) {
  return {{"node", c.node}, {"op", c.op}, {"source", c.source}, {"module", c.module}};
}

}  // namespace

void connectTraceLog(sym::ShapeEnv& env, TraceLog& log, int64_t compileId) {
  env.setListener([&env, &log, compileId](sym::ShapeEnv::Event e, size_t i) {
    using E = sym::ShapeEnv::Event;
    const std::string stage = env.context().stage;
    if (e == E::SymbolCreated) {
      const auto& s = env.symbols()[i];
      log.emit("symbol_created", compileId, stage, {{"symbol", s.name}, {"hint", s.hint}, {"source", s.sources.front()}, {"range", s.range.str()}});
    } else if (e == E::GuardAdded) {
      const auto& g = env.guards()[i];
      auto fields = contextFields(g.where);
      fields.insert(fields.begin(), LogField{"expr", g.expr.str()});
      fields.push_back({"reason", g.reason});
      log.emit("guard_added", compileId, g.where.stage, fields);
    } else if (e == E::Specialized) {
      const auto& s = env.specializations()[i];
      auto fields = contextFields(s.where);
      fields.insert(fields.begin(), {{"symbol", s.symbol}, {"value", s.value.str()}, {"kind", s.kind}});
      if (!s.source.empty()) fields.push_back({"input", s.source});
      fields.push_back({"reason", s.reason});
      log.emit("specialization", compileId, stage, fields);
    }
  });
}

Result<ShapeTrace> traceWithShapes(frontend::Model& model, const ShapeTraceOptions& options) {
  ShapeTrace out;
  out.env = sym::ShapeEnv::create(options.shapes);
  if (options.log) connectTraceLog(*out.env, *options.log, options.compileId);
  sym::ShapeEnv& env = *out.env;
  frontend::TraceHooks hooks;
  if (options.dynamic) hooks.makeSize = [&env](int64_t hint, const std::string& source) { return env.createSize(hint, source); };
  hooks.beforeNode = [&env](const frontend::NodeContext& c) {
    env.setContext({c.stage == "backward" ? "aot-backward" : "trace", c.node, c.op, c.source, c.module, c.argNames});
  };
  auto withCompileFields = [&options](std::vector<LogField> fields) {
    fields.insert(fields.end(), options.compileFields.begin(), options.compileFields.end());
    return fields;
  };
  if (options.log) options.log->emit("compile_start", options.compileId, "trace", withCompileFields({{"dynamic", options.dynamic}}));
  const auto start = std::chrono::steady_clock::now();
  auto dump = frontend::trace(model, hooks);
  out.traceMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  env.setListener({});
  FATHOM_TRY(dump);
  out.dump = std::move(*dump);
  if (options.dynamic) out.dump.shapeEnv = out.env;
  if (options.log) {
    const Graph& g = out.dump.graphs.front().graph;
    options.log->emit("graph_captured", options.compileId, "trace",
                      withCompileFields({{"graph", out.dump.graphs.front().name}, {"nodes", static_cast<int64_t>(g.size())},
                                         {"symbols", static_cast<int64_t>(env.symbols().size())},
                                         {"guards", static_cast<int64_t>(env.guards().size())}}));
    options.log->emit("compile_end", options.compileId, "trace", withCompileFields({{"ms", out.traceMs}}));
  }
  return out;
}

}  // namespace fathom
