// A debug-interpreter mismatch as JSON (see MismatchJson.h).
#include "engine/dump/MismatchJson.h"

#include <nlohmann/json.hpp>

#include "engine/interp/DebugInterpreter.h"

namespace fathom {

nlohmann::ordered_json mismatchJson(const Mismatch& m) {
  return {{"graph", m.graph}, {"node", m.node}, {"op", m.op}, {"field", m.field}, {"expected", m.expected},
          {"actual", m.actual}, {"origin", m.origin}, {"source", m.source}, {"module", m.module}};
}

}  // namespace fathom
