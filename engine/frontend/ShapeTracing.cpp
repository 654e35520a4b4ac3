#include "engine/frontend/ShapeTracing.h"

#include <chrono>

#include "engine/core/Error.h"

namespace fathom {

TraceSite traceSiteOf(const sym::GuardContext& where) { return {where.node, where.op, where.source, where.module}; }

RecompileFailure recompileFailureOf(size_t entry, const sym::GuardFailure& f) {
  RecompileFailure r;
  r.entry = static_cast<int64_t>(entry);
  r.kind = f.kind;
  r.expr = f.expr;
  r.actual = f.actual;
  r.input = f.input;
  r.stage = f.where.stage;
  r.node = f.where.node;
  r.op = f.where.op;
  r.args = f.where.argNames;
  r.source = f.where.source;
  r.module = f.where.module;
  r.reason = f.reason;
  return r;
}

void connectTraceLog(sym::ShapeEnv& env, TraceLog& log, int64_t compileId) {
  env.setListener([&env, &log, compileId](sym::ShapeEnv::Event e, size_t i) {
    using E = sym::ShapeEnv::Event;
    const std::string stage = env.context().stage;
    if (e == E::SymbolCreated) {
      const auto& s = env.symbols()[i];
      log.emit(compileId, stage, SymbolCreatedEvent{s.name, s.hint, s.sources.front(), s.range.str()});
    } else if (e == E::GuardAdded) {
      const auto& g = env.guards()[i];
      log.emit(compileId, g.where.stage, GuardAddedEvent{{g.expr.str(), traceSiteOf(g.where), g.reason}});
    } else if (e == E::Specialized) {
      const auto& s = env.specializations()[i];
      const auto input = s.source.empty() ? std::nullopt : std::optional<std::string>(s.source);
      log.emit(compileId, stage, SpecializationEvent{s.symbol, s.value.str(), s.kind, traceSiteOf(s.where), input, s.reason});
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
  const CompileContext& context = options.compileContext;
  if (options.log) options.log->emit(options.compileId, "trace", CompileStartEvent{options.dynamic, {}, {}, context});
  const auto start = std::chrono::steady_clock::now();
  auto dump = frontend::trace(model, hooks);
  out.traceMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  env.setListener({});
  FATHOM_TRY(dump);
  out.dump = std::move(*dump);
  if (options.dynamic) out.dump.shapeEnv = out.env;
  if (options.log) {
    const Graph& g = out.dump.graphs.front().graph;
    options.log->emit(options.compileId, "trace",
                      GraphCapturedEvent{out.dump.graphs.front().name, static_cast<int64_t>(g.size()),
                                         static_cast<int64_t>(env.symbols().size()), static_cast<int64_t>(env.guards().size()),
                                         context});
    options.log->emit(options.compileId, "trace", CompileEndEvent{out.traceMs, context});
  }
  return out;
}

}  // namespace fathom
