// TraceLog [TORCH_TRACE]: the engine's events as JSON lines, one event per line, each with the
// compile id, the stage and the time since the log opened:
//   {"event": "guard_added", "compile_id": 0, "stage": "trace", "time_us": 1834, "expr": ..., ...}
// Every kind is a struct in engine/core/TraceEvents.h (symbol_created, guard_added, ...,
// kernel_compiled) with its fields in their order; emitters write one with
// emit(compileId, stage, event), and readers (viz/model/Timeline.h) decode a line with the same
// struct, so writer and reader cannot drift (tests/structure/check.py refuses an event name given
// as a literal elsewhere). An event whose subject is a node names it ("node"); one that made or
// used a dump names it ("dump": graph_captured, compile_end, cache_hit, each failing guard of a
// recompile), so a viewer can open the graph and select the node. A log without a file only
// counts events (tests, --json). time_us and compile_id restart with each run appended to the
// same file.
#pragma once

#include <chrono>
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/Result.h"
#include "engine/core/TraceFields.h"

namespace fathom {

class TraceLog {
 public:
  TraceLog();
  // Appends to `path` (created if missing): a log of several runs keeps them all.
  static Result<TraceLog> open(const std::string& path);

  // One event of engine/core/TraceEvents.h: its name, then its fields in their order.
  template <class Event>
  void emit(int64_t compileId, std::string_view stage, const Event& event) {
    emit(Event::kName, compileId, stage, traceFields(event));
  }
  // Any event, as named fields: what the typed emit above writes through (and TraceLog's own tests).
  void emit(std::string_view event, int64_t compileId, std::string_view stage, const std::vector<LogField>& fields = {});
  int64_t eventCount() const { return events_; }
  // Microseconds since the log was opened.
  int64_t elapsedUs() const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::ofstream out_;
  std::chrono::steady_clock::time_point start_;
  int64_t events_ = 0;
};

}  // namespace fathom
