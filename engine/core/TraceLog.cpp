#include "engine/core/TraceLog.h"

#include <nlohmann/json.hpp>

#include <cstring>
#include <type_traits>

namespace fathom {

TraceLog::TraceLog() : start_(std::chrono::steady_clock::now()) {}

Result<TraceLog> TraceLog::open(const std::string& path) {
  TraceLog log;
  log.path_ = path;
  log.out_.open(path, std::ios::app);
  if (!log.out_) return invalidInput("cannot open trace log for writing: " + std::string(std::strerror(errno)), path);
  return log;
}

int64_t TraceLog::elapsedUs() const {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start_).count();
}

void TraceLog::emit(std::string_view event, int64_t compileId, std::string_view stage, const std::vector<LogField>& fields) {
  ++events_;
  if (!out_.is_open()) return;
  nlohmann::ordered_json j;
  j["event"] = event;
  j["compile_id"] = compileId;
  j["stage"] = stage;
  j["time_us"] = elapsedUs();
  for (const auto& f : fields) {
    if (const auto* json = std::get_if<LogJson>(&f.value)) {
      auto parsed = nlohmann::ordered_json::parse(json->text, nullptr, /*allow_exceptions=*/false);
      j[f.key] = parsed.is_discarded() ? nlohmann::ordered_json(json->text) : std::move(parsed);
      continue;
    }
    std::visit([&](const auto& v) {
      if constexpr (!std::is_same_v<std::decay_t<decltype(v)>, LogJson>) j[f.key] = v;
    }, f.value);
  }
  // Replace, never throw, on invalid UTF-8 (node names come from user files).
  out_ << j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
  out_.flush();  // an interrupted run keeps every event up to the interruption
}

}  // namespace fathom
