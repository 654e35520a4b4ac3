// ShapeTracing: traces a frontend Model with a ShapeEnv behind the tracer's hooks - input
// dimensions become symbols (or stay concrete in a static trace), every op's guards learn their
// node, op, source line and module - and reports the events to a TraceLog.
#pragma once

#include <memory>

#include "engine/core/TraceEvents.h"
#include "engine/core/TraceLog.h"
#include "engine/dump/Dump.h"
#include "engine/frontend/Model.h"
#include "engine/symbolic/GuardSet.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom {

struct ShapeTraceOptions {
  bool dynamic = false;          // input dimensions become symbols
  sym::ShapeEnvOptions shapes;   // duck sizing, 0/1 specialization
  TraceLog* log = nullptr;       // events go here when set
  int64_t compileId = 0;
  // Added to the compile's compile_start, graph_captured and compile_end events: what the
  // caller knows of it, e.g. the call's sizes and the dump it is written to.
  CompileContext compileContext;
};

// The defaults with symbolic input sizes.
inline ShapeTraceOptions dynamicShapes() {
  ShapeTraceOptions o;
  o.dynamic = true;
  return o;
}

struct ShapeTrace {
  Dump dump;                             // graph "forward", example inputs, shape_env when dynamic
  std::shared_ptr<sym::ShapeEnv> env;    // the trace's env (empty for a static trace)
  double traceMs = 0;
};

Result<ShapeTrace> traceWithShapes(frontend::Model& model, const ShapeTraceOptions& options);

// Forwards the env's births (symbol_created, guard_added, specialization events) to `log`,
// until the env's listener is replaced.
void connectTraceLog(sym::ShapeEnv& env, TraceLog& log, int64_t compileId);

// How the env's facts appear in trace-log events: where a guard was asked; a check a call failed
// (trace --calls), which `entry` of the guarded cache refused it with.
TraceSite traceSiteOf(const sym::GuardContext& where);
RecompileFailure recompileFailureOf(size_t entry, const sym::GuardFailure& f);

}  // namespace fathom
