// TraceLog [TORCH_TRACE]: the engine's events as JSON lines, one event per line, each with the
// compile id, the stage and the time since the log opened:
//   {"event": "guard_added", "compile_id": 0, "stage": "trace", "time_us": 1834, "expr": ..., ...}
// Events: symbol_created, guard_added, specialization, graph_captured, compile_start,
// compile_end, cache_hit, recompile, guard_check, guards_installed, late_guard, partition,
// backward_compiled (and the jit's, engine/jit/CompileEvents.h). An event whose subject is a node
// names it ("node"); one that made or used a dump names it ("dump": graph_captured, compile_end,
// cache_hit, each failing guard of a recompile), so a viewer can open the graph and select the
// node (viz/model/Timeline.h reads these logs). A log without a file only counts events (tests,
// --json). time_us and compile_id restart with each run appended to the same file.
#pragma once

#include <chrono>
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "engine/core/Result.h"

namespace fathom {

// A value that is already JSON text (an object or array from an engine/dump encoder), written
// as JSON, not as a string; text that does not parse is written as a string.
struct LogJson {
  std::string text;
};

struct LogField {
  using Value = std::variant<int64_t, double, bool, std::string, std::vector<std::string>, LogJson>;
  std::string key;
  Value value;
};

class TraceLog {
 public:
  TraceLog();
  // Appends to `path` (created if missing): a log of several runs keeps them all.
  static Result<TraceLog> open(const std::string& path);

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
