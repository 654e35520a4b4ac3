// TraceLogRead (see the header): nlohmann's DOM converted to TraceValue, depth-checked first.
#include "engine/dump/TraceLogRead.h"

#include <nlohmann/json.hpp>

#include "engine/dump/JsonText.h"

namespace fathom {
namespace {

using ojson = nlohmann::ordered_json;

constexpr int kMaxDepth = 32;

TraceValue convert(const ojson& j) {
  TraceValue v;
  v.string = j.is_string() ? j.get<std::string>() : j.dump(-1, ' ', false, ojson::error_handler_t::replace);
  switch (j.type()) {
    case ojson::value_t::boolean: v.kind = TraceValue::Kind::Bool, v.flag = j.get<bool>(); break;
    case ojson::value_t::number_integer:
    case ojson::value_t::number_unsigned:
      v.kind = TraceValue::Kind::Integer, v.integer = j.get<int64_t>(), v.number = static_cast<double>(v.integer);
      break;
    case ojson::value_t::number_float: v.kind = TraceValue::Kind::Number, v.number = j.get<double>(); break;
    case ojson::value_t::string: v.kind = TraceValue::Kind::String; break;
    case ojson::value_t::array:
      v.kind = TraceValue::Kind::List;
      for (const auto& item : j) v.items.push_back(convert(item));
      break;
    case ojson::value_t::object:
      v.kind = TraceValue::Kind::Object;
      for (const auto& [key, value] : j.items()) v.fields.push_back(TraceField{key, convert(value)});
      break;
    default: break;
  }
  return v;
}

}  // namespace

Result<TraceValue> readTraceLogLine(std::string_view line) {
  if (auto depth = checkJsonDepth(line, kMaxDepth); !depth.ok()) return depth.error();
  auto j = ojson::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return invalidInput("not JSON (a trace log has one JSON event per line)");
  auto event = j.is_object() ? j.find("event") : j.end();
  if (!j.is_object() || event == j.end() || !event->is_string()) return invalidInput("not an event: no \"event\" name");
  return convert(j);
}

}  // namespace fathom
