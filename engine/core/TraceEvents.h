// TraceEvents: every kind of trace-log event (engine/core/TraceLog.h) as one struct - its name,
// its fields in their written order - so the code that emits an event and the code that reads it
// (the GUI's timeline, viz/model/TimelineEvents.cpp; later a reader of PyTorch's TORCH_TRACE logs)
// share one definition. Each struct's static visit lists its fields once for both directions
// (engine/core/TraceFields.h):
//
//   log.emit(compileId, "compile", CacheHitEvent{call, entry, dump});       // writes the line
//   auto hit = readTraceEvent<CacheHitEvent>(line);                         // reads it back
//
// Every line starts with the envelope (TraceEnvelope: event, compile_id, stage, time_us), which
// TraceLog adds. A std::optional field is written only when set; on reading, members the line
// lacks keep their defaults (-1 for counts and times, "" for text). A new kind is a struct here,
// its name in kTraceEventNames and its TimelineKind: tests/engine/core/TraceEventsTest.cpp
// round-trips every kind, tests/viz/TimelineEventsTest.cpp checks the timeline knows each.
// Long: the whole log format in one place - fifteen kinds, each a few lines.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/TraceFields.h"

namespace fathom {

// What starts every line; TraceLog writes it, a reader learns the kind from it.
struct TraceEnvelope {
  std::string event;
  int64_t compileId = -1;
  std::string stage;
  int64_t timeUs = 0;  // since the log opened
  static void visit(auto& e, auto&& field) {
    field("event", e.event); field("compile_id", e.compileId); field("stage", e.stage); field("time_us", e.timeUs);
  }
};
bool isTraceEnvelopeKey(std::string_view key);

// Where a guard was asked: the node, its op, the model's source line, the module.
struct TraceSite {
  std::string node, op, source, module;
  static void visit(auto& e, auto&& field) {
    field("node", e.node); field("op", e.op); field("source", e.source); field("module", e.module);
  }
};

// What the caller knows of a compile, added to its compile_start, graph_captured and compile_end:
// the call it serves and the cache entry it makes (trace --calls), the dump it writes.
struct CompileContext {
  std::optional<std::string> call;
  std::optional<int64_t> entry;
  std::optional<std::string> dump;
  static void visit(auto& e, auto&& field) { field("call", e.call); field("entry", e.entry); field("dump", e.dump); }
};

// ---- the ShapeEnv's facts, as they are recorded (stage: the one they were recorded in) ----

struct SymbolCreatedEvent {
  static constexpr std::string_view kName = "symbol_created";
  std::string symbol;       // "s0"
  int64_t hint = -1;        // the example size
  std::string source;       // "input_ids.size(0)"
  std::string range;        // "[2, inf]"
  static void visit(auto& e, auto&& field) {
    field("symbol", e.symbol); field("hint", e.hint); field("source", e.source); field("range", e.range);
  }
};

// A guard with where it was asked and why: guard_added when recorded, late_guard for one the lazy
// backward added after the forward's guards were installed (aot).
struct TracedGuard {
  std::string expr;
  TraceSite site;
  std::string reason;
  static void visit(auto& e, auto&& field) { field("expr", e.expr); TraceSite::visit(e.site, field); field("reason", e.reason); }
};
struct GuardAddedEvent : TracedGuard {
  static constexpr std::string_view kName = "guard_added";
};
struct LateGuardEvent : TracedGuard {
  static constexpr std::string_view kName = "late_guard";
};

struct SpecializationEvent {
  static constexpr std::string_view kName = "specialization";
  std::string symbol, value, kind;   // "s1", "128", "constant" (symbol "" for a zero-one input size)
  TraceSite site;
  std::optional<std::string> input;  // the input dimension, for zero-one: "y.size(1)"
  std::string reason;
  static void visit(auto& e, auto&& field) {
    field("symbol", e.symbol); field("value", e.value); field("kind", e.kind); TraceSite::visit(e.site, field);
    field("input", e.input); field("reason", e.reason);
  }
};

// One Z3 query of `fathom guards` (stage "guards").
struct GuardCheckEvent {
  static constexpr std::string_view kName = "guard_check";
  std::string check, subject, status;  // "consistency", "all guards", "sat"
  double ms = -1;
  static void visit(auto& e, auto&& field) {
    field("check", e.check); field("subject", e.subject); field("status", e.status); field("ms", e.ms);
  }
};

// ---- a compile: trace or aot ----

struct CompileStartEvent {
  static constexpr std::string_view kName = "compile_start";
  bool dynamic = false;
  std::optional<std::string> partitioner, backward;  // aot: "default"|"min-cut", "lazy"|"eager"
  CompileContext context;
  static void visit(auto& e, auto&& field) {
    field("dynamic", e.dynamic); field("partitioner", e.partitioner); field("backward", e.backward);
    CompileContext::visit(e.context, field);
  }
};

struct GraphCapturedEvent {
  static constexpr std::string_view kName = "graph_captured";
  std::string graph;                      // "forward", aot: "joint"
  int64_t nodes = -1;
  std::optional<int64_t> symbols, guards;  // a trace's ShapeEnv so far (not aot's)
  CompileContext context;
  static void visit(auto& e, auto&& field) {
    field("graph", e.graph); field("nodes", e.nodes); field("symbols", e.symbols); field("guards", e.guards);
    CompileContext::visit(e.context, field);
  }
};

struct CompileEndEvent {
  static constexpr std::string_view kName = "compile_end";
  double ms = -1;
  CompileContext context;
  static void visit(auto& e, auto&& field) { field("ms", e.ms); CompileContext::visit(e.context, field); }
};

// aot: the guards installed with the forward (lazy backward), the partition, the backward.
struct GuardsInstalledEvent {
  static constexpr std::string_view kName = "guards_installed";
  int64_t guards = -1;
  static void visit(auto& e, auto&& field) { field("guards", e.guards); }
};

struct PartitionEvent {
  static constexpr std::string_view kName = "partition";
  std::string partitioner;
  int64_t saved = -1, savedBytes = -1, forwardNodes = -1, backwardNodes = -1;
  double ms = -1;
  static void visit(auto& e, auto&& field) {
    field("partitioner", e.partitioner); field("saved", e.saved); field("saved_bytes", e.savedBytes);
    field("forward_nodes", e.forwardNodes); field("backward_nodes", e.backwardNodes); field("ms", e.ms);
  }
};

struct BackwardCompiledEvent {
  static constexpr std::string_view kName = "backward_compiled";
  std::string when;    // "forward", "first backward"
  int64_t guards = -1;  // all guards by then
  static void visit(auto& e, auto&& field) { field("when", e.when); field("guards", e.guards); }
};

// ---- the guarded cache of `trace --calls` (stage "compile") ----

struct CacheHitEvent {
  static constexpr std::string_view kName = "cache_hit";
  std::string call;  // "4x64"
  int64_t entry = -1;
  std::optional<std::string> dump;  // the entry's
  static void visit(auto& e, auto&& field) { field("call", e.call); field("entry", e.entry); field("dump", e.dump); }
};

// One check entry `entry` refused the call with: guardFailureJson's keys (engine/dump/GuardJson.h,
// what --json prints), then the compile that made the entry and its dump.
struct RecompileFailure {
  int64_t entry = -1;
  std::string kind, expr, actual, input;  // "range", "s0 >= 2", "s0 = 1", the input a check without provenance reads
  std::string stage, node, op;
  std::vector<std::string> args;
  std::string source, module, reason;
  int64_t compileId = -1;
  std::optional<std::string> dump;
  static void visit(auto& e, auto&& field) {
    field("entry", e.entry); field("kind", e.kind); field("expr", e.expr); field("actual", e.actual); field("input", e.input);
    field("stage", e.stage); field("node", e.node); field("op", e.op); field("args", e.args); field("source", e.source);
    field("module", e.module); field("reason", e.reason); field("compile_id", e.compileId); field("dump", e.dump);
  }
};

struct RecompileEvent {
  static constexpr std::string_view kName = "recompile";
  static constexpr std::string_view kFailingGuards = "failing_guards", kFailures = "failures";
  std::string call;
  int64_t entries = -1;                     // the cache's entries, all of which refused the call
  std::vector<std::string> failingGuards;   // each failure as one line of text (older logs: only these)
  std::vector<RecompileFailure> failures;
  static void visit(auto& e, auto&& field) {
    field("call", e.call); field("entries", e.entries); field(kFailingGuards, e.failingGuards); field(kFailures, e.failures);
  }
};

// ---- the jit (engine/jit/CompileEvents.h; stage "compile") ----

struct KernelCompiledEvent {
  static constexpr std::string_view kName = "kernel_compiled";
  std::string graph, kernel, kind;  // kind: "pointwise", "reduction", "extern", ...
  std::vector<std::string> nodes;
  std::string code;                 // "llvm" | "eager"
  std::optional<std::string> dump;
  std::optional<std::string> source;   // llvm: "compiled" | "disk cache" | "memory"
  std::optional<double> compileMs;     // llvm: the module's time shared by its kernels
  std::optional<std::string> why;      // eager: why not generated
  static void visit(auto& e, auto&& field) {
    field("graph", e.graph); field("kernel", e.kernel); field("kind", e.kind); field("nodes", e.nodes); field("code", e.code);
    field("dump", e.dump); field("source", e.source); field("compile_ms", e.compileMs); field("why", e.why);
  }
};

struct CompileAssumptionEvent {
  static constexpr std::string_view kName = "compile_assumption";
  std::string graph, input;
  std::vector<std::string> sizes, strides;  // as the generated code trusts them
  std::string kernel;
  std::vector<std::string> nodes;
  std::string check;  // "runtime" | "unchecked"
  std::optional<std::string> dump;
  static void visit(auto& e, auto&& field) {
    field("graph", e.graph); field("input", e.input); field("sizes", e.sizes); field("strides", e.strides);
    field("kernel", e.kernel); field("nodes", e.nodes); field("check", e.check); field("dump", e.dump);
  }
};

// Every kind's name, in the order above.
inline constexpr std::array<std::string_view, 15> kTraceEventNames = {
    SymbolCreatedEvent::kName, GuardAddedEvent::kName,   LateGuardEvent::kName,       SpecializationEvent::kName,
    GuardCheckEvent::kName,    CompileStartEvent::kName, GraphCapturedEvent::kName,   CompileEndEvent::kName,
    GuardsInstalledEvent::kName, PartitionEvent::kName,  BackwardCompiledEvent::kName, CacheHitEvent::kName,
    RecompileEvent::kName,     KernelCompiledEvent::kName, CompileAssumptionEvent::kName};

// What a reader can learn of a kind it does not know, by the log's conventions: the call, the dump
// it made or used, the graph and node it is about, its time.
struct UnknownEvent {
  std::string call, dump, graph, node;
  double ms = -1;
  static void visit(auto& e, auto&& field) {
    field("call", e.call); field("dump", e.dump); field("graph", e.graph); field("node", e.node); field("ms", e.ms);
  }
};

}  // namespace fathom
