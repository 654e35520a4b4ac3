#include "engine/core/TraceValue.h"

namespace fathom {

const TraceValue* TraceValue::find(std::string_view key) const {
  for (const auto& [k, v] : fields)
    if (k == key) return &v;
  return nullptr;
}

}  // namespace fathom
