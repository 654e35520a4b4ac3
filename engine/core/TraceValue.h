// TraceValue: a JSON value as plain C++ values - what one trace-log line is read into
// (engine/dump/TraceLogRead.h parses the text) and what the events' readers
// (engine/core/TraceEvents.h) decode, so neither they nor the GUI's timeline need a JSON library.
// Nested values keep their structure (a recompile's failures: a list of objects); an object's
// fields keep the line's order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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

}  // namespace fathom
