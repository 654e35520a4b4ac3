// TraceFields: how an event's fields become a trace-log line and come back. Each event struct
// (engine/core/TraceEvents.h) lists its fields once, in their written order, in a static
// `visit(event, field)` that calls `field("key", event.member)` for each; the writer and the reader
// here both walk that one list, so they cannot disagree on a key, its type or its place.
//
//   std::vector<LogField> fields = traceFields(CacheHitEvent{"4x64", 0, {}});  // call, entry
//   auto hit = readTraceEvent<CacheHitEvent>(line);  // line: a TraceValue (TraceLogRead.h)
//
// Member types: std::string, int64_t, double, bool, std::vector<std::string>, a list of records
// (a struct with its own visit: written as a list of objects), and std::optional of those,
// written only when set. Reading is lenient, as a hand-edited or foreign log needs: a field that is
// missing or of another type leaves the member as it was (its default, -1 for a count the line
// lacks); a string member takes any non-null value's text; a list skips items that are not objects
// where it wants records.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/core/TraceValue.h"

namespace fathom {

// A value that is already JSON text (an object or array from an engine/dump encoder), written
// as JSON, not as a string; text that does not parse is written as a string.
struct LogJson {
  std::string text;
};

struct LogField {
  using Objects = std::vector<std::vector<LogField>>;  // a list of objects, each its fields in order
  using Value = std::variant<int64_t, double, bool, std::string, std::vector<std::string>, LogJson, Objects>;
  std::string key;
  Value value;
};

// Collects an event's fields in their order (the `field` that visit calls).
class TraceFieldWriter {
 public:
  void operator()(std::string_view key, const std::string& v);
  void operator()(std::string_view key, int64_t v);
  void operator()(std::string_view key, double v);
  void operator()(std::string_view key, bool v);
  void operator()(std::string_view key, const std::vector<std::string>& v);
  template <class T>
  void operator()(std::string_view key, const std::optional<T>& v) {
    if (v) (*this)(key, *v);
  }
  template <class Record>
  void operator()(std::string_view key, const std::vector<Record>& records) {
    LogField::Objects objects;
    for (const Record& r : records) {
      TraceFieldWriter inner;
      Record::visit(r, inner);
      objects.push_back(std::move(inner.fields_));
    }
    fields_.push_back({std::string(key), std::move(objects)});
  }
  std::vector<LogField> take() { return std::move(fields_); }

 private:
  std::vector<LogField> fields_;
};

// Reads an event's fields from a line's object (the `field` that visit calls).
class TraceFieldReader {
 public:
  explicit TraceFieldReader(const TraceValue& object) : object_(object) {}
  void operator()(std::string_view key, std::string& v) const;
  void operator()(std::string_view key, int64_t& v) const;
  void operator()(std::string_view key, double& v) const;
  void operator()(std::string_view key, bool& v) const;
  void operator()(std::string_view key, std::vector<std::string>& v) const;
  template <class T>
  void operator()(std::string_view key, std::optional<T>& v) const {
    if (!present(key)) return;
    T value{};
    (*this)(key, value);
    v = std::move(value);
  }
  template <class Record>
  void operator()(std::string_view key, std::vector<Record>& records) const {
    for (const TraceValue* item : objectsIn(key)) {
      Record r;
      Record::visit(r, TraceFieldReader(*item));
      records.push_back(std::move(r));
    }
  }

 private:
  bool present(std::string_view key) const;  // there and not null
  std::vector<const TraceValue*> objectsIn(std::string_view key) const;
  const TraceValue& object_;
};

// An event's (or record's) fields, in its visit's order.
template <class Event>
std::vector<LogField> traceFields(const Event& event) {
  TraceFieldWriter writer;
  Event::visit(event, writer);
  return writer.take();
}

// An event read from a line's object; members the line lacks keep their defaults.
template <class Event>
Event readTraceEvent(const TraceValue& line) {
  Event event;
  Event::visit(event, TraceFieldReader(line));
  return event;
}

}  // namespace fathom
