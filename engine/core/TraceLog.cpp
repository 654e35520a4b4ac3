#include "engine/core/TraceLog.h"

#include <nlohmann/json.hpp>

#include <cstring>
#include <type_traits>

#include "engine/core/TraceEvents.h"

namespace fathom {
namespace {

using ojson = nlohmann::ordered_json;

void putFields(ojson& j, const std::vector<LogField>& fields) {
  for (const auto& f : fields) {
    std::visit([&](const auto& v) {
      using T = std::decay_t<decltype(v)>;
      if constexpr (std::is_same_v<T, LogJson>) {
        auto parsed = ojson::parse(v.text, nullptr, /*allow_exceptions=*/false);
        j[f.key] = parsed.is_discarded() ? ojson(v.text) : std::move(parsed);
      } else if constexpr (std::is_same_v<T, LogField::Objects>) {
        ojson list = ojson::array();
        for (const auto& object : v) {
          ojson item = ojson::object();
          putFields(item, object);
          list.push_back(std::move(item));
        }
        j[f.key] = std::move(list);
      } else {
        j[f.key] = v;
      }
    }, f.value);
  }
}

}  // namespace

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
  ojson j;
  putFields(j, traceFields(TraceEnvelope{std::string(event), compileId, std::string(stage), elapsedUs()}));
  putFields(j, fields);
  // Replace, never throw, on invalid UTF-8 (node names come from user files).
  out_ << j.dump(-1, ' ', false, ojson::error_handler_t::replace) << '\n';
  out_.flush();  // an interrupted run keeps every event up to the interruption
}

}  // namespace fathom
