// TraceLog [TORCH_TRACE]: the engine's events as JSON lines, one event per line, each with the
// compile id, the stage and the time since the log opened:
//   {"event": "guard_added", "compile_id": 0, "stage": "trace", "time_us": 1834, "expr": ..., ...}
// Events: symbol_created, guard_added, specialization, graph_captured, compile_start,
// compile_end, cache_hit, recompile, guard_check, guards_installed, late_guard, partition,
// backward_compiled. A log without a file only counts events (tests, --json).
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

struct LogField {
  using Value = std::variant<int64_t, double, bool, std::string, std::vector<std::string>>;
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
