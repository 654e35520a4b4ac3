// TraceLogRead: one line of a trace log (engine/core/TraceLog.h writes them: one JSON object per
// line with an "event" name) read into plain values, so a reader outside engine/dump - the GUI's
// timeline (viz/model/Timeline.h) - needs no JSON library. Nested values keep their structure (a
// recompile's failures: a list of objects); fields keep the line's order.
//
//   auto line = readTraceLogLine(R"({"event": "cache_hit", "compile_id": 0, "call": "4x64"})");
//   line->find("call")->text();   // "4x64"
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/core/Result.h"

namespace fathom {

struct TraceField;

struct TraceValue {
  enum class Kind : uint8_t { Null, Bool, Integer, Number, String, List, Object };
  Kind kind = Kind::Null;
  bool flag = false;     // Bool
  int64_t integer = 0;   // Integer
  double number = 0;     // Number, and Integer as a double
  std::string string;    // String: the string; any other kind: its compact JSON text
  std::vector<TraceValue> items;                           // List
  std::vector<TraceField> fields;                          // Object, in the line's order

  const TraceValue* find(std::string_view key) const;      // an Object's field, else null
  const std::string& text() const { return string; }
  bool isNumber() const { return kind == Kind::Integer || kind == Kind::Number; }
};

// An Object's field. A struct rather than std::pair: a pair may not hold the still-incomplete
// TraceValue (libstdc++ asserts it under clang, the fuzz build's compiler).
struct TraceField {
  std::string key;
  TraceValue value;
};

// The line's object, whose "event" is a string; else an error saying what the line is instead:
// "not JSON ...", "not an event: no \"event\" name", or nested too deep (over 32 levels).
Result<TraceValue> readTraceLogLine(std::string_view line);

}  // namespace fathom
