// TraceFields (see the header): the writer's and the reader's field types, one overload each.
#include "engine/core/TraceFields.h"

namespace fathom {

void TraceFieldWriter::operator()(std::string_view key, const std::string& v) { fields_.push_back({std::string(key), v}); }
void TraceFieldWriter::operator()(std::string_view key, int64_t v) { fields_.push_back({std::string(key), v}); }
void TraceFieldWriter::operator()(std::string_view key, double v) { fields_.push_back({std::string(key), v}); }
void TraceFieldWriter::operator()(std::string_view key, bool v) { fields_.push_back({std::string(key), v}); }
void TraceFieldWriter::operator()(std::string_view key, const std::vector<std::string>& v) {
  fields_.push_back({std::string(key), v});
}

bool TraceFieldReader::present(std::string_view key) const {
  const TraceValue* v = object_.find(key);
  return v && v->kind != TraceValue::Kind::Null;
}

void TraceFieldReader::operator()(std::string_view key, std::string& v) const {
  if (present(key)) v = object_.find(key)->text();
}

void TraceFieldReader::operator()(std::string_view key, int64_t& v) const {
  const TraceValue* value = object_.find(key);
  if (!value || !value->isNumber()) return;
  v = value->kind == TraceValue::Kind::Integer ? value->integer : static_cast<int64_t>(value->number);
}

void TraceFieldReader::operator()(std::string_view key, double& v) const {
  const TraceValue* value = object_.find(key);
  if (value && value->isNumber()) v = value->number;
}

void TraceFieldReader::operator()(std::string_view key, bool& v) const {
  const TraceValue* value = object_.find(key);
  if (value && value->kind == TraceValue::Kind::Bool) v = value->flag;
}

// A list's items as text: strings as they are, anything else as its JSON text.
void TraceFieldReader::operator()(std::string_view key, std::vector<std::string>& v) const {
  const TraceValue* value = object_.find(key);
  if (!value || value->kind != TraceValue::Kind::List) return;
  v.clear();
  for (const TraceValue& item : value->items) v.push_back(item.text());
}

std::vector<const TraceValue*> TraceFieldReader::objectsIn(std::string_view key) const {
  std::vector<const TraceValue*> out;
  const TraceValue* value = object_.find(key);
  if (!value || value->kind != TraceValue::Kind::List) return out;
  for (const TraceValue& item : value->items)
    if (item.kind == TraceValue::Kind::Object) out.push_back(&item);
  return out;
}

}  // namespace fathom
