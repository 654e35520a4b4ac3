// Timeline: a trace log (`--trace-log`, engine/core/TraceLog.h: one JSON event per line) read
// into compile sessions - what the GUI's timeline draws and lists, without Qt.
//
//   auto t = loadTimeline("/tmp/tl.jsonl");   // Result<Timeline>
//   t->summary.compiles;                       // 3 for `trace bert --dynamic --calls 8x128,4x64,1x64,8x1`
//   const TimelineEvent& r = t->events[i];     // a recompile: r.failures, each with its provenance
//   r.failures[0].target;                      // {dump of the entry it failed, graph, node}
//
// Reading is tolerant: a line that is not JSON, or not an event, is listed in `problems` with its
// line number and skipped; an event of a kind this build does not know is kept as Other. A file
// with no event in its first lines (a dump, a text file) is one error naming the file and line.
// A log can hold several runs appended to it: time_us and compile ids restart with each, so
// events carry their run and the axis places runs one after another (axisUs).
//
// What an event points at (TimelineTarget): the dump it names (graph_captured, compile_end,
// cache_hit, each failing guard), else its compile's dump; the graph it names, else its compile's;
// the node it names (guard_added, specialization, late_guard, compile_assumption's input, a
// kernel's first node, a symbol's input, a failing guard's node or input).
#pragma once

#include <atomic>
#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/core/Result.h"

namespace fathom::viz {

enum class TimelineKind : uint8_t {
  CompileStart, CompileEnd, GraphCaptured, CacheHit, Recompile, GuardAdded, Specialization, LateGuard,
  GuardsInstalled, SymbolCreated, Partition, BackwardCompiled, GuardCheck, KernelCompiled, CompileAssumption,
  Other,
};
inline constexpr int kTimelineKinds = static_cast<int>(TimelineKind::Other) + 1;

// The event's name in the log ("recompile"), "other" for Other.
std::string_view timelineKindName(TimelineKind kind);
TimelineKind timelineKindOf(std::string_view eventName);  // Other when unknown

// Where clicking an event leads: the dump to open, the graph tab, the node to select.
struct TimelineTarget {
  std::string dump;   // as the log names it (resolve with resolveTimelineDump); "" = none known
  std::string graph;  // "" = the dump's first graph
  std::string node;   // without "%"; "" = none
  bool empty() const { return dump.empty() && node.empty(); }
};

// One guard a recompile's call failed, in the entry it failed (not the compile it caused).
struct FailingGuard {
  int64_t entry = -1;           // the cache entry that refused the call
  int64_t entryCompileId = -1;  // the compile that made that entry
  std::string kind, expr, actual, reason;      // "range", "s0 >= 2", "s0 = 1", why it exists
  std::string node, op, source, module, input;  // provenance; input: the placeholder of a check without one
  TimelineTarget target;        // the entry's dump, its graph, node (or input)
  // "%slice_1 = aten.slice.Tensor at BertModel.cpp:209 in encoder", or "input %input_ids".
  std::string provenance() const;
};

struct TimelineEvent {
  TimelineKind kind = TimelineKind::Other;
  std::string name;       // as logged: "recompile", or an unknown kind's own name
  int line = 0;           // 1-based line of the file
  int run = 0;            // which run appended it (0-based)
  int64_t compileId = -1; // -1 when the line has none
  int session = -1;       // index in Timeline::compiles; -1: none (a Z3 check, a jit run's kernel)
  std::string stage;
  int64_t timeUs = 0;     // as logged: since its run's log opened
  int64_t axisUs = 0;     // on the timeline's axis (runs one after another)
  std::string summary;    // one line for lists and tooltips
  std::vector<std::pair<std::string, std::string>> fields;  // the other fields, as text, in log order
  TimelineTarget target;
  std::vector<FailingGuard> failures;  // Recompile: every failing guard
  std::string call;       // the call's sizes ("8x1") where it names one
  double ms = -1;         // compile_end's time, a kernel's compile time, a check's time; -1 none
  std::string kernelSource;  // KernelCompiled: "compiled", "disk cache", "memory", "" for eager
};

// One compile id of one run: its events and what they say about it.
struct CompileSession {
  int run = 0;
  int64_t compileId = 0;
  int64_t startUs = -1, endUs = -1;  // on the axis; -1 when the log lacks the start / end
  double ms = -1;                    // compile_end's figure
  std::string call, dump, graph;     // what it was compiled for, the dump written, its graph
  int64_t nodes = -1;
  int recompile = -1;                // index of the recompile event that caused it; -1 first compile
  std::vector<int> events;           // indices in Timeline::events, in log order
  std::vector<int> hits;             // cache_hit events served by this compile's entry
  int guardsAdded = 0, specializations = 0, lateGuards = 0, kernels = 0;
  std::string label() const;         // "compile 1 · 1x64" (with "run 2 · " when several runs)
};

struct TimelineSummary {
  int events = 0, runs = 0, compiles = 0, hits = 0, misses = 0, recompiles = 0, failingGuards = 0;
  int guardsAdded = 0, specializations = 0, lateGuards = 0, symbols = 0, guardChecks = 0, other = 0;
  int kernels = 0, kernelsCompiled = 0, kernelsDiskCache = 0, kernelsMemory = 0, kernelsEager = 0;
  double compileMs = 0, kernelMs = 0;
  std::string text() const;  // "3 compiles (2 recompiles, 5 failing guards), 1 cache hit, ..."
};

struct TimelineProblem {
  int line = 0;
  std::string message;
};

struct Timeline {
  std::string path;
  std::vector<TimelineEvent> events;      // in log order
  std::vector<CompileSession> compiles;   // by run, then first appearance
  std::vector<TimelineProblem> problems;  // lines skipped
  TimelineSummary summary;
  int64_t endUs = 0;                      // the axis's end
  int runs = 1;
  std::map<std::pair<int, int64_t>, int> sessionIndex;  // (run, compile id) -> index in compiles

  int sessionOf(const TimelineEvent& e) const { return e.session; }
  int session(int run, int64_t compileId) const;  // index in compiles, or -1
  // The first compile's dump (what to open with a log alone); "" when no event names one.
  std::string firstDump() const;
};

struct TimelineReadOptions {
  const std::atomic<bool>* cancel = nullptr;  // set: stop with an error
  std::atomic<int64_t>* bytesRead = nullptr;  // progress for a large log
};

// `path` names the source in errors and problems.
Result<Timeline> readTimeline(std::istream& in, const std::string& path, const TimelineReadOptions& options = {});
Result<Timeline> loadTimeline(const std::string& path, const TimelineReadOptions& options = {});

// Where the dump a log names is: as named when it exists, else the file of that name beside the
// log (a session's folder moved), else as named (opening it then says what is wrong).
std::string resolveTimelineDump(const std::string& logPath, const std::string& dump);

}  // namespace fathom::viz
